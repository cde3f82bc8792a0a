/**
 * The catalogue of a database as a hosted Supabase project has it (docs/deployment.md "The
 * database"), prepared as a project's initial schema prepares one and migrated by the Supabase CLI
 * (tests/support/hosted-project.ts): Supabase's own advisor finds nothing; every migration is
 * recorded where the CLI records them; the public roles read the public listings only, hold SELECT
 * on the relations we publish and EXECUTE on the functions we publish, and nothing else anywhere in
 * `public`; the published functions and the public roles ask for custom plans.
 */
import { resolve } from 'node:path';
import type { PostgrestClient } from '@supabase/postgrest-js';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { prepareHostedProject, supabaseOn } from '../support/hosted-project.ts';
import type { PostgresDatabase } from '../support/postgres.ts';
import { stopAll } from '../support/stop-all.ts';

const root = resolve(import.meta.dirname, '../..');

/** What the public key may read and call: the data API's relations, and the functions the elements call. */
const PUBLISHED_RELATIONS = [
  'agents',
  'listing_cities',
  'listing_property_types',
  'listings',
  'project_unit_types',
  'projects',
];
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
  'nearby_places',
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
  'set_my_follow_up_mail',
  'set_visiting_hours',
  'team_agents',
  'update_my_profile',
];

describe('a database prepared as a hosted project, migrated by the Supabase CLI: its catalogue', () => {
  let database: PostgresDatabase, client: pg.Client, server: RunningServer, rest: PostgrestClient;
  beforeAll(async () => ({ database, client, server, rest } = await prepareHostedProject()), 300_000);
  afterAll(() => stopAll(server, client, database));

  it("Supabase's own advisor (the database linter the dashboard's Security Advisor runs, splinter, from the CLI) finds nothing at WARN or ERROR", async () => {
    const advise = async (level: string) => {
      const { stdout } = await supabaseOn(
        database,
        ['db', 'advisors', '--type', 'security', '--level', level, '--output-format', 'json'],
        120_000,
      );
      const json = stdout.slice(stdout.indexOf('{')).split('\n')[0] ?? '';
      return json
        ? ((JSON.parse(json) as { results?: Array<{ level: string; name: string; detail: string }> }).results ?? [])
        : [];
    };
    // it runs: it reports the INFO it finds (tables whose row level security has no policy: closed to all but the service)
    expect((await advise('info')).filter((r) => r.level === 'INFO').length).toBeGreaterThan(0);
    expect((await advise('warn')).map((r) => `${r.level} ${r.name}: ${r.detail}`)).toEqual([]);
  });

  it('applied every migration, recorded where the CLI records them', async () => {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from supabase_migrations.schema_migrations',
    );
    const { readdirSync } = await import('node:fs');
    expect(rows[0]?.n).toBe(readdirSync(resolve(root, 'supabase/migrations')).filter((f) => f.endsWith('.sql')).length);
  });

  it("the public roles read the public listings only: the views show no other row (the table has none of its own rules), and the table's other columns are refused", async () => {
    const [{ n: hidden } = { n: 0 }] = (
      await client.query<{ n: number }>('select count(*)::int as n from internal.listings where not is_public')
    ).rows;
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
        const cities = await client.query<{ n: number }>(
          'select coalesce(sum(listings), 0)::int as n from public.listing_cities',
        );
        expect(cities.rows[0]?.n, role).toBe(seen.rows[0]?.named);
        await expect(client.query('select source_key from internal.listings limit 1')).rejects.toThrow(
          /permission denied/,
        );
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
      expect([...new Set(relations.rows.map((r) => r.name))], role).toEqual(
        [...PUBLISHED_RELATIONS.filter((r) => r !== 'agents'), ...area].sort(),
      );
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
        const { rows } = await client.query<{ ok: boolean }>(`select has_table_privilege('anon', $1, $2) as ok`, [
          `public.${view}`,
          privilege,
        ]);
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
});
