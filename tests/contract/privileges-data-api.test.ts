/**
 * A database as a hosted Supabase project has it (docs/deployment.md "The database"), prepared as
 * a project's initial schema prepares one and migrated by the Supabase CLI
 * (tests/support/hosted-project.ts), serving the data API: the contract suite's reads through our
 * server on DATABASE_URL, as the pages would read a project; what PostgREST would ask of it as the
 * public key, which runs nothing long; the pre-request hook's share of the pool for each client;
 * and every row of docs/data-api.md answered as that row says.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { getAgents } from '../../widgets/lib/data/agents.ts';
import { getListingsCount, getMapClusters, getPropertyTypes } from '../../widgets/lib/data/listings.ts';
import { getPlaceSuggestions } from '../../widgets/lib/data/places.ts';
import { getPriceHistory, getSimilarListings } from '../../widgets/lib/data/listing-extras.ts';
import { checkRow, readRows, SLEEP_FUNCTION } from '../support/data-api-doc.ts';
import { holdingRoles, prepareHostedProject } from '../support/hosted-project.ts';
import { asPostgrest, beginRequest, hookAnswer, postgrestSetup, readStatement } from '../support/postgrest-sql.ts';
import type { PostgresDatabase } from '../support/postgres.ts';
import { SCENARIOS } from '../support/search-scenarios.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

describe('a database prepared as a hosted project, migrated by the Supabase CLI: the data API on it', () => {
  let database: PostgresDatabase, client: pg.Client, server: RunningServer, rest: PostgrestClient;
  beforeAll(async () => ({ database, client, server, rest } = await prepareHostedProject()), 300_000);
  afterAll(() => stopAll(server, client, database));

  it("serves the contract suite's reads on that database: every search counts as SQL counts, and the map, the places, the agents and a listing's extras answer", async () => {
    for (const { name, filters, where } of SCENARIOS) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from internal.listings where country_code = 'EC' and status = '1' and (${where})`,
      );
      expect(await getListingsCount(rest, filters), name).toBe(rows[0]?.n);
    }
    expect(
      (await getMapClusters(rest, {}, { zoom: 7, bbox: [-81, -5, -75, 1.5] })).reduce((n, c) => n + c.count, 0),
    ).toBeGreaterThan(0);
    expect((await getPlaceSuggestions(rest, 'cumb'))[0]?.name).toBe('Cumbayá');
    expect((await getAgents(rest)).length).toBeGreaterThan(0);
    expect((await getPropertyTypes(rest)).length).toBeGreaterThan(0);
    const [listing] = (
      await client.query<{ id: string }>(
        "select id::text as id from internal.listings where status = '1' and country_code = 'EC' order by id limit 1",
      )
    ).rows;
    expect(Array.isArray(await getPriceHistory(rest, String(listing?.id)))).toBe(true);
    expect((await getSimilarListings(rest, String(listing?.id), 4)).length).toBeGreaterThan(0);
    // and what the public key may not do, the server refuses as PostgREST would
    expect(
      (
        await fetch(`${server.url}/rest/v1/rpc/search_fold`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"value":"x"}',
        })
      ).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it('as PostgREST asks it, the public key runs nothing long: regular expressions take literal text, patterns are short, JSON is read whole, descriptions compare with nothing, and a statement ends at 500 ms', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => {});
    try {
      const setup = await holdingRoles(database, () => postgrestSetup(pool));
      // where PostgREST reads them: the anon role's own settings, its login role's hook
      expect(setup.roleSettings.statement_timeout).toBe('500ms');
      expect(setup.preRequest).toBe('internal.data_api_gate');
      const get = (path: string, source: string, params: unknown[]) =>
        asPostgrest(
          pool,
          setup,
          { method: 'GET', path, headers: { 'cf-connecting-ip': '203.0.113.9' } },
          readStatement(source),
          params,
        );
      const outcome = (asked: Promise<unknown[]>) =>
        asked.then(
          (rows) => `rows ${rows.length}`,
          (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
        );
      const listings = (where: string) => `SELECT "public"."listings"."id" FROM "public"."listings" WHERE ${where}`;
      const BACK_REFERENCES = '^(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1$';
      // the review's requests (a description, a title): refused before any row is read
      expect(
        await outcome(get('/listings', listings('"public"."listings"."description" ~ $1'), [BACK_REFERENCES])),
      ).toMatch(/^42883 operator does not exist: json ~/);
      expect(await outcome(get('/listings', listings('"public"."listings"."title" ~ $1'), [BACK_REFERENCES]))).toMatch(
        /^22023 match and imatch take literal text/,
      );
      expect(await outcome(get('/listings', listings('"public"."listings"."city" ~* $1'), ['(a|aa)*$']))).toMatch(
        /^22023 /,
      );
      expect(
        await outcome(
          get('/agents', 'SELECT "public"."agents"."id" FROM "public"."agents" WHERE "public"."agents"."about" ~ $1', [
            '(a+)+b',
          ]),
        ),
      ).toMatch(/^22023 /);
      expect(
        await outcome(
          get(
            '/listing_cities',
            'SELECT "public"."listing_cities"."city" FROM "public"."listing_cities" WHERE "public"."listing_cities"."city" ~ $1',
            ['\\d+'],
          ),
        ),
      ).toMatch(/^22023 /);
      // a function's rows are filtered as a view's
      const places =
        'SELECT "pgrst_call".* FROM "public"."place_suggestions"("q" := $1) "pgrst_call" WHERE "pgrst_call"."name" ~ $2';
      expect(await outcome(get('/rpc/place_suggestions', places, ['quit', BACK_REFERENCES]))).toMatch(/^22023 /);
      expect(
        await outcome(get('/listings', listings('"public"."listings"."title" ILIKE $1'), [`%${'a%'.repeat(40)}`])),
      ).toMatch(/^22023 like and ilike take patterns of at most 200 characters and 8 wildcards/);
      expect(
        await outcome(get('/listings', listings('"public"."listings"."title" LIKE $1'), ['x'.repeat(201)])),
      ).toMatch(/^22023 /);
      expect(await outcome(get('/listings', listings('"public"."listings"."images"->>0 ~ $1'), ['x']))).toMatch(
        /^22023 this column is read whole/,
      );
      expect(await outcome(get('/listings', listings('"public"."listings"."images"->>\'k\' = $1'), ['x']))).toMatch(
        /^22/,
      );
      expect(
        await outcome(get('/listings', listings('"public"."listings"."description" ILIKE $1'), ['%casa%'])),
      ).toMatch(/^42883 /);
      // what our calls and the spec's send still answers, as before
      const [ana] = (
        await client.query<{ first: string }>(
          "select public.search_fold(first_name) as first from public.agents where country_code = 'EC' and first_name <> '' order by id limit 1",
        )
      ).rows;
      const literal = String(ana?.first).slice(0, 3);
      const found = await get(
        '/agents',
        'SELECT "public"."agents"."id" FROM "public"."agents" WHERE "public"."agents"."country_code" = $1 AND ("public"."agents"."first_name_search" ~ $2 OR "public"."agents"."email_search" ~* $3)',
        ['EC', literal, literal],
      );
      const expected = (
        await client.query(
          "select count(*)::int as n from public.agents where country_code = 'EC' and (strpos(first_name_search, $1) > 0 or strpos(lower(email_search), lower($1)) > 0)",
          [literal],
        )
      ).rows[0]?.n;
      expect(found.length).toBe(expected);
      expect(found.length).toBeGreaterThan(0);
      expect(
        await outcome(
          get(
            '/agents',
            'SELECT "public"."agents"."id" FROM "public"."agents" WHERE "public"."agents"."first_name_search" ~ $1',
            ['o\\.brien \\(jr\\)'],
          ),
        ),
      ).toBe('rows 0');
      const quito = await get(
        '/listings',
        listings(
          '"public"."listings"."country_code" = $1 AND "public"."listings"."status" = $2 AND "public"."listings"."city" ILIKE $3',
        ),
        ['EC', '1', '%quito%'],
      );
      expect(quito.length).toBe(
        (await client.query("select count(*)::int as n from public.listings where city::text ilike '%quito%'")).rows[0]
          ?.n,
      );
      expect(quito.length).toBeGreaterThan(0);
      // whatever a statement of the public key does, it ends at 500 ms (57014), as its own setting says
      await client.query(SLEEP_FUNCTION);
      const sleep = readStatement('SELECT "public"."exp_test_sleep"($1) AS "exp_test_sleep"');
      expect(
        await outcome(asPostgrest(pool, setup, { method: 'POST', path: '/rpc/exp_test_sleep' }, sleep, [5])),
      ).toMatch(/^57014 canceling statement due to statement timeout/);
    } finally {
      await client.query('drop function if exists public.exp_test_sleep(double precision)');
      await pool.end();
    }
  });

  it("PostgREST's pre-request hook shares the pool: a client runs at most 4 requests at once, reads whose size the client chooses two at a time across clients; one past its share is refused at once, 429 with Retry-After", async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 16 });
    pool.on('error', () => {});
    const held: pg.PoolClient[] = [];
    const end = async () => {
      for (const c of held.splice(0)) {
        await c.query('COMMIT');
        c.release();
      }
    };
    try {
      const setup = await holdingRoles(database, () => postgrestSetup(pool));
      const hold = async (ip: string, path: string, headers: Record<string, string> = { 'cf-connecting-ip': ip }) => {
        const c = await pool.connect();
        try {
          await beginRequest(c, setup, { method: path.startsWith('/rpc/') ? 'POST' : 'GET', path, headers });
          held.push(c);
          return 'admitted';
        } catch (error) {
          await c.query('ROLLBACK');
          c.release();
          const answer = hookAnswer(error);
          return answer
            ? `${answer.status} ${answer.headers['Retry-After']} ${String(answer.body.code)}`
            : `error ${(error as Error).message}`;
        }
      };
      // one client: four at once, not five; another client meanwhile is served
      for (let i = 0; i < 4; i++) expect(await hold('198.51.100.1', '/rpc/search_listings')).toBe('admitted');
      expect(await hold('198.51.100.1', '/rpc/search_listings')).toBe('429 1 EXP429');
      expect(await hold('198.51.100.2', '/rpc/search_listings')).toBe('admitted');
      // the client is the platform's address: a first X-Forwarded-For hop the client wrote is not it
      expect(await hold('', '/rpc/search_listings', { 'x-forwarded-for': '192.0.2.77, 198.51.100.1' })).toBe(
        '429 1 EXP429',
      );
      await end();
      expect(await hold('198.51.100.1', '/rpc/search_listings')).toBe('admitted');
      await end();
      // reads of tables and views: two at once across clients; the functions the site calls are not held by them
      for (const ip of ['198.51.100.3', '198.51.100.4']) expect(await hold(ip, '/listings')).toBe('admitted');
      expect(await hold('198.51.100.6', '/agents')).toBe('429 1 EXP429');
      expect(await hold('198.51.100.6', '/rpc/search_listings')).toBe('admitted');
      // more than a page of the search (whose rows a client may filter as it likes) takes the same turns
      const search = (size: number) =>
        asPostgrest(
          pool,
          setup,
          { method: 'POST', path: '/rpc/search_listings', headers: { 'cf-connecting-ip': '198.51.100.7' } },
          readStatement(
            'SELECT "pgrst_call".* FROM "public"."search_listings"("filters" := $1::jsonb, "page_size" := $2::integer) "pgrst_call"',
          ),
          ['{}', size],
        ).then(
          (rows) => `rows ${rows.length}`,
          (error: unknown) => String(hookAnswer(error)?.status ?? (error as Error).message),
        );
      expect(await search(1000)).toBe('429');
      expect(await search(24)).toBe('rows 24');
      await end();
      // (its turn come, it is served: 100 rows, past the two pages that take turns, not the 1,000 a
      // loaded machine may not read within the public key's 500 ms)
      expect(await search(100)).toBe('rows 100');
      expect(await hold('198.51.100.6', '/agents')).toBe('admitted');
      await end();
      // a signed-in role is not the public key's share
      const c = await pool.connect();
      try {
        await c.query('begin read only');
        await c.query(
          "select set_config('role', 'authenticated', true), set_config('request.path', '/listings', true)",
        );
        for (let i = 0; i < 5; i++) await c.query('select internal.data_api_gate()');
        await c.query('commit');
      } finally {
        c.release();
      }
    } finally {
      await end();
      await pool.end();
    }
  });

  it('answers every row of docs/data-api.md as the row says, as the public roles of that database', async () => {
    // the timeout row's slow statement, as docs/data-api.md's test makes it, once the server sees it
    await client.query(SLEEP_FUNCTION);
    await until(
      async () =>
        (
          await fetch(`${server.url}/rest/v1/rpc/exp_test_sleep`, {
            method: 'POST',
            headers: { apikey: 'anon-key', 'Content-Type': 'application/json' },
            body: '{"seconds":0}',
          })
        ).ok || undefined,
    );
    const [listing, listing2] = (
      await client.query<{ id: string }>(
        "select id::text as id from public.listings where country_code = 'EC' and status = '1' and city = 'Quito' order by id limit 2",
      )
    ).rows;
    const [agent] = (
      await client.query<{ id: string }>("select min(id)::text as id from public.agents where country_code = 'EC'")
    ).rows;
    const [project] = (
      await client.query<{ id: string }>(
        "select id::text as id from internal.projects where slug = 'altos-de-la-carolina'",
      )
    ).rows;
    const types = (
      await client.query<{ id: string }>(
        'select id::text as id from internal.project_unit_types where project_id = $1 order by position',
        [project?.id],
      )
    ).rows
      .map((t) => t.id)
      .join(',');
    const rows = readRows({
      listing: String(listing?.id),
      listing2: String(listing2?.id),
      agent: String(agent?.id),
      project: String(project?.id),
      types,
    });
    expect(rows.length).toBeGreaterThan(20);
    const failures: string[] = [];
    try {
      for (const row of rows) failures.push(...(await checkRow(server.url, row, 'anon-key')));
    } finally {
      // (not one of ours: the catalogue's test, privileges-catalogue.test.ts, holds what the public roles may call)
      await client.query('drop function public.exp_test_sleep(double precision)');
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
