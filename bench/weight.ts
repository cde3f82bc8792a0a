/**
 * What a partner's page downloads (the same measurement as the weight test): the JavaScript fetched
 * by a page with only <exp-agent-directory>, and by one with <exp-property-search> and its map,
 * gzip level 9, against the budgets. Figures for the README.
 */
import { chromium } from 'playwright';
import { openPglite } from '../server/db/pglite.ts';
import { startServer } from '../server/server.ts';
import { launchOptions } from '../tests/support/chromium.ts';
import { pageWeight, WEIGHT_BUDGETS, type PageWeight } from '../tests/support/weight.ts';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const name = (url: string) => new URL(url).pathname.replace(/^\/widgets\//, '').replace(/-[\w-]{8}\.js$/, '.js');

export async function benchWeight(): Promise<Record<string, unknown>> {
  const db = await openPglite(null);
  const server = await startServer({ db, port: 0 });
  await server.ready;
  const browser = await chromium.launch(launchOptions);
  const pages: Record<string, PageWeight> = {};
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    pages.directory = await pageWeight(page, server.url, 'directory');
    pages.search = await pageWeight(page, server.url, 'search');
  } finally {
    await browser.close();
    await server.close();
  }
  const rows = [
    ['the entry script (every page)', pages.directory?.entryGzip ?? NaN, WEIGHT_BUDGETS.entry],
    ['a page with only `<exp-agent-directory>`', pages.directory?.totalGzip ?? NaN, WEIGHT_BUDGETS.directory],
    ['a page with `<exp-property-search>` and its map', pages.search?.totalGzip ?? NaN, WEIGHT_BUDGETS.search],
  ] as const;
  const biggest = [...(pages.search?.files ?? [])].sort((a, b) => b.gzip - a.gzip).slice(0, 4);
  const markdown = [
    `### Weight on a partner's page (JavaScript downloaded, gzip; ${new Date().toISOString().slice(0, 10)})`,
    '',
    '| page | downloaded | budget |',
    '|---|---|---|',
    ...rows.map(([label, value, budget]) => `| ${label} | ${kb(value)} | ${kb(budget)} |`),
    '',
    `Largest files of the search page: ${biggest.map((f) => `\`${name(f.url)}\` ${kb(f.gzip)}`).join(', ')}.`,
  ].join('\n');
  return { budgets: WEIGHT_BUDGETS, pages, withinBudgets: rows.every(([, v, b]) => v <= b), markdown };
}
