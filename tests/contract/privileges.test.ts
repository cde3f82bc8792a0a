/**
 * The database as a hosted Supabase project has it (docs/deployment.md "The database"): a
 * PostgreSQL prepared as a project's initial schema prepares one (the roles anon, authenticated and
 * service_role, their statement timeouts, and default privileges that grant everything new in
 * `public` to them), migrated by the Supabase CLI from npm (`supabase db push --db-url`, pinned).
 * Then the catalogue: the public roles hold SELECT on the relations we publish and EXECUTE on the
 * functions we publish, and nothing else anywhere in `public`. Then that database serves the
 * contract suite's reads through our server on DATABASE_URL, as the pages would read a project,
 * and answers every row of docs/data-api.md as that row says.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { PostgrestClient } from '@supabase/postgrest-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supabaseCli } from '../../scripts/lazy-packages.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { reseed } from '../../server/db/setup.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { getAgents } from '../../widgets/lib/data/agents.ts';
import { getListingsCount, getMapClusters, getPropertyTypes } from '../../widgets/lib/data/listings.ts';
import { getPlaceSuggestions } from '../../widgets/lib/data/places.ts';
import { getPriceHistory, getSimilarListings } from '../../widgets/lib/data/listing-extras.ts';
import { checkRow, readRows, SLEEP_FUNCTION } from '../support/data-api-doc.ts';
import { asPostgrest, beginRequest, hookAnswer, postgrestSetup, readStatement, SUPABASE_INITIAL_SCHEMA } from '../support/postgrest-sql.ts';
import { postgresDatabase, type PostgresDatabase } from '../support/postgres.ts';
import { SCENARIOS } from '../support/search-scenarios.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** What the public key may read and call: the data API's relations, and the functions the elements call. */
const PUBLISHED_RELATIONS = ['agents', 'listing_cities', 'listing_property_types', 'listings', 'project_unit_types', 'projects'];
const PUBLISHED_FUNCTIONS = [
  'area_agents',
  'estimate_value',
  'listing_availability',
  'listing_clusters',
  'listing_market',
  'listing_open_houses',
  'listing_price_history',
  'market_index',
  'market_ranking',
  'market_report',
  'place_suggestions',
  'search_listings',
  'search_listings_count',
  'similar_listings',
  'visit_times',
];

/** What a signed-in agent (or the team) may call besides: her area's, each checking whose (docs/agent-area.md). */
const AREA_FUNCTIONS = [
  'act_on_visit',
  'deactivate_agent',
  'invite_agent',
  'move_lead',
  'my_alert_leads',
  'my_leads',
  'my_listing_figures',
  'my_open_times',
  'my_profile',
  'my_role',
  'my_visiting_hours',
  'my_visits',
  'privacy_overview',
  'reassign_lead',
  'routing_setup',
  'save_routing',
  'set_visiting_hours',
  'team_agents',
  'update_my_profile',
];

