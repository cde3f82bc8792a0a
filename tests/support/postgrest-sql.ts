/**
 * A request as a hosted project's PostgREST (v12) runs it in the database (docs/data-api.md, "What
 * PostgREST sends"), for measurements and tests on a database prepared as a hosted project's, where
 * our server's own bounds do not run:
 * 1. a transaction, read-only for GET and HEAD;
 * 2. one statement that sets the role, the search path, the impersonated role's own settings
 *    (pg_db_role_setting: its statement_timeout), the JWT claims and the request's method, path,
 *    headers and cookies, each local to the transaction;
 * 3. the pre-request hook named by the authenticator role's `pgrst.db_pre_request`, when it names one;
 * 4. the request's statement, its filter values bound as parameters of unknown type (PostgreSQL
 *    reads each as the type of the column it is compared with);
 * 5. commit (rollback after an error).
 */
import type pg from 'pg';

/** What a Supabase project's initial schema leaves (supabase/postgres: roles, their limits, default privileges). */
export const SUPABASE_INITIAL_SCHEMA = `
  do $$ begin
    if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
    if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
    if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
    if not exists (select 1 from pg_roles where rolname = 'authenticator') then create role authenticator noinherit; end if;
  end $$;
  grant anon, authenticated, service_role to authenticator;
  alter role anon set statement_timeout = '3s';
  alter role authenticated set statement_timeout = '8s';
  grant usage on schema public to anon, authenticated, service_role;
  alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
`;

export interface PostgrestSetup {
  /** the impersonated role's settings, as PostgREST applies them */
  roleSettings: Record<string, string>;
  /** the pre-request hook, as PostgREST reads it from its login role */
  preRequest: string | undefined;
}

const settingsOf = async (client: pg.Pool | pg.Client, role: string): Promise<Record<string, string>> => {
  const { rows } = await client.query<{ setting: string }>(
    `select unnest(s.setconfig) as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
      where r.rolname = $1 and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
      order by s.setdatabase`,
    [role],
  );
  return Object.fromEntries(
    rows.map(({ setting }) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)]),
  );
};

/** What PostgREST reads at start (and on `NOTIFY pgrst`): the anon role's settings and its own in-database configuration. */
export async function postgrestSetup(client: pg.Pool | pg.Client): Promise<PostgrestSetup> {
  const own = await settingsOf(client, 'authenticator');
  return { roleSettings: await settingsOf(client, 'anon'), preRequest: own['pgrst.db_pre_request'] };
}

export interface PostgrestRequest {
  method: 'GET' | 'HEAD' | 'POST';
  /** the path after /rest/v1, e.g. /listings or /rpc/search_listings */
  path: string;
  headers?: Record<string, string>;
}

/** PostgREST's wrapper around a read's source (a relation's rows, or a function's), answering one row with the JSON body. */
export const readStatement = (source: string) =>
  `WITH pgrst_source AS ( ${source} ) SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ` +
  `coalesce(json_agg(_postgrest_t), '[]') AS body, nullif(current_setting('response.headers', true), '') AS response_headers, ` +
  `nullif(current_setting('response.status', true), '') AS response_status, '' AS response_inserted FROM ( SELECT * FROM pgrst_source ) _postgrest_t`;

/** Steps 1 to 3 on `client`: the request's transaction, its settings and the hook; the request's statement may follow. */
export async function beginRequest(
  client: pg.PoolClient | pg.Client,
  setup: PostgrestSetup,
  request: PostgrestRequest,
): Promise<void> {
  await client.query(
    request.method === 'POST'
      ? 'BEGIN ISOLATION LEVEL READ COMMITTED'
      : 'BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY',
  );
  const settings: Array<[string, string]> = [
    ['search_path', '"public", "extensions"'],
    ['role', 'anon'],
    ['request.jwt.claims', '{"role":"anon"}'],
    ['request.method', request.method],
    ['request.path', request.path],
    [
      'request.headers',
      JSON.stringify(Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))),
    ],
    ['request.cookies', '{}'],
    ...Object.entries(setup.roleSettings),
  ];
  await client.query(
    `select ${settings.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
    settings.flat(),
  );
  if (setup.preRequest) await client.query(`select ${setup.preRequest}()`);
}

/**
 * Runs one request on a connection of `pool` as PostgREST does, as the anon role; resolves with its
 * body's rows. `held` hears how long it held the connection (its wait in the pool's queue apart).
 */
export async function asPostgrest(
  pool: pg.Pool,
  setup: PostgrestSetup,
  request: PostgrestRequest,
  statement: string,
  params: unknown[] = [],
  held?: (ms: number) => void,
): Promise<unknown[]> {
  const client = await pool.connect();
  const since = performance.now();
  let broken: Error | undefined;
  try {
    try {
      await beginRequest(client, setup, request);
      const { rows } = await client.query<{ body: unknown[] }>(statement, params);
      await client.query('COMMIT');
      return rows[0]?.body ?? [];
    } catch (error) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw error;
    }
  } finally {
    client.release(broken);
    held?.(performance.now() - since);
  }
}

/** PostgREST's answer to an error the hook raised with SQLSTATE PGRST: its status and headers (from the detail) and body (from the message). */
export function hookAnswer(
  error: unknown,
): { status: number; headers: Record<string, string>; body: Record<string, unknown> } | undefined {
  const e = error as { code?: string; message?: string; detail?: string };
  if (e.code !== 'PGRST' || !e.message || !e.detail) return undefined;
  const detail = JSON.parse(e.detail) as { status: number; headers?: Record<string, string> };
  return {
    status: detail.status,
    headers: detail.headers ?? {},
    body: JSON.parse(e.message) as Record<string, unknown>,
  };
}
