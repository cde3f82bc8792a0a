import { createHash } from 'node:crypto';
import pg from 'pg';
import { inTransaction, isConnectionError, type PgPool } from '../../core/functions/db/pg.ts';
import { DatabaseUnavailableError, type Database, type Queryable, type Row } from './database.ts';

// bigint counts as numbers; our JSON bodies are built in SQL and arrive as text
pg.types.setTypeParser(20, (v) => Number(v));

const MAX_NAMED = 512;

/**
 * Settings of the public API's sessions. Custom plans: a generic plan of a prepared statement
 * cannot prove `country_code = $1` implies a partial index's predicate and falls back to scans.
 * No parallel workers: on a small machine their start-up costs more than they save.
 */
export const ANON_SESSION = '-c TimeZone=UTC -c role=anon -c statement_timeout=8s -c plan_cache_mode=force_custom_plan -c max_parallel_workers_per_gather=0';

/**
 * A real PostgreSQL (DATABASE_URL). Two pools: one whose sessions start as `anon` (set at
 * connection time, so a missing role fails the connection instead of silently running privileged)
 * for the public API, one for privileged work. Frequent statements are prepared once per
 * connection. A database that goes away surfaces as DatabaseUnavailableError; the pools reconnect
 * by themselves when it is back.
 */
export async function openPostgres(url: string, options: { anonPoolSize?: number } = {}): Promise<Database> {
  // UTC sessions: timestamps render the same from PGlite and PostgreSQL, whatever the host's zone
  const common = { connectionString: url, connectionTimeoutMillis: 3000, idleTimeoutMillis: 30_000, application_name: 'exp-ecuador-server', options: '-c TimeZone=UTC' };
  const onIdleError = (error: Error) => console.error('[db] idle connection error:', error.message);
  const adminPool = new pg.Pool({ ...common, max: 4 });
  adminPool.on('error', onIdleError);
  // created on first use, after the migrations made the role
  let anonPool: pg.Pool | undefined;
  const anonPoolNow = () => {
    if (!anonPool) {
      anonPool = new pg.Pool({ ...common, max: options.anonPoolSize ?? 10, options: ANON_SESSION });
      anonPool.on('error', onIdleError);
    }
    return anonPool;
  };

  const names = new Map<string, string>();
  const nameFor = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (!name && names.size < MAX_NAMED) {
      name = 'q' + createHash('sha1').update(sql).digest('hex').slice(0, 16);
      names.set(sql, name);
    }
    return name;
  };

  const wrap = async <T extends Row>(run: () => Promise<pg.QueryResult<T>>): Promise<T[]> => {
    try {
      return (await run()).rows;
    } catch (error) {
      if (isConnectionError(error)) throw new DatabaseUnavailableError(error);
      throw error;
    }
  };

  const anon: Queryable = {
    query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const name = nameFor(sql);
      const values = params as unknown[];
      return wrap(() => anonPoolNow().query<T>(name ? { name, text: sql, values } : { text: sql, values }));
    },
  };
  const admin: Queryable = {
    query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return wrap(() => adminPool.query<T>(sql, params as unknown[]));
    },
  };

  return {
    kind: 'postgres',
    anon,
    admin,
    async transaction(fn) {
      // a guarded client (inTransaction): a session the database ends mid-way cannot take the process down
      try {
        return await inTransaction(adminPool as unknown as PgPool, fn);
      } catch (error) {
        throw isConnectionError(error) ? new DatabaseUnavailableError(error) : error;
      }
    },
    async exec(sql) {
      await wrap(() => adminPool.query(sql));
    },
    async vacuumAnalyze(tables) {
      // the first pass removes the rows a reseed deleted; only the second marks the new pages
      // all-visible, which index-only scans (the exact counts) need
      await wrap(() => adminPool.query(`vacuum ${tables.join(', ')}`));
      await wrap(() => adminPool.query(`vacuum analyze ${tables.join(', ')}`));
    },
    async close() {
      await Promise.allSettled([anonPool?.end(), adminPool.end()]);
    },
  };
}
