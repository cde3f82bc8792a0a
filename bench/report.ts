/** Renders the benchmark figures for README.md from bench/results/*.json. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function read(dir: string, name: string): Json | undefined {
  const file = join(dir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Json) : undefined;
}

const ms = (x: number | undefined) => (x === undefined ? '–' : `${x.toFixed(1)} ms`);

function api(r: Json): string {
  const lines = [`### Data API (${r.listings.toLocaleString('en-US')} listings, ${r.iterations} searches per case; ${r.date.slice(0, 10)}, ${r.machine.cpus} cores)`, ''];
  lines.push('Search as the widget runs it: count and page in parallel through `@supabase/postgrest-js`.', '');
  lines.push('| case | PostgreSQL p50 | PostgreSQL p95 | same SQL direct p95 | overhead p50 / p95 | PGlite p50 | PGlite p95 |', '|---|---|---|---|---|---|---|');
  for (const c of r.cases as string[]) {
    const pgS = r.postgres?.search?.[c];
    const direct = r.postgres?.directSql?.[c];
    const o = r.postgres?.overhead?.[c];
    const lite = r.pglite?.search?.[c];
    lines.push(`| ${(r.targetCases as string[] | undefined)?.includes(c) === false ? `${c} (not a target case)` : c} | ${ms(pgS?.p50)} | ${ms(pgS?.p95)} | ${ms(direct?.p95)} | ${o ? `${o.p50}x / ${o.p95}x` : '–'} | ${ms(lite?.p50)} | ${ms(lite?.p95)} |`);
  }
  const t = r.postgres?.throughput;
  const tl = r.pglite?.throughput;
  if (t) lines.push('', `Landing-search throughput, ${t.concurrency} keep-alive clients in a second process for ${t.seconds} s: **${t.requestsPerSecond} requests/s** over PostgreSQL (${t.searchesPerSecond} searches/s, search p95 ${ms(t.searchLatencyMs?.p95)}, ${t.errors} errors)${tl ? `; ${tl.requestsPerSecond} requests/s over PGlite` : ''}.`);
  lines.push('', 'Targets over PostgreSQL: p95 ≤ 20 ms in every case, overhead ≤ 1.3x, ≥ 300 requests/s.');
  return lines.join('\n');
}

/** One section per benchmark, each between its own markers: a benchmark not run keeps its last figures. */
export function renderReadme(readme: string, dir: string): string {
  const old = (name: string) => new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`).exec(readme)?.[0];
  const parts: string[] = [];
  for (const name of ['api', 'map', 'lighthouse', 'weight']) {
    const r = read(dir, name);
    const body = r ? (name === 'api' ? api(r) : typeof r.markdown === 'string' ? r.markdown : undefined) : undefined;
    const section = body ? `<!-- bench:${name} -->\n${body}\n<!-- /bench:${name} -->` : old(name);
    if (section) parts.push(section);
  }
  const block = `${START}\n${parts.join('\n\n')}\n${END}`;
  if (readme.includes(START) && readme.includes(END)) return readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), block);
  return `${readme.trimEnd()}\n\n## Benchmarks\n\n\`npm run bench\` (results in bench/results/*.json)\n\n${block}\n`;
}
