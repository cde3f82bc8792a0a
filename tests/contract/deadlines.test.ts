/**
 * One slow request never stops the site (docs/architecture.md "Deadlines and fair shares"), on
 * the real server over real PostgreSQL: the slowest requests an attacker can find answer 400 at
 * once or a deadline error within their deadline while pages, searches and inquiries are served
 * as usual; a request past its deadline, or whose client left, has its statement cancelled in
 * the database; one client holds at most its share of the public pool and is answered 429 once its
 * share of database time is spent; and `npm start` stops within 10 s of SIGTERM at any moment.
 *
 * The slow statement is a function the test adds to the database (`exp_test_sleep`): a statement
 * that takes as long as it is told, which the data API serves as it serves any function.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SHARES } from '../../server/http/client-shares.ts';
import { getListingsCount, getListingsPage } from '../../widgets/lib/data/listings.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { until } from '../support/until.ts';

// The anon role's 500 ms (docs/deployment.md) is shorter than the deadlines and shares these tests
// hold: each server's database gives the role a hosted project's 3 s, read when the public pool
// opens, at the first public request, which comes after.
const HOSTED_TIMEOUT = `do $$ begin execute format('alter role anon in database %I set statement_timeout = %L', current_database(), '3s'); end $$;`;

const SLEEP_FUNCTION = `
  ${HOSTED_TIMEOUT}
  create or replace function public.exp_test_sleep(seconds double precision) returns integer
  language plpgsql stable as $$ begin perform pg_sleep(seconds); return 1; end $$;
  grant execute on function public.exp_test_sleep(double precision) to anon;`;

const PATTERN = '/rest/v1/listings?select=id&description=match.%5E(.*)(.*)(.*)(.*)(.*)%5C5%5C4%5C3%5C2%5C1%24&limit=1';
const as = (ip: string) => ({ 'X-Forwarded-For': ip });

interface Timed {
  status: number;
  ms: number;
  at: number;
  body: string;
  headers: Headers;
}

async function timed(url: string, init: RequestInit = {}): Promise<Timed> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const body = await res.text();
  return { status: res.status, ms: performance.now() - t0, at: performance.now(), body, headers: res.headers };
}

// the server's own database only: the suites that run beside this one have databases of their own
// on the same PostgreSQL, and some of them sleep too (tests/support/data-api-doc.ts)
const sleeping = async (server: TestServer) =>
  Number(
    (
      await server.sql<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and query like '%exp_test_sleep%' and query not like '%pg_stat_activity%'",
      )
    )[0]?.n ?? 0,
  );

describe('one slow request never stops the site', () => {
  let server: TestServer;
  beforeAll(async () => {
    // TRUST_PROXY=1: each test's clients are visitors of their own (X-Forwarded-For)
    server = await startTestServer('postgres', { trustProxy: { hops: 1 } });
    await server.sql(SLEEP_FUNCTION);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('the slowest requests answer 400 at once or a deadline error within their deadline, while a page, a search and an inquiry are served meanwhile', async () => {
    const api = (path: string, ip: string) => timed(`${server.url}${path}`, { headers: as(ip) });
    const slow = Promise.all([
      // statements that would run for 30 s: stopped at the anon role's 3 s, as PostgREST answers it
      ...[1, 2, 3, 4].map((i) => api('/rest/v1/rpc/exp_test_sleep?seconds=30', `10.50.1.${i}`)),
      // what takes seconds of a regular expression engine, or of a parser: refused before any work
      // (patterns by the public columns' types, 03_public_types.sql; lists and trees by our parser)
      api(PATTERN, '10.50.2.1'),
      api('/rest/v1/listings?select=id&title=imatch.(a%7Caa)*%24', '10.50.2.2'),
      api('/rest/v1/agents?select=id&or=(first_name_search.match."%5Cd%2B")', '10.50.2.3'),
      api(`/rest/v1/listings?select=id&id=in.(${Array.from({ length: 500 }, (_, i) => i).join(',')})`, '10.50.2.4'),
      api(`/rest/v1/listings?select=id&or=(${'or('.repeat(6)}id.eq.1${')'.repeat(6)})`, '10.50.2.5'),
      api(`/rest/v1/listings?select=id&title=ilike.${'*a'.repeat(40)}`, '10.50.2.6'),
      api(`/rest/v1/listings?select=id&title=eq.${'x'.repeat(9000)}`, '10.50.2.7'),
    ]);
    // while the four statements run: a visitor's page, search and inquiry
    await until(async () => (await sleeping(server)) === 4, 10_000);
    const rest = new PostgrestClient(`${server.url}/rest/v1`, {
      headers: { apikey: 'local-anon-key', ...as('10.50.3.1') },
    });
    const t0 = performance.now();
    const [page, count, rows, inquiry] = await Promise.all([
      timed(`${server.url}/es/findanagent`, { headers: as('10.50.3.1') }),
      getListingsCount(rest, { city: 'quito' }),
      getListingsPage(rest, { city: 'quito' }, 'price_asc', 1),
      timed(`${server.url}/functions/v1/send-property-inquiry`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...as('10.50.3.1') },
        body: JSON.stringify({
          name: 'Ana Torres',
          email: 'ana.torres@example.com',
          phone: '',
          message: 'Hola',
          idempotencyKey: 'deadline-visitor-1',
        }),
      }),
    ]);
    const servedAt = performance.now();
    expect(page.status).toBe(200);
    expect(page.body).toContain('<html lang="es"');
    expect(count).toBeGreaterThan(0);
    expect(rows.length).toBeGreaterThan(0);
    expect(inquiry.status).toBe(200);
    // served while the slow statements still ran: they had not been answered yet
    expect(await sleeping(server)).toBe(4);

    const [s1, s2, s3, s4, pattern, alternation, classInLogic, longList, deepTree, wildcards, longUrl] =
      (await slow) as [Timed, Timed, Timed, Timed, Timed, Timed, Timed, Timed, Timed, Timed, Timed];
    for (const s of [s1, s2, s3, s4]) {
      expect(s.status).toBe(500);
      expect(JSON.parse(s.body)).toMatchObject({ code: '57014' });
      expect(Number(s.headers.get('retry-after'))).toBeGreaterThan(0);
      // stopped at 3 s, long before the 30 s it asked for (and after the visitor was served)
      expect(s.ms).toBeLessThan(10_000);
      expect(s.at).toBeGreaterThan(servedAt);
    }
    for (const r of [alternation, classInLogic, wildcards]) {
      expect(r.status, r.body).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ code: '22023' });
    }
    expect(JSON.parse(alternation.body).message).toMatch(/literal text/);
    expect(JSON.parse(classInLogic.body).message).toMatch(/literal text/);
    expect(JSON.parse(wildcards.body).message).toMatch(/8 wildcards/);
    // a description is JSON, read whole: no operator compares it
    expect(pattern.status, pattern.body).toBe(400);
    expect(JSON.parse(pattern.body)).toMatchObject({ code: '42883' });
    for (const r of [longList, deepTree]) {
      expect(r.status, r.body).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ code: 'PGRST100' });
    }
    expect(JSON.parse(longList.body).details).toMatch(/at most 100 values/);
    expect(JSON.parse(deepTree.body).details).toMatch(/nested too deeply/);
    expect(longUrl.status).toBe(414);
    expect(servedAt - t0).toBeLessThan(3000);
    // nothing left running in the database
    await until(async () => (await sleeping(server)) === 0, 5000);
  }, 60_000);

  it('a request past its deadline is answered 504 with Retry-After and its statement cancelled in the database; so is the statement of a client that left', async () => {
    const short = await startTestServer('postgres', { trustProxy: { hops: 1 }, deadlines: { api: 1000 } });
    try {
      await short.sql(SLEEP_FUNCTION);
      const answer = await timed(`${short.url}/rest/v1/rpc/exp_test_sleep?seconds=20`, { headers: as('10.51.0.1') });
      expect(answer.status).toBe(504);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(answer.body)).toMatchObject({ code: '57014' });
      await until(async () => (await sleeping(short)) === 0, 2000);

      const left = new AbortController();
      const asked = fetch(`${short.url}/rest/v1/rpc/exp_test_sleep?seconds=20`, {
        headers: as('10.51.0.2'),
        signal: left.signal,
      }).catch(() => undefined);
      await until(async () => (await sleeping(short)) === 1, 5000);
      left.abort();
      await asked;
      await until(async () => (await sleeping(short)) === 0, 2000);
      // the server serves on, its pool whole
      expect((await timed(`${short.url}/rest/v1/listings?select=id&limit=1`)).status).toBe(200);
    } finally {
      await short.close();
    }
  }, 60_000);

  it('one client holds at most its share of the public pool while another is served; once its budget is spent it runs one statement at a time, and owing a whole burst it is answered 429 with Retry-After', async () => {
    // the budget of CLIENT_DB_BURST_SECONDS=4 (CLIENT_DB_SHARE_PERCENT=50, the default), and a
    // deadline long enough for the eight to take their turns (the deadline has its own test)
    const server = await startTestServer(
      'postgres',
      { trustProxy: { hops: 1 }, deadlines: { api: 30_000 } },
      { shares: { ...DEFAULT_SHARES, burstMs: 4000 } },
    );
    let watching = true;
    try {
      await server.sql(SLEEP_FUNCTION);
      const greedy = as('10.52.0.1');
      const samples: Array<{ at: number; n: number }> = [];
      const watch = (async () => {
        while (watching) {
          samples.push({ at: performance.now(), n: await sleeping(server) });
          await new Promise((r) => setTimeout(r, 25));
        }
      })();
      // eight statements of 1.5 s at once from one client: three at a time run, the rest wait their turn
      const burst = Promise.all(
        Array.from({ length: 8 }, () =>
          timed(`${server.url}/rest/v1/rpc/exp_test_sleep?seconds=1.5`, { headers: greedy }),
        ),
      );
      await until(async () => (await sleeping(server)) === 3, 5000);
      const other = await timed(`${server.url}/rest/v1/listings?select=id,title&city_search=ilike.*quito*&limit=5`, {
        headers: as('10.52.0.2'),
      });
      expect(other.status).toBe(200);
      expect(JSON.parse(other.body)).toHaveLength(5);
      const done = await burst;
      watching = false;
      await watch;
      expect(done.map((d) => d.status)).toEqual(Array(8).fill(200));
      expect(Math.max(...samples.map((s) => s.n)), JSON.stringify(samples.map((s) => s.n))).toBe(3);
      // after six statements (9 s of a 4 s budget) the client owed time: its last two ran one at a
      // time, so the last ended a whole statement (1.5 s) after the one before (at once, together)
      const ends = done.map((d) => d.at).sort((x, y) => x - y);
      expect((ends[7] as number) - (ends[6] as number)).toBeGreaterThan(1200);
      // 12 s spent of a 4 s budget: it owes more than a whole burst, and waits; others do not
      const refused = await timed(`${server.url}/rest/v1/listings?select=id&limit=1`, { headers: greedy });
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'PGRST429' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(1);
      // naming another client is the server's own word only (its calls to itself carry a token of its own)
      const forged = await timed(`${server.url}/rest/v1/listings?select=id&limit=1`, {
        headers: { ...greedy, 'X-Exp-Client': '10.52.0.9', 'X-Exp-Internal': 'guessed' },
      });
      expect(forged.status).toBe(429);
      const page = await timed(`${server.url}/es/about`, { headers: greedy });
      expect(page.status).toBe(429);
      expect(page.headers.get('retry-after')).toBeTruthy();
      expect(page.body).toContain('<html lang="es"');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(
        (await timed(`${server.url}/rest/v1/listings?select=id&limit=1`, { headers: as('10.52.0.3') })).status,
      ).toBe(200);
    } finally {
      watching = false;
      await server.close();
    }
  }, 60_000);
});

describe("a page let in is finished: its client's share is checked at the page's door, not between its own calls", () => {
  it("a page whose client goes over its share while the page waits for its data answers as it should (404 here), never 503; the client's next page and call are 429 with Retry-After", async () => {
    // a budget of 100 ms that hardly comes back: a few refused requests spend it
    const server = await startTestServer(
      'postgres',
      { trustProxy: { hops: 1 } },
      { shares: { ...DEFAULT_SHARES, burstMs: 100, refillPerSecond: 1 } },
    );
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    try {
      await server.sql(HOSTED_TIMEOUT);
      const crawler = as('10.53.0.1');
      // the server's caches warm (the data API's schema), as a running server's are
      expect(
        (await timed(`${server.url}/rest/v1/listings?select=id&limit=1`, { headers: as('10.53.0.3') })).status,
      ).toBe(200);
      expect((await timed(`${server.url}/es/properties/987654320-otra`, { headers: as('10.53.0.3') })).status).toBe(
        404,
      );
      // the listings locked for a while: the page's first calls wait for them in the database
      const locked = server.db.transaction(async (tx) => {
        await tx.query('lock table internal.listings in access exclusive mode');
        await held;
      });
      await until(
        async () =>
          (
            await server.sql<{ n: number }>(
              "select count(*)::int as n from pg_locks where relation = 'internal.listings'::regclass and mode = 'AccessExclusiveLock' and granted",
            )
          )[0]?.n === 1,
        10_000,
      );
      // a listing that never was: its page asks for the listing, then (only once it is not found) whether it ever was
      const page = timed(`${server.url}/es/properties/987654321-casa-que-no-existe`, { headers: crawler });
      await until(
        async () =>
          Number(
            (
              await server.sql<{ n: number }>(
                "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%listings%'",
              )
            )[0]?.n,
          ) >= 1,
        10_000,
        "the page's calls waiting for the listings",
      );
      // meanwhile (within the public role's 3 s) the same client spends its share on calls refused
      // as malformed, which reach no database but cost it 10 ms each, until it is refused
      for (let i = 0; i < 40; i++)
        if ((await timed(`${server.url}/rest/v1/listings?select=id&price=nope.1`, { headers: crawler })).status === 429)
          break;
      expect((await timed(`${server.url}/rest/v1/listings?select=id&limit=1`, { headers: crawler })).status).toBe(429);
      release();
      await locked;
      // the page it had begun is finished: the listing never was (404), not "come back later"
      const answered = await page;
      expect(answered.status, answered.body.slice(0, 300)).toBe(404);
      expect(answered.body).toContain('<html lang="es"');
      // its next page waits at the door, told for how long
      const next = await timed(`${server.url}/es/about`, { headers: crawler });
      expect(next.status).toBe(429);
      expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
      // and nobody else is refused
      expect(
        (await timed(`${server.url}/es/properties/987654321-casa-que-no-existe`, { headers: as('10.53.0.2') })).status,
      ).toBe(404);
    } finally {
      release();
      await server.close();
    }
  }, 60_000);
});

describe('npm start stops within 10 s of SIGTERM at any moment', () => {
  const dirs: string[] = [];
  const made = () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-stop-'));
    // as root, PostgreSQL runs as another user, who must reach the data directory
    chmodSync(dir, 0o755);
    dirs.push(dir);
    return dir;
  };
  let proc: ServerProcess | undefined;
  afterAll(async () => {
    await proc?.kill();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const stopsWithin = async (p: ServerProcess, dir: string) => {
    const t0 = Date.now();
    const code = await p.stop();
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(code).toBe(0);
    // its PostgreSQL stopped with it
    expect(existsSync(join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
  };

  it('while PostgreSQL is on its way up', async () => {
    const dir = made();
    proc = await startServerProcess({ DATA_DIR: dir, SEED_LISTINGS: '200' }, { ready: /embedded PostgreSQL in/ });
    await stopsWithin(proc, dir);
  }, 60_000);

  it('while slow statements run', async () => {
    const dir = made();
    proc = await startServerProcess({ DATA_DIR: dir, SEED_LISTINGS: '200' });
    const url = /PostgreSQL \d+ at (postgres:\/\/\S+)/.exec(proc.output())?.[1];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(SLEEP_FUNCTION);
    const base = proc.url;
    const pending = Array.from({ length: 4 }, () =>
      fetch(`${base}/rest/v1/rpc/exp_test_sleep?seconds=30`).catch(() => undefined),
    );
    // one at work in PostgreSQL when the signal comes (the client's others wait at the server's door)
    await until(
      async () =>
        (
          await client.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%exp_test_sleep%' and query not like '%pg_stat_activity%'",
          )
        ).rows[0]!.n >= 1,
      10_000,
      'a slow statement running',
    );
    await client.end();
    await stopsWithin(proc, dir);
    await Promise.all(pending);
  }, 60_000);
});
