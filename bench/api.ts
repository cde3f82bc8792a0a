/**
 * API benchmark at 100,000 listings, over PostgreSQL:
 *  - the search as the widget does it (count and page in parallel, through @supabase/postgrest-js)
 *    for no filter, all filters, a rare city and a deep page: p50/p95;
 *  - the server's overhead: its answers to the widget's requests against the same SQL run
 *    directly on the database (same role, in parallel), and the same for a minimal Node server
 *    (bench/minimal-server.ts), the floor of any HTTP hop on this machine;
 *  - landing-search throughput under a bounded load from a second process on 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { PostgrestClient } from '@supabase/postgrest-js';
import pg from 'pg';
import { ANON_SESSION, openPostgres } from '../server/db/postgres.ts';
import { parseReadQuery } from '../server/stand-in/rest/parse.ts';
import { findRoutine, resultSource, scalarCall } from '../server/stand-in/rest/rpc.ts';
import { loadSchema, type Relation, type Schema } from '../server/stand-in/rest/schema.ts';
import { buildCount, buildPage } from '../server/stand-in/rest/sql.ts';
import { freePort, startPostgres } from '../tests/support/postgres.ts';
import { benchDatabase } from './database.ts';
import { runScript } from './script-process.ts';
import { getListingsCount, getListingsPage, type SearchFilters, type SortKey } from '../widgets/lib/data/listings.ts';
import type { MinimalRoute } from './minimal-server.ts';
import { summarise, time, type Summary } from './stats.ts';

const root = resolve(import.meta.dirname, '..');
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
/** measured in this many interleaved rounds, after this many untimed searches of each kind */
const ROUNDS = 5;
const WARMUP = 100;

const ALL_FILTERS: SearchFilters = {
  propertyType: 'house',
  minPrice: 100000,
  maxPrice: 1000000,
  beds: 3,
  baths: 2,
  minSqft: 150,
  city: 'quito',
};

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
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: init?.method ?? 'GET',
          headers,
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const out = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
            const status = res.statusCode ?? 0;
            const body = status === 204 || status === 304 || init?.method === 'HEAD' ? null : Buffer.concat(chunks);
            resolvePromise(new Response(body, { status, statusText: res.statusMessage, headers: out }));
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }) as typeof fetch;
}

async function startServerProcess(
  env: Record<string, string>,
  logFile: string,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  // the server writes its request log straight to a file, as it would in production
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), SKIP_BUILD: '1' },
    stdio: ['ignore', log, log],
  });
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

/** One search of a case as the widget runs it: the count and the page in parallel. */
const widgetSearch = (rest: PostgrestClient, c: (typeof CASES)[number]) =>
  Promise.all([getListingsCount(rest, c.filters), getListingsPage(rest, c.filters, c.sort, c.page)]);

/** One HTTP request of a search, exactly as the widget's client library sends it. */
interface Call {
  method: string;
  /** path and query string */
  path: string;
  headers: Record<string, string>;
  /** a POST's body (an rpc's arguments) */
  body?: string;
}

/** The requests postgrest-js sends for one search of a case (count and page), recorded, not sent. */
async function widgetCalls(c: (typeof CASES)[number]): Promise<Call[]> {
  const calls: Call[] = [];
  const recorder = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    calls.push({
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      headers,
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    });
    return new Response(init?.method === 'HEAD' ? null : '[]', { status: 200, headers: { 'content-range': '*/0' } });
  }) as typeof fetch;
  await widgetSearch(
    new PostgrestClient('http://bench.invalid/rest/v1', { headers: { apikey: 'bench' }, fetch: recorder }),
    c,
  );
  return calls;
}