describe('a database prepared as a hosted project, migrated by the Supabase CLI', () => {
  let database: PostgresDatabase;
  let client: pg.Client;
  let server: RunningServer;
  let rest: PostgrestClient;

  beforeAll(async () => {
    database = await postgresDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // (roles are the cluster's: another suite's database altering the same role at that moment
    // fails one of the two with "tuple concurrently updated"; the statement is safe to run again)
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(SUPABASE_INITIAL_SCHEMA);
        break;
      } catch (error) {
        if (attempt === 3 || !/tuple concurrently updated/.test(String((error as Error).message))) throw error;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
    const url = `${database.url.replace(/^postgres:/, 'postgresql:')}${database.url.includes('?') ? '&' : '?'}sslmode=disable`;
    const { stdout, stderr } = await run(supabaseCli(), ['db', 'push', '--db-url', url, '--yes'], {
      cwd: root,
      timeout: 180_000,
      env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    });
    expect(`${stdout}${stderr}`).toContain('Finished supabase db push');
    // the seed, as an operator loads it into a project (npm run seed -- --sql, then psql)
    const db = await openPostgres(database.url);
    await reseed(db, 600);
    // (the schema cache kept a second: the last test's function is seen soon after it is made)
    server = await startServer({ db, port: 0, seedListings: 600, schemaTtlMs: 1000 });
    await server.ready;
    rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'anon-key' } });
  }, 300_000);
  afterAll(() => stopAll(server, client, database));

  it("Supabase's own advisor (the database linter the dashboard's Security Advisor runs, splinter, from the CLI) finds nothing at WARN or ERROR", async () => {
    const url = `${database.url.replace(/^postgres:/, 'postgresql:')}${database.url.includes('?') ? '&' : '?'}sslmode=disable`;
    const advise = async (level: string) => {
      const { stdout } = await run(supabaseCli(), ['db', 'advisors', '--db-url', url, '--type', 'security', '--level', level, '--output-format', 'json'], {
        cwd: root,
        timeout: 120_000,
        env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
      });
      const json = stdout.slice(stdout.indexOf('{')).split('\n')[0] ?? '';
      return json ? ((JSON.parse(json) as { results?: Array<{ level: string; name: string; detail: string }> }).results ?? []) : [];
    };
    // it runs: it reports the INFO it finds (tables whose row level security has no policy: closed to all but the service)
    expect((await advise('info')).filter((r) => r.level === 'INFO').length).toBeGreaterThan(0);
    expect((await advise('warn')).map((r) => `${r.level} ${r.name}: ${r.detail}`)).toEqual([]);
  });

  it('applied every migration, recorded where the CLI records them', async () => {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from supabase_migrations.schema_migrations');
    const { readdirSync } = await import('node:fs');
    expect(rows[0]?.n).toBe(readdirSync(resolve(root, 'supabase/migrations')).filter((f) => f.endsWith('.sql')).length);
  });

  it("the public roles read the public listings only: the views show no other row (the table has none of its own rules), and the table's other columns are refused", async () => {
    const [{ n: hidden } = { n: 0 }] = (await client.query<{ n: number }>('select count(*)::int as n from internal.listings where not is_public')).rows;
    expect(hidden).toBeGreaterThan(0);
    for (const role of ['anon', 'authenticated']) {
      await client.query('begin');
      try {
        await client.query(`set local role ${role}`);
        const seen = await client.query<{ n: number; bad: number; named: number }>(
          "select count(*)::int as n, count(*) filter (where status <> '1' or country_code <> 'EC')::int as bad, count(*) filter (where btrim(city) <> '')::int as named from public.listings",
        );
        expect(seen.rows[0]?.n, role).toBeGreaterThan(0);
        expect(seen.rows[0]?.bad, role).toBe(0);
        const cities = await client.query<{ n: number }>('select coalesce(sum(listings), 0)::int as n from public.listing_cities');
        expect(cities.rows[0]?.n, role).toBe(seen.rows[0]?.named);
        await expect(client.query('select source_key from internal.listings limit 1')).rejects.toThrow(/permission denied/);
      } finally {
        await client.query('rollback');
      }
    }
    // and through the data API, an inactive listing is not there however it is asked for
    const { data, error } = await rest.from('listings').select('id').neq('status', '1').limit(5);
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });

  it('the public roles hold SELECT on the relations we publish and EXECUTE on the functions we publish, and nothing else anywhere in public', async () => {
    for (const role of ['anon', 'authenticated']) {
      const relations = await client.query<{ name: string; kind: string; privilege: string }>(
        `select c.relname as name, c.relkind::text as kind, a.privilege_type as privilege
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
                cross join lateral aclexplode(coalesce(c.relacl, acldefault(case when c.relkind = 'S' then 's' else 'r' end::"char", c.relowner))) a
          where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'S', 'f', 'p') and a.grantee in (0, $1::regrole::oid)
          order by 1, 3`,
        [role],
      );
      expect(
        relations.rows.filter((r) => r.privilege !== 'SELECT'),
        role,
      ).toEqual([]);
      // a signed-in agent reads the leads' notes and trail, and agents' trail, besides (row level security says whose: docs/agent-area.md)
      const area = role === 'authenticated' ? ['agent_events', 'lead_events', 'lead_notes'] : [];
      expect([...new Set(relations.rows.map((r) => r.name))], role).toEqual([...PUBLISHED_RELATIONS.filter((r) => r !== 'agents'), ...area].sort());
      // agents: the public columns only, read
      const columns = await client.query<{ privilege: string; n: number }>(
        `select a.privilege_type as privilege, count(*)::int as n from pg_attribute at cross join lateral aclexplode(at.attacl) a
          where at.attrelid = 'public.agents'::regclass and a.grantee = $1::regrole::oid group by 1`,
        [role],
      );
      expect(
        columns.rows.map((r) => r.privilege),
        role,
      ).toEqual(['SELECT']);
      const privateColumns = await client.query(
        `select attname from pg_attribute where attrelid = 'public.agents'::regclass and attnum > 0 and not attisdropped and has_column_privilege($1, 'public.agents', attname, 'SELECT') = false`,
        [role],
      );
      expect(privateColumns.rows.length, role).toBeGreaterThan(0);
      const functions = await client.query<{ name: string }>(
        `select distinct p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and has_function_privilege($1, p.oid, 'EXECUTE') order by 1`,
        [role],
      );
      expect(
        functions.rows.map((r) => r.name),
        role,
      ).toEqual([...PUBLISHED_FUNCTIONS, ...(role === 'authenticated' ? AREA_FUNCTIONS : [])].sort());
      // the leads: nothing for the public key; for a signed-in agent, reading some columns and changing two
      const leads = await client.query<{ privilege: string; columns: string[] }>(
        `select a.privilege_type as privilege, array_agg(at.attname::text order by at.attname) as columns from pg_attribute at cross join lateral aclexplode(at.attacl) a
          where at.attrelid = 'public.inquiries'::regclass and a.grantee = $1::regrole::oid group by 1 order by 1`,
        [role],
      );
      if (role === 'anon') expect(leads.rows).toEqual([]);
      else {
        expect(leads.rows.map((r) => r.privilege)).toEqual(['SELECT', 'UPDATE']);
        expect(leads.rows[1]?.columns).toEqual(['follow_up_on', 'status']);
        expect(leads.rows[0]?.columns).not.toContain('client_hash');
        expect(leads.rows[0]?.columns).not.toContain('spam');
      }
      // what a platform's default privileges would give anything made next
      const defaults = await client.query(
        `select d.defaclobjtype from pg_default_acl d join pg_namespace n on n.oid = d.defaclnamespace cross join lateral aclexplode(d.defaclacl) a where n.nspname = 'public' and a.grantee = $1::regrole::oid`,
        [role],
      );
      expect(defaults.rows, role).toEqual([]);
    }
    // the writes PostgREST would make through a view are refused by the catalogue itself
    for (const privilege of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) {
      for (const view of ['listing_cities', 'listing_property_types', 'listings', 'projects', 'project_unit_types']) {
        const { rows } = await client.query<{ ok: boolean }>(`select has_table_privilege('anon', $1, $2) as ok`, [`public.${view}`, privilege]);
        expect(rows[0]?.ok, `${privilege} on ${view}`).toBe(false);
      }
    }
  });

  it('the functions the elements call, and the public roles, ask for custom plans themselves (PostgREST binds every value)', async () => {
    const { rows } = await client.query<{ name: string; config: string[] | null }>(
      `select p.proname as name, p.proconfig as config from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = any($1) order by 1`,
      [PUBLISHED_FUNCTIONS],
    );
    for (const r of rows) expect(r.config, r.name).toContain('plan_cache_mode=force_custom_plan');
    for (const role of ['anon', 'authenticated']) {
      const settings = await client.query<{ config: string[] }>(
        'select s.setconfig as config from pg_db_role_setting s where s.setrole = $1::regrole and s.setdatabase = 0',
        [role],
      );
      expect(settings.rows[0]?.config, role).toEqual(
        expect.arrayContaining(['plan_cache_mode=force_custom_plan', expect.stringMatching(/^statement_timeout=/)]),
      );
    }
  });

  it("serves the contract suite's reads on that database: every search counts as SQL counts, and the map, the places, the agents and a listing's extras answer", async () => {
    for (const { name, filters, where } of SCENARIOS) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from internal.listings where country_code = 'EC' and status = '1' and (${where})`,
      );
      expect(await getListingsCount(rest, filters), name).toBe(rows[0]?.n);
    }
    expect((await getMapClusters(rest, {}, { zoom: 7, bbox: [-81, -5, -75, 1.5] })).reduce((n, c) => n + c.count, 0)).toBeGreaterThan(0);
    expect((await getPlaceSuggestions(rest, 'cumb'))[0]?.name).toBe('Cumbayá');
    expect((await getAgents(rest)).length).toBeGreaterThan(0);
    expect((await getPropertyTypes(rest)).length).toBeGreaterThan(0);
    const [listing] = (
      await client.query<{ id: string }>("select id::text as id from internal.listings where status = '1' and country_code = 'EC' order by id limit 1")
    ).rows;
    expect(Array.isArray(await getPriceHistory(rest, String(listing?.id)))).toBe(true);
    expect((await getSimilarListings(rest, String(listing?.id), 4)).length).toBeGreaterThan(0);
    // and what the public key may not do, the server refuses as PostgREST would
    expect(
      (await fetch(`${server.url}/rest/v1/rpc/search_fold`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"value":"x"}' })).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it('as PostgREST asks it, the public key runs nothing long: regular expressions take literal text, patterns are short, JSON is read whole, descriptions compare with nothing, and a statement ends at 500 ms', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => {});
    try {
      const setup = await postgrestSetup(pool);
      // where PostgREST reads them: the anon role's own settings, its login role's hook
      expect(setup.roleSettings.statement_timeout).toBe('500ms');
      expect(setup.preRequest).toBe('internal.data_api_gate');
      const get = (path: string, source: string, params: unknown[]) =>
        asPostgrest(pool, setup, { method: 'GET', path, headers: { 'cf-connecting-ip': '203.0.113.9' } }, readStatement(source), params);
      const outcome = (asked: Promise<unknown[]>) =>
        asked.then(
          (rows) => `rows ${rows.length}`,
          (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
        );
      const listings = (where: string) => `SELECT "public"."listings"."id" FROM "public"."listings" WHERE ${where}`;
      const BACK_REFERENCES = '^(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1$';
      // the review's requests (a description, a title): refused before any row is read
      expect(await outcome(get('/listings', listings('"public"."listings"."description" ~ $1'), [BACK_REFERENCES]))).toMatch(
        /^42883 operator does not exist: json ~/,
      );
      expect(await outcome(get('/listings', listings('"public"."listings"."title" ~ $1'), [BACK_REFERENCES]))).toMatch(
        /^22023 match and imatch take literal text/,
      );
      expect(await outcome(get('/listings', listings('"public"."listings"."city" ~* $1'), ['(a|aa)*$']))).toMatch(/^22023 /);
      expect(await outcome(get('/agents', 'SELECT "public"."agents"."id" FROM "public"."agents" WHERE "public"."agents"."about" ~ $1', ['(a+)+b']))).toMatch(
        /^22023 /,
      );
      expect(
        await outcome(
          get('/listing_cities', 'SELECT "public"."listing_cities"."city" FROM "public"."listing_cities" WHERE "public"."listing_cities"."city" ~ $1', [
            '\\d+',
          ]),
        ),
      ).toMatch(/^22023 /);
      // a function's rows are filtered as a view's
      const places = 'SELECT "pgrst_call".* FROM "public"."place_suggestions"("q" := $1) "pgrst_call" WHERE "pgrst_call"."name" ~ $2';
      expect(await outcome(get('/rpc/place_suggestions', places, ['quit', BACK_REFERENCES]))).toMatch(/^22023 /);
      expect(await outcome(get('/listings', listings('"public"."listings"."title" ILIKE $1'), [`%${'a%'.repeat(40)}`]))).toMatch(
        /^22023 like and ilike take patterns of at most 200 characters and 8 wildcards/,
      );
      expect(await outcome(get('/listings', listings('"public"."listings"."title" LIKE $1'), ['x'.repeat(201)]))).toMatch(/^22023 /);
      expect(await outcome(get('/listings', listings('"public"."listings"."images"->>0 ~ $1'), ['x']))).toMatch(/^22023 this column is read whole/);
      expect(await outcome(get('/listings', listings('"public"."listings"."images"->>\'k\' = $1'), ['x']))).toMatch(/^22/);
      expect(await outcome(get('/listings', listings('"public"."listings"."description" ILIKE $1'), ['%casa%']))).toMatch(/^42883 /);
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
          get('/agents', 'SELECT "public"."agents"."id" FROM "public"."agents" WHERE "public"."agents"."first_name_search" ~ $1', ['o\\.brien \\(jr\\)']),
        ),
      ).toBe('rows 0');
      const quito = await get(
        '/listings',
        listings('"public"."listings"."country_code" = $1 AND "public"."listings"."status" = $2 AND "public"."listings"."city" ILIKE $3'),
        ['EC', '1', '%quito%'],
      );
      expect(quito.length).toBe((await client.query("select count(*)::int as n from public.listings where city::text ilike '%quito%'")).rows[0]?.n);
      expect(quito.length).toBeGreaterThan(0);
      // whatever a statement of the public key does, it ends at 500 ms (57014), as its own setting says
      await client.query(SLEEP_FUNCTION);
      const sleep = readStatement('SELECT "public"."exp_test_sleep"($1) AS "exp_test_sleep"');
      expect(await outcome(asPostgrest(pool, setup, { method: 'POST', path: '/rpc/exp_test_sleep' }, sleep, [5]))).toMatch(
        /^57014 canceling statement due to statement timeout/,
      );
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
      const setup = await postgrestSetup(pool);
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
          return answer ? `${answer.status} ${answer.headers['Retry-After']} ${String(answer.body.code)}` : `error ${(error as Error).message}`;
        }
      };
      // one client: four at once, not five; another client meanwhile is served
      for (let i = 0; i < 4; i++) expect(await hold('198.51.100.1', '/rpc/search_listings')).toBe('admitted');
      expect(await hold('198.51.100.1', '/rpc/search_listings')).toBe('429 1 EXP429');
      expect(await hold('198.51.100.2', '/rpc/search_listings')).toBe('admitted');
      // the client is the platform's address: a first X-Forwarded-For hop the client wrote is not it
      expect(await hold('', '/rpc/search_listings', { 'x-forwarded-for': '192.0.2.77, 198.51.100.1' })).toBe('429 1 EXP429');
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
          readStatement('SELECT "pgrst_call".* FROM "public"."search_listings"("filters" := $1::jsonb, "page_size" := $2::integer) "pgrst_call"'),
          ['{}', size],
        ).then(
          (rows) => `rows ${rows.length}`,
          (error: unknown) => String(hookAnswer(error)?.status ?? (error as Error).message),
        );
      expect(await search(1000)).toBe('429');
      expect(await search(24)).toBe('rows 24');
      await end();
      expect(await search(1000)).toMatch(/^rows \d{3}/);
      expect(await hold('198.51.100.6', '/agents')).toBe('admitted');
      await end();
      // a signed-in role is not the public key's share
      const c = await pool.connect();
      try {
        await c.query('begin read only');
        await c.query("select set_config('role', 'authenticated', true), set_config('request.path', '/listings', true)");
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
    const [agent] = (await client.query<{ id: string }>("select min(id)::text as id from public.agents where country_code = 'EC'")).rows;
    const [project] = (await client.query<{ id: string }>("select id::text as id from internal.projects where slug = 'altos-de-la-carolina'")).rows;
    const types = (
      await client.query<{ id: string }>('select id::text as id from internal.project_unit_types where project_id = $1 order by position', [project?.id])
    ).rows
      .map((t) => t.id)
      .join(',');
    const rows = readRows({ listing: String(listing?.id), listing2: String(listing2?.id), agent: String(agent?.id), project: String(project?.id), types });
    expect(rows.length).toBeGreaterThan(20);
    const failures: string[] = [];
    try {
      for (const row of rows) failures.push(...(await checkRow(server.url, row, 'anon-key')));
    } finally {
      // (not one of ours: the catalogue test above holds what the public roles may call)
      await client.query('drop function public.exp_test_sleep(double precision)');
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
