/**
 * API benchmark at 100,000 listings, over PostgreSQL and over PGlite:
 *  - the search as the widget does it (count and page in parallel, through @supabase/postgrest-js)
 *    for no filter, all filters, a rare city and a deep page: p50/p95;
 *  - the server's overhead: the same SQL run directly on the database, same role, in parallel;
 *  - landing-search throughput under a bounded load from a second process on 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { PostgrestClient } from '@supabase/postgrest-js';
import pg from 'pg';
import { openPglite } from '../server/db/pglite.ts';
import { ANON_SESSION, openPostgres } from '../server/db/postgres.ts';
import { migrate, reseed } from '../server/db/setup.ts';
import { parseReadQuery } from '../server/rest/parse.ts';
import { loadSchema } from '../server/rest/schema.ts';
import { buildCount, buildPage } from '../server/rest/sql.ts';
import { freePort, startPostgres } from '../tests/support/postgres.ts';
import { applyFilters, applySort, getListingsCount, getListingsPage, type SearchFilters, type SortKey } from '../widgets/lib/data/listings.ts';
import { summarise, time, type Summary } from './stats.ts';

const root = resolve(import.meta.dirname, '..');
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);

const ALL_FILTERS: SearchFilters = { propertyType: 'house', minPrice: 100000, maxPrice: 1000000, beds: 3, baths: 2, minSqft: 150, city: 'quito' };

/** The four cases of the targets (default sort, as a visitor gets it), and one more for the record. */
export const CASES: Array<{ name: string; filters: SearchFilters; sort: SortKey; page: number; target: boolean }> = [
  { name: 'no filter', filters: {}, sort: 'featured', page: 1, target: true },
  { name: 'all filters', filters: ALL_FILTERS, sort: 'featured', page: 1, target: true },
  { name: 'rare city', filters: { city: 'vilcabamba' }, sort: 'featured', page: 1, target: true },
  { name: 'deep page', filters: {}, sort: 'featured', page: 200, target: true },
  { name: 'all filters, price low to high', filters: ALL_FILTERS, sort: 'price_asc', page: 1, target: false },
];

/**
 * fetch over a keep-alive http.Agent for the benchmark's client: Node's built-in fetch costs
 * several tenths of a millisecond per request on its own, which a browser's does not, and which
 * would be counted as the server's overhead.
 */
function keepAliveFetch(): typeof fetch {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    return new Promise<Response>((resolvePromise, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: init?.method ?? 'GET', headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 || init?.method === 'HEAD' ? null : Buffer.concat(chunks);
          resolvePromise(new Response(body, { status, statusText: res.statusMessage, headers: out }));
        });
      });
      req.on('error', reject);
      req.end();
    });
  }) as typeof fetch;
}

async function startServerProcess(env: Record<string, string>, logFile: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  // the server writes its request log straight to a file, as it would in production
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, env: { ...process.env, ...env, PORT: String(port), SKIP_BUILD: '1' }, stdio: ['ignore', log, log] });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/rest/v1/listings?select=id&limit=1`);
      if (res.status === 200) return { url, child };
    } catch {
      // not up yet
    }
    if (Date.now() > until || child.exitCode !== null) throw new Error(`the server did not start; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

async function measureSearches(url: string): Promise<Record<string, Summary>> {
  const rest = new PostgrestClient(`${url}/rest/v1`, { headers: { apikey: 'bench' }, fetch: keepAliveFetch() });
  const out: Record<string, Summary> = {};
  for (const c of CASES) {
    const run = () => Promise.all([getListingsCount(rest, c.filters), getListingsPage(rest, c.filters, c.sort, c.page)]);
    for (let i = 0; i < 30; i++) await run();
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) samples.push(await time(run));
    out[c.name] = summarise(samples);
  }
  return out;
}

