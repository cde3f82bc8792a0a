-- The database as a Supabase project has it, for a plain PostgreSQL too (our server, the tests):
-- the extensions' schema, the roles PostgREST switches to, their time limits and plans, and the
-- `internal` schema, which the data API does not expose.
--
-- supabase/schemas/ is the schema as it stands (docs/architecture.md "Database"): one file per
-- concern, one definition per object, applied in the files' order. A change edits the file and adds
-- a migration that makes it; tests/contract/schema-files.test.ts holds the two equal.

-- Extensions live in their own schema, as on Supabase.
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;
-- an agent's visits may not overlap: an exclusion constraint on (agent, time range) needs it
create extension if not exists btree_gist with schema extensions;

-- The roles PostgREST switches to. They exist on Supabase; a bare PostgreSQL needs them.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  -- the role PostgREST logs in as, which holds its in-database settings (98_data_api_gate.sql)
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator nologin noinherit;
  end if;
end
$$;

-- Supabase Auth's schema where the database has none (a bare PostgreSQL: our server, the tests):
-- its users, and the functions row level security reads the request's JWT with, as Auth defines
-- them. On a hosted project Auth owns the schema and nothing here runs (docs/agent-area.md).
do $$
begin
  if to_regnamespace('auth') is null then
    create schema auth;
    grant usage on schema auth to anon, authenticated, service_role;
    create table auth.users (
      id uuid primary key default gen_random_uuid(),
      email text unique,
      created_at timestamptz not null default now(),
      last_sign_in_at timestamptz,
      raw_app_meta_data jsonb not null default '{}',
      raw_user_meta_data jsonb not null default '{}'
    );
    create function auth.jwt() returns jsonb language sql stable as
      'select coalesce(nullif(current_setting(''request.jwt.claim'', true), ''''), nullif(current_setting(''request.jwt.claims'', true), ''''))::jsonb';
    create function auth.uid() returns uuid language sql stable as
      'select coalesce(nullif(current_setting(''request.jwt.claim.sub'', true), ''''), (nullif(current_setting(''request.jwt.claims'', true), '''')::jsonb ->> ''sub''))::uuid';
    create function auth.role() returns text language sql stable as
      'select coalesce(nullif(current_setting(''request.jwt.claim.role'', true), ''''), (nullif(current_setting(''request.jwt.claims'', true), '''')::jsonb ->> ''role''))::text';
    grant execute on function auth.jwt(), auth.uid(), auth.role() to anon, authenticated, service_role;
  end if;
end
$$;

-- A time limit on every statement of the public key: a hosted project sets 3 s (authenticated 8 s);
-- ours is 500 ms, so that no request of the public key holds a connection of the data API's pool
-- longer (docs/deployment.md "What the public key may ask"; the slowest call the site makes takes
-- 66 ms on 20,000 listings, docs/benchmarks.md). Our server applies the anon role's settings to its
-- public sessions, as PostgREST does for the role it impersonates (server/db/postgres.ts).
alter role anon set statement_timeout = '500ms';
alter role authenticated set statement_timeout = '8s';

-- The plans our benchmarks measured, as a hosted project runs the calls (docs/deployment.md
-- "The database"): PostgREST binds every value as a parameter, and after five runs PostgreSQL may
-- keep a generic plan, which cannot prove that `country_code = $1` implies a partial index's
-- predicate. So the public roles ask for custom plans, and so does each function the elements call.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';

-- Everything private lives in `internal` (20_listings.sql says why the listings do too).
create schema if not exists internal;

-- The clock every rule that reads the time reads (docs/decisions.md #33): now(), moved by the
-- offset a session carries in `exp.clock_offset` (an interval). Only the tests set it, for the
-- sessions our code opens (core/clock.ts); a hosted project never does, and there this is now().
-- Its search path pinned (Supabase's advisor): so not inlined, and a filter over many rows reads it
-- once (as an index scan's bound, or from a statement's own parameter).
create or replace function internal.now()
returns timestamptz language sql stable parallel safe set search_path = '' as $$
  select pg_catalog.now() + coalesce(nullif(pg_catalog.current_setting('exp.clock_offset', true), '')::interval, interval '0')
$$;

-- The month it is in Ecuador now (its first day): the brokerage's calendar is Ecuador's
-- (America/Guayaquil, UTC-5 all year), whatever the session's time zone.
create or replace function internal.this_month()
returns date language sql stable parallel safe set search_path = '' as $$
  select pg_catalog.date_trunc('month', internal.now() at time zone 'America/Guayaquil')::date
$$;
