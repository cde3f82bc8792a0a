/**
 * What a partner's page downloads (the same measurement as the weight test): the JavaScript fetched
 * by a page with only <exp-agent-directory>, and by one with <exp-property-search> and its map (at
 * a desktop's width, and on a phone, where the map is shown on request), and by our own site's
 * search page at both, gzip level 9, against the budgets. Figures for docs/benchmarks.md.
 */
import { pageWeight, WEIGHT_BUDGETS, type PageWeight } from '../tests/support/weight.ts';
import { withSite } from './site.ts';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const name = (url: string) => new URL(url).pathname.replace(/^\/widgets\//, '').replace(/-[\w-]{8}\.js$/, '.js');

export async function benchWeight(): Promise<Record<string, unknown>> {
  const pages: Record<string, PageWeight> = {};
  await withSite({}, async (page, url) => {
    pages.directory = await pageWeight(page, url, 'directory');
    pages.search = await pageWeight(page, url, 'search');
    pages.searchPhone = await pageWeight(page, url, 'searchPhone');
    pages.site = await pageWeight(page, url, 'site');
    pages.sitePhone = await pageWeight(page, url, 'sitePhone');
  });
  const rows = [
    ['the entry script (every page)', pages.directory?.entryGzip ?? NaN, WEIGHT_BUDGETS.entry],
    ['a page with only `<exp-agent-directory>`', pages.directory?.totalGzip ?? NaN, WEIGHT_BUDGETS.directory],
    ['a page with `<exp-property-search>` and its map', pages.search?.totalGzip ?? NaN, WEIGHT_BUDGETS.search],
    [
      'the same page on a phone (390 px; the map waits behind "Show the map")',
      pages.searchPhone?.totalGzip ?? NaN,
      WEIGHT_BUDGETS.searchPhone,
    ],
    [
      "our own site's search page at 1366 px (the header and its language switch; the footer and Recently viewed come with a scroll)",
      pages.site?.totalGzip ?? NaN,
      WEIGHT_BUDGETS.site,
    ],
    ['the same page on a phone (390 px)', pages.sitePhone?.totalGzip ?? NaN, WEIGHT_BUDGETS.sitePhone],
  ] as const;
  const biggest = [...(pages.search?.files ?? [])].sort((a, b) => b.gzip - a.gzip).slice(0, 4);
  const markdown = [
    `### Weight on a partner's page and our own (JavaScript downloaded, gzip; ${new Date().toISOString().slice(0, 10)})`,
    '',
    '| page | downloaded | budget |',
    '|---|---|---|',
    ...rows.map(([label, value, budget]) => `| ${label} | ${kb(value)} | ${kb(budget)} |`),
    '',
    `Largest files of the search page: ${biggest.map((f) => `\`${name(f.url)}\` ${kb(f.gzip)}`).join(', ')}.`,
    '',
    "Each file gzip level 9 with its chunks' names' hashes replaced by stand-ins as long (tests/support/weight.ts `contentGzip`): new hashes compress a few bytes better or worse, which moved a page by up to 30 bytes with no code changed.",
  ].join('\n');
  return { budgets: WEIGHT_BUDGETS, pages, withinBudgets: rows.every(([, v, b]) => v <= b), markdown };
}