/** Sends recorded calls over keep-alive connections and reads each response to its end. */
function plainClient(base: string): (calls: Call[]) => Promise<unknown> {
  const { hostname, port } = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const send = (call: Call) =>
    new Promise<number>((resolvePromise, reject) => {
      const req = request(
        { host: hostname, port, path: call.path, method: call.method, headers: call.headers, agent },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () =>
            res.statusCode && res.statusCode < 300
              ? resolvePromise(bytes)
              : reject(new Error(`${call.method} ${call.path}: ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(call.body);
    });
  return (calls) => Promise.all(calls.map(send));
}

/** A recorded call's key in the minimal server's routes: method, path and body. */
export const routeKey = (method: string, path: string, body: string | undefined) => `${method} ${path} ${body ?? ''}`;

/** The SQL our server runs for each recorded call (its own parser and builder, as handler.ts uses them). */
function sqlFor(schema: Schema, relation: Relation, call: Call): MinimalRoute {
  const url = new URL(call.path, 'http://x');
  const rpc = /^\/rest\/v1\/rpc\/(\w+)$/.exec(url.pathname)?.[1];
  if (rpc) {
    const args = new Map(Object.entries(JSON.parse(call.body || '{}') as Record<string, unknown>));
    const routine = findRoutine(rpc, [...args.keys()], schema);
    const rpcCall = { routine, args, query: parseReadQuery(url.searchParams, true) };
    if (!routine.columns) return { ...scalarCall(rpcCall), kind: 'page' };
    const { relation: rows, source } = resultSource(rpcCall);
    return { ...buildPage(rows, rpcCall.query, { offset: 0, limit: 1000, count: false }, source), kind: 'page' };
  }
  const query = parseReadQuery(url.searchParams);
  if (call.method === 'HEAD') {
    const built = buildCount(relation, query);
    return { ...built, kind: 'count' };
  }
  const built = buildPage(relation, query, { offset: query.offset ?? 0, limit: query.limit ?? 24, count: false });
  return { ...built, kind: 'page' };
}

async function startMinimalServer(
  databaseUrl: string,
  routes: Record<string, MinimalRoute>,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/minimal-server.ts'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin?.end(JSON.stringify({ databaseUrl, routes }));
  const port = await new Promise<number>((resolvePromise, reject) => {
    child.stdout?.once('data', (d: Buffer) => resolvePromise((JSON.parse(d.toString()) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the minimal server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

type Variant = 'search' | 'serverRequests' | 'directSql' | 'directSqlAuto' | 'minimalServer';

/**
 * Over PostgreSQL, per case, four ways to get the same search, measured in interleaved rounds
 * (so that drift of this shared machine falls on all of them alike) after a warm-up of each:
 *  - search: as the widget does it, postgrest-js with the count and the page in parallel;
 *  - serverRequests: the same two requests, recorded from postgrest-js and replayed by a plain
 *    client that reads the whole response: what the server takes, without the client library;
 *  - directSql: the SQL our server runs for them, on the database directly (same role and session
 *    settings, two connections, named statements as the server uses), reading the whole result;
 *  - minimalServer: the same two requests to bench/minimal-server.ts, the floor of any Node HTTP hop.
 *  - directSqlAuto: the same SQL on sessions that keep the database's default plan cache mode
 *    (auto: a generic plan after five runs of a prepared statement), bound as PostgREST binds them:
 *    what a hosted project runs where nothing but the functions themselves asks for custom plans.
 * The server's overhead is serverRequests / directSql.
 */
async function measurePostgres(
  serverUrl: string,
  databaseUrl: string,
): Promise<Record<Variant, Record<string, Summary>>> {
  const admin = await openPostgres(databaseUrl);
  const schema = await loadSchema(admin.admin);
  await admin.close();
  const relation = schema.get('listings');
  if (!relation) throw new Error('no listings table');

  const calls = new Map<string, Call[]>();
  const routes: Record<string, MinimalRoute> = {};
  for (const c of CASES) {
    const recorded = await widgetCalls(c);
    calls.set(c.name, recorded);
    for (const call of recorded) routes[routeKey(call.method, call.path, call.body)] = sqlFor(schema, relation, call);
  }
  const minimal = await startMinimalServer(databaseUrl, routes);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, options: ANON_SESSION });
  // the session's own plan cache mode the database's default, whatever the role says
  const autoPool = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    options: `${ANON_SESSION} -c plan_cache_mode=auto`,
  });
  const rest = new PostgrestClient(`${serverUrl}/rest/v1`, { headers: { apikey: 'bench' }, fetch: keepAliveFetch() });
  const toServer = plainClient(serverUrl);
  const toMinimal = plainClient(minimal.url);
  try {
    const runners = (c: (typeof CASES)[number]): Record<Variant, () => Promise<unknown>> => {
      const recorded = calls.get(c.name) ?? [];
      const statements = recorded.map((call) => routes[routeKey(call.method, call.path, call.body)]!);
      return {
        search: () => widgetSearch(rest, c),
        serverRequests: () => toServer(recorded),
        directSql: () =>
          Promise.all(
            statements.map((st, i) => pool.query({ name: `d${c.name}${i}`, text: st.sql, values: st.params })),
          ),
        directSqlAuto: () =>
          Promise.all(
            statements.map((st, i) => autoPool.query({ name: `a${c.name}${i}`, text: st.sql, values: st.params })),
          ),
        minimalServer: () => toMinimal(recorded),
      };
    };
    const variants: Variant[] = ['search', 'serverRequests', 'directSql', 'directSqlAuto', 'minimalServer'];
    const samples = new Map<string, number[]>();
    for (const c of CASES) for (const v of variants) for (let i = 0; i < WARMUP; i++) await runners(c)[v]();
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of CASES) {
        const run = runners(c);
        for (const v of variants) {
          for (let i = 0; i < 10; i++) await run[v]();
          const key = `${v}|${c.name}`;
          const list = samples.get(key) ?? [];
          for (let i = 0; i < ITERATIONS / ROUNDS; i++) list.push(await time(run[v]));
          samples.set(key, list);
        }
      }
    }
    return Object.fromEntries(
      variants.map((v) => [
        v,
        Object.fromEntries(CASES.map((c) => [c.name, summarise(samples.get(`${v}|${c.name}`) ?? [])])),
      ]),
    ) as Record<Variant, Record<string, Summary>>;
  } finally {
    await pool.end();
    await autoPool.end();
    await stop(minimal.child);
  }
}

const ratio = (a: Summary | undefined, b: Summary | undefined) => ({
  p50: Math.round(((a?.p50 ?? 0) / (b?.p50 ?? 1)) * 100) / 100,
  p95: Math.round(((a?.p95 ?? 0) / (b?.p95 ?? 1)) * 100) / 100,
});

const load = (url: string, concurrency: number, seconds: number) =>
  runScript<Record<string, unknown>>('bench/load.ts', [url, String(concurrency), String(seconds)]);

export async function benchApi(): Promise<Record<string, unknown>> {
  const cache = join(root, '.cache', 'bench');
  mkdirSync(cache, { recursive: true });
  const results: Record<string, unknown> = {
    listings: LISTINGS,
    iterations: ITERATIONS,
    rounds: ROUNDS,
    warmup: WARMUP,
    cases: CASES.map((c) => c.name),
    targetCases: CASES.filter((c) => c.target).map((c) => c.name),
  };

  const postgres = await startPostgres();
  try {
    const db = await benchDatabase(postgres.url, LISTINGS, 'api');
    await db.close();
    // TRUST_PROXY=1: the load's clients are visitors of their own, as behind a CDN (bench/load.ts)
    const server = await startServerProcess(
      { DATABASE_URL: postgres.url, TRUST_PROXY: '1' },
      join(cache, 'server-postgres.log'),
    );
    try {
      console.log(
        '[bench:api] PostgreSQL: searches through the server, their requests alone, the same SQL directly, a minimal server...',
      );
      const m = await measurePostgres(server.url, postgres.url);
      const overhead = Object.fromEntries(
        CASES.map((c) => [c.name, ratio(m.serverRequests[c.name], m.directSql[c.name])]),
      );
      const minimalOverhead = Object.fromEntries(
        CASES.map((c) => [c.name, ratio(m.minimalServer[c.name], m.directSql[c.name])]),
      );
      console.log('[bench:api] PostgreSQL: landing-search throughput from a second process...');
      const throughput = await load(server.url, 16, 10);
      results.postgres = { ...m, overhead, minimalOverhead, throughput };
    } finally {
      await stop(server.child);
    }
  } finally {
    await postgres.stop();
  }

  return results;
}
