/** Renders the benchmark figures of docs/benchmarks.md from bench/results/*.json. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** where the figures live, from the repository's root */
export const BENCH_DOC = 'docs/benchmarks.md';

/** the benchmarks in docs/benchmarks.md's order */
export const BENCHES = [
  'api',
  'abuse',
  'hosted',
  'startup',
  'map',
  'clusters',
  'places',
  'pages',
  'lighthouse',
  'inp',
  'weight',
  'alerts',
  'import',
  'functions',
  'valuation',
  'agent-area',
  'stages',
] as const as readonly string[];

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function read(dir: string, name: string): Json | undefined {
  const file = join(dir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Json) : undefined;
}

const ms = (x: number | undefined) => (x === undefined ? '–' : `${x.toFixed(1)} ms`);

const x = (o: { p50: number; p95: number } | undefined) => (o ? `${o.p50}x / ${o.p95}x` : '–');

function api(r: Json): string {
  const cases = r.cases as string[];
  const label = (c: string) =>
    (r.targetCases as string[] | undefined)?.includes(c) === false ? `${c} (not a target case)` : c;
  const pgr = r.postgres ?? {};
  const lines = [
    `### Data API (${r.listings.toLocaleString('en-US')} listings, ${r.iterations} searches per case${r.rounds ? ` in ${r.rounds} interleaved rounds` : ''}; ${r.date.slice(0, 10)}, ${r.machine.cpus} cores)`,
    '',
  ];
  lines.push('Search as the widget runs it: count and page in parallel through `@supabase/postgrest-js`.', '');
  lines.push('| case | p50 | p95 |', '|---|---|---|');
  for (const c of cases) lines.push(`| ${label(c)} | ${ms(pgr.search?.[c]?.p50)} | ${ms(pgr.search?.[c]?.p95)} |`);
  if (pgr.serverRequests) {
    lines.push(
      '',
      "The server's overhead over PostgreSQL: the widget's two requests (recorded from postgrest-js, replayed by a plain keep-alive client that reads each response to its end) against the SQL the server runs for them, run directly on the database with the same role, two connections and named statements. For scale, the same requests to `bench/minimal-server.ts`, a Node HTTP server that does nothing but run that SQL with the same driver: the cost of any HTTP hop on this machine. Beside it, the same SQL on sessions with the database's default plan cache mode (`auto`: generic plans after five runs), as a hosted project's PostgREST binds it where only the functions themselves ask for custom plans.",
      '',
      '| case | server p50 / p95 | same SQL direct p50 / p95 | direct, default plan cache p50 / p95 | overhead p50 / p95 | minimal server, overhead p50 / p95 |',
      '|---|---|---|---|---|---|',
    );
    for (const c of cases) {
      const s = pgr.serverRequests?.[c];
      const d = pgr.directSql?.[c];
      const a = pgr.directSqlAuto?.[c];
      lines.push(
        `| ${label(c)} | ${ms(s?.p50)} / ${ms(s?.p95)} | ${ms(d?.p50)} / ${ms(d?.p95)} | ${ms(a?.p50)} / ${ms(a?.p95)} | ${x(pgr.overhead?.[c])} | ${x(pgr.minimalOverhead?.[c])} |`,
      );
    }
  }
  const t = pgr.throughput;
  if (t)
    lines.push(
      '',
      `Landing-search throughput, ${t.concurrency} keep-alive clients (each a visitor of its own) in a second process for ${t.seconds} s: **${t.requestsPerSecond} requests/s** (${t.searchesPerSecond} searches/s, search p95 ${ms(t.searchLatencyMs?.p95)}, ${t.errors} errors).`,
    );
  lines.push('', 'Targets over PostgreSQL: p95 ≤ 20 ms in every case, overhead ≤ 1.3x, ≥ 300 requests/s.');
  const targets = ((r.targetCases as string[] | undefined) ?? cases).filter((c) => pgr.search?.[c]);
  const slow = targets.filter((c) => pgr.search[c].p95 > 20);
  const heavy = targets.filter((c) => (pgr.overhead?.[c]?.p50 ?? 0) > 1.3);
  const verdict = [
    slow.length ? `p95 over 20 ms: ${slow.join(', ')}` : 'p95 met in every case',
    heavy.length
      ? `overhead over 1.3x at p50: ${heavy.map((c) => `${c} (${pgr.overhead[c].p50}x; the minimal server ${pgr.minimalOverhead?.[c]?.p50 ?? '–'}x)`).join(', ')}`
      : 'overhead met at p50 in every case',
    t ? `throughput ${t.requestsPerSecond >= 300 ? 'met' : 'missed'}` : undefined,
  ].filter(Boolean);
  lines.push(`This run: ${verdict.join('; ')}.`);
  return lines.join('\n');
}

/**
 * One section per benchmark, each between its own markers: a benchmark not run keeps its last figures.
 * The document (docs/benchmarks.md) with the figures of the benchmarks just run (`ran`) from their
 * results; every other section is kept as it is.
 */
export function renderBenchmarks(doc: string, dir: string, ran: readonly string[] = BENCHES): string {
  const old = (name: string) => new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`).exec(doc)?.[0];
  const parts: string[] = [];
  for (const name of BENCHES) {
    const r = ran.includes(name) ? read(dir, name) : undefined;
    const body = r ? (name === 'api' ? api(r) : typeof r.markdown === 'string' ? r.markdown : undefined) : undefined;
    const section = body ? `<!-- bench:${name} -->\n${body}\n<!-- /bench:${name} -->` : old(name);
    if (section) parts.push(section);
  }
  const block = `${START}\n${parts.join('\n\n')}\n${END}`;
  if (doc.includes(START) && doc.includes(END)) return doc.replace(new RegExp(`${START}[\\s\\S]*?${END}`), () => block);
  return `${doc.trimEnd()}\n\n## Figures\n\n\`npm run bench\` (results in bench/results/*.json)\n\n${block}\n`;
}

/** Refreshes docs/benchmarks.md under `root` with the benchmarks just run; returns the file written. */
export function writeBenchmarks(root: string, dir: string, ran: readonly string[] = BENCHES): string {
  const file = join(root, BENCH_DOC);
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  writeFileSync(file, renderBenchmarks(doc, dir, ran));
  return file;
}