/** The SQL the server runs for each case, executed directly over the same role with two connections. */
async function measureDirect(databaseUrl: string): Promise<Record<string, Summary>> {
  const admin = await openPostgres(databaseUrl);
  const schema = await loadSchema(admin.admin);
  await admin.close();
  const relation = schema.get('listings');
  if (!relation) throw new Error('no listings table');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, options: ANON_SESSION });
  const out: Record<string, Summary> = {};
  const builder = new PostgrestClient('http://x/rest/v1');
  for (const c of CASES) {
    // the exact query strings the widget's calls produce
    const countUrl = new URL((applyFilters(builder.from('listings').select('id', { count: 'exact', head: true }), c.filters) as unknown as { url: URL }).url);
    const from = (c.page - 1) * 24;
    const pageUrl = new URL((applySort(applyFilters(builder.from('listings').select('*'), c.filters), c.sort).range(from, from + 23) as unknown as { url: URL }).url);
    const count = buildCount(relation, parseReadQuery(countUrl.searchParams));
    const pageQuery = parseReadQuery(pageUrl.searchParams);
    const page = buildPage(relation, pageQuery, { offset: pageQuery.offset ?? 0, limit: pageQuery.limit ?? 24, count: false });
    const run = () => Promise.all([pool.query({ name: `c${c.name}`, text: count.sql, values: count.params }), pool.query({ name: `p${c.name}`, text: page.sql, values: page.params })]);
    for (let i = 0; i < 30; i++) await run();
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) samples.push(await time(run));
    out[c.name] = summarise(samples);
  }
  await pool.end();
  return out;
}

async function load(url: string, concurrency: number, seconds: number): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load.ts', url, String(concurrency), String(seconds)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolvePromise(JSON.parse(out.trim().split('\n').pop() ?? '{}')) : reject(new Error(`load exited ${code}`))));
  });
}

export async function benchApi(): Promise<Record<string, unknown>> {
  const cache = join(root, '.cache', 'bench');
  mkdirSync(cache, { recursive: true });
  const results: Record<string, unknown> = { listings: LISTINGS, iterations: ITERATIONS, cases: CASES.map((c) => c.name), targetCases: CASES.filter((c) => c.target).map((c) => c.name) };

  console.log(`[bench:api] PostgreSQL: seeding ${LISTINGS} listings...`);
  const postgres = await startPostgres();
  try {
    const db = await openPostgres(postgres.url);
    await migrate(db);
    await reseed(db, LISTINGS);
    await db.close();
    const server = await startServerProcess({ DATABASE_URL: postgres.url }, join(cache, 'server-postgres.log'));
    try {
      console.log('[bench:api] PostgreSQL: searches through the server...');
      const viaServer = await measureSearches(server.url);
      console.log('[bench:api] PostgreSQL: the same SQL directly...');
      const direct = await measureDirect(postgres.url);
      const overhead = Object.fromEntries(Object.keys(viaServer).map((k) => [k, { p50: Math.round(((viaServer[k]?.p50 ?? 0) / (direct[k]?.p50 ?? 1)) * 100) / 100, p95: Math.round(((viaServer[k]?.p95 ?? 0) / (direct[k]?.p95 ?? 1)) * 100) / 100 }]));
      console.log('[bench:api] PostgreSQL: landing-search throughput from a second process...');
      const throughput = await load(server.url, 16, 10);
      results.postgres = { search: viaServer, directSql: direct, overhead, throughput };
    } finally {
      await stop(server.child);
    }
  } finally {
    await postgres.stop();
  }

  console.log(`[bench:api] PGlite: seeding ${LISTINGS} listings...`);
  const dir = join(cache, 'pglite');
  rmSync(dir, { recursive: true, force: true });
  const lite = await openPglite(dir);
  await migrate(lite);
  await reseed(lite, LISTINGS);
  await lite.close();
  const server = await startServerProcess({ DATA_DIR: dir }, join(cache, 'server-pglite.log'));
  try {
    console.log('[bench:api] PGlite: searches through the server...');
    const viaServer = await measureSearches(server.url);
    const throughput = await load(server.url, 16, 10);
    results.pglite = { search: viaServer, throughput };
  } finally {
    await stop(server.child);
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
