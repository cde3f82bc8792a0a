import { createHash } from 'node:crypto';
import pg from 'pg';
import { inTransaction, isConnectionError, withClient, type PgPool } from '../../core/functions/db/pg.ts';
import { DEFAULTS } from '../../core/functions/defaults.ts';
import { clockSessionOptions } from '../../core/clock.ts';
import { ClientShares, DEFAULT_SHARES, type ShareOptions } from '../http/client-shares.ts';
import type { RequestContext } from '../http/request-context.ts';
import { DeadlineError } from '../http/request-context.ts';
import { DatabaseUnavailableError, type Database, type PublicQueryable, type Queryable, type Row } from './database.ts';

// bigint counts as numbers; our JSON bodies are built in SQL and arrive as text
pg.types.setTypeParser(20, (v) => Number(v));

const MAX_NAMED = 512;

/**
 * Settings of the public API's sessions besides the `anon` role's own (read from the database, as
 * PostgREST applies an impersonated role's settings: its statement_timeout and plan_cache_mode,
 * migrations 20261210000000 and 20261212000000). No parallel workers: on a small machine their
 * start-up costs more than they save.
 */
const ANON_SETTINGS: Record<string, string> = { TimeZone: 'UTC', role: 'anon', max_parallel_workers_per_gather: '0' };

/** The `anon` role's own settings where the role does not set them (a database whose migrations predate them). */
const ANON_ROLE_DEFAULTS: Record<string, string> = {
  statement_timeout: `${DEFAULTS.anonStatementTimeoutMs}ms`,
  plan_cache_mode: 'force_custom_plan',
};

/** `-c name=value ...` for a session's start-up options (values escaped as libpq reads them). */
function sessionOptions(settings: Record<string, string>): string {
  return Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v.replace(/[\\ ]/g, (c) => `\\${c}`)}`)
    .join(' ');
}

/** The public sessions' start-up options where the `anon` role sets nothing of its own (benchmarks' direct SQL). */
export const ANON_SESSION = sessionOptions({ ...ANON_ROLE_DEFAULTS, ...ANON_SETTINGS });

/** The key space of our named locks (withLock), apart from the one-key locks of the rate limits. */
const LOCK_SPACE = 7741;

export interface PostgresOptions {
  /** connections of the public API (default 10) */
  anonPoolSize?: number;
  /** how long a statement may wait for a free connection before the request is answered 504 (default 2 s) */
  poolWaitMs?: number;
  /** each client's share of the public pool (server/http/client-shares.ts) */
  shares?: ShareOptions;
}

/** The settings a role holds for this database (pg_db_role_setting), as name -> value. */
async function roleSettings(pool: pg.Pool, role: string): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ setting: string }>(
    `select unnest(s.setconfig) as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
      where r.rolname = $1 and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
      order by s.setdatabase`,
    [role],
  );
  const out: Record<string, string> = {};
  for (const { setting } of rows) {
    const eq = setting.indexOf('=');
    if (eq > 0) out[setting.slice(0, eq)] = setting.slice(eq + 1);
  }
  return out;
}

/**
 * A PostgreSQL (the embedded one, or DATABASE_URL's). Pools: the public API's, whose sessions
 * start as `anon` with that role's settings (so a missing role fails the connection instead of
 * silently running privileged); privileged work of requests; the server's own long jobs; and a
 * small one that cancels statements whose request ended. Frequent public statements are prepared
 * once per connection. A database that goes away surfaces as DatabaseUnavailableError; the pools
 * reconnect by themselves when it is back.
 *
 * Each public statement runs for a request (server/http/request-context.ts, given by the caller): it waits for the
 * client's turn (its fair share), then for a connection (at most `poolWaitMs`), and when the
 * request ends first (its deadline, or the client left) the statement is cancelled in the
 * database, not left running.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  // UTC sessions: timestamps render the same whatever the host's zone; and the one clock's offset
  // where the tests set one (core/clock.ts: internal.now() reads it)
  const clock = clockSessionOptions();
  const common = {
    connectionString: url,
    idleTimeoutMillis: 30_000,
    application_name: 'exp-ecuador-server',
    options: `-c TimeZone=UTC${clock ? ` ${clock}` : ''}`,
  };
  const onIdleError = (error: Error) => console.error('[db] idle connection error:', error.message);
  const pool = (settings: pg.PoolConfig) => {
    const p = new pg.Pool({ ...common, ...settings });
    p.on('error', onIdleError);
    return p;
  };
  const adminPool = pool({
    max: 4,
    connectionTimeoutMillis: 5000,
    statement_timeout: DEFAULTS.serviceStatementTimeoutMs,
  });
  let jobsPool: pg.Pool | undefined;
  const jobs = () =>
    (jobsPool ??= pool({ max: 2, connectionTimeoutMillis: 10_000, statement_timeout: DEFAULTS.jobStatementTimeoutMs }));
  let cancelPool: pg.Pool | undefined;
  const cancels = () => (cancelPool ??= pool({ max: 2, connectionTimeoutMillis: 2000, statement_timeout: 2000 }));
  const shares = new ClientShares(options.shares ?? DEFAULT_SHARES);
  const poolWaitMs = options.poolWaitMs ?? 2000;

  // made on first use, after the migrations made the role and gave it its settings
  let anonPool: Promise<pg.Pool> | undefined;
  const anonPoolNow = () =>
    (anonPool ??= roleSettings(adminPool, 'anon').then(
      (own) =>
        pool({
          max: options.anonPoolSize ?? 10,
          connectionTimeoutMillis: poolWaitMs,
          options: `${sessionOptions({ ...ANON_ROLE_DEFAULTS, ...own, ...ANON_SETTINGS })}${clock ? ` ${clock}` : ''}`,
        }),
      (error: unknown) => {
        anonPool = undefined;
        throw error;
      },
    ));

  const names = new Map<string, string>();
  const nameFor = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (!name && names.size < MAX_NAMED) {
      name = 'q' + createHash('sha1').update(sql).digest('hex').slice(0, 16);
      names.set(sql, name);
    }
    return name;
  };

  const unavailable = (error: unknown): never => {
    throw isConnectionError(error) ? new DatabaseUnavailableError(error) : error;
  };

  const wrap = async <T extends Row>(run: () => Promise<pg.QueryResult<T>>): Promise<T[]> => {
    try {
      return (await run()).rows;
    } catch (error) {
      return unavailable(error);
    }
  };

  /** pg-pool's word for a wait in its queue that outlasted connectionTimeoutMillis (a connection attempt that times out says otherwise) */
  const waitedTooLong = (error: unknown) =>
    error instanceof Error && error.message === 'timeout exceeded when trying to connect'
      ? new DeadlineError('waiting')
      : error;

  /**
   * A connection of the public pool, unless the pool is busy for longer than it waits; one that
   * arrives after the request ended goes back at once.
   */
  const connect = async (signal: AbortSignal | undefined): Promise<pg.PoolClient> => {
    if (signal?.aborted) throw new DeadlineError('waiting');
    const client = await (
      await anonPoolNow()
    )
      .connect()
      .catch((error: unknown) => Promise.reject(waitedTooLong(error)));
    if (signal?.aborted) {
      client.release();
      throw new DeadlineError('waiting');
    }
    return client;
  };

  /** the `authenticated` role's own settings (its statement_timeout), read once */
  let signedInSettings: Promise<Record<string, string>> | undefined;
  const anon: PublicQueryable = {
    async query<T extends Row>(sql: string, params: readonly unknown[] = [], request?: RequestContext) {
      const signal = request?.signal;
      // the client's turn first: it may not hold more than its share of the pool
      const release = request ? await shares.acquire(request.client, signal, request.admitted) : undefined;
      let held = 0;
      try {
        // a guarded client (core/functions/db/pg.ts): one the database ended is dropped, not reused
        const pool = { connect: () => connect(signal) } as unknown as PgPool;
        return await withClient(pool, async (client) => {
          const started = performance.now();
          let cancelling: Promise<unknown> | undefined;
          // the request ended while its statement runs: the database stops it
          const onAbort = () => {
            cancelling = cancels()
              .query('select pg_cancel_backend($1)', [(client as unknown as { processID: number }).processID])
              .catch(() => {});
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          try {
            const name = nameFor(sql);
            const values = params as unknown[];
            const c = client as unknown as pg.PoolClient;
            if (!request?.claims)
              return (await c.query<T>(name ? { name, text: sql, values } : { text: sql, values })).rows;
            // a signed-in user's statement: as `authenticated`, with the token's claims and that
            // role's own time limit, in a transaction of its own (as PostgREST runs it)
            await c.query('begin');
            try {
              const own = await (signedInSettings ??= roleSettings(adminPool, 'authenticated').catch(
                () => ({}) as Record<string, string>,
              ));
              await c.query(
                "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true), set_config('statement_timeout', $2, true)",
                [JSON.stringify(request.claims), own.statement_timeout ?? '8s'],
              );
              const rows = (await c.query<T>(name ? { name, text: sql, values } : { text: sql, values })).rows;
              await c.query('commit');
              return rows;
            } catch (error) {
              await c.query('rollback').catch(() => {});
              throw error;
            }
          } finally {
            signal?.removeEventListener('abort', onAbort);
            // a cancel still on its way must not reach the statement of the connection's next user
            if (cancelling) await cancelling;
            held = performance.now() - started;
          }
        });
      } catch (error) {
        if (error instanceof DeadlineError) throw error;
        if (signal?.aborted && (error as { code?: string }).code === '57014') throw new DeadlineError('working');
        return unavailable(error);
      } finally {
        release?.(held);
      }
    },
  };
  const admin: Queryable = {
    query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return wrap(() => adminPool.query<T>(sql, params as unknown[]));
    },
  };
  const jobsQueryable: Queryable = {
    query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return wrap(() => jobs().query<T>(sql, params as unknown[]));
    },
  };

  return {
    anon,
    shares,
    admin,
    jobs: jobsQueryable,
    async transaction(fn, transactionOptions) {
      // a guarded client (inTransaction): a session the database ends mid-way cannot take the process down
      try {
        return await inTransaction((transactionOptions?.long ? jobs() : adminPool) as unknown as PgPool, fn);
      } catch (error) {
        return unavailable(error);
      }
    },
    async exec(sql) {
      await wrap(() => jobs().query(sql));
    },
    async vacuumAnalyze(tables) {
      // the first pass removes the rows a reseed deleted; only the second marks the new pages
      // all-visible, which index-only scans (the exact counts) need
      await wrap(() => jobs().query(`vacuum ${tables.join(', ')}`));
      await wrap(() => jobs().query(`vacuum analyze ${tables.join(', ')}`));
    },
    async withLock(name, fn, lockOptions) {
      // a connection of its own for as long as the lock is held: the lock lives with it
      const client = new pg.Client({ ...common, statement_timeout: 0 });
      client.on('error', () => {});
      try {
        await client.connect();
      } catch (error) {
        await client.end().catch(() => {});
        return unavailable(error);
      }
      try {
        const wait = lockOptions?.wait ?? true;
        const { rows } = await client.query<{ ok: boolean }>(
          wait
            ? 'select pg_advisory_lock($1, hashtext($2)) is null as ok'
            : 'select pg_try_advisory_lock($1, hashtext($2)) as ok',
          [LOCK_SPACE, name],
        );
        if (!wait && !rows[0]?.ok) return undefined;
        return await fn();
      } catch (error) {
        return unavailable(error);
      } finally {
        // ending the session lets go of the lock
        await client.end().catch(() => {});
      }
    },
    async close() {
      const anonNow = anonPool ? await anonPool.catch(() => undefined) : undefined;
      await Promise.allSettled([anonNow?.end(), adminPool.end(), jobsPool?.end(), cancelPool?.end()]);
    },
  };
}
