/**
 * Holding a pooled node-postgres client safely, for our server (pg) and the deployed Deno function
 * (npm:pg) alike. A client taken from the pool has no 'error' listener while it is held: when the
 * database ends the session (a restart: 57P01, a crash: ECONNRESET) pg emits 'error' on it, and an
 * 'error' event without a listener ends the process. So every held client gets a listener for as
 * long as it is held, and a client that broke is released as broken (the pool drops it) instead of
 * being rolled back on a dead connection and handed to the next request.
 */
import type { Sql, TransactionalSql } from '../sql.ts';

/** The part of pg's PoolClient we use. */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  release(destroy?: Error | boolean): void;
}

/** The part of pg's Pool we use. */
export interface PgPool {
  connect(): Promise<PgClient>;
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);

/** True when the error says the database cannot be reached (stopped, restarting, network), not that the SQL was wrong. */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  if (!e) return false;
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  return /Connection terminated|connect ECONNREFUSED|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended|Client was closed and is not queryable|read ECONNRESET|write EPIPE|Cannot use a pool after calling end on the pool/i.test(
    String(e.message ?? ''),
  );
}

/**
 * Runs `fn` on a client of its own, guarded for its whole time out of the pool. The client goes
 * back to the pool only when it is known to be healthy; otherwise it is destroyed.
 */
export async function withClient<T>(
  pool: PgPool,
  fn: (client: PgClient, health: { broken(): Error | undefined; markBroken(error: Error): void }) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    return await fn(client, { broken: () => broken, markBroken: onError });
  } catch (error) {
    if (!broken && isConnectionError(error)) broken = error as Error;
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken ?? false);
  }
}

/** A transaction on a guarded client: committed when `fn` resolves, rolled back (if the connection still lives) when it throws. */
export function inTransaction<T>(
  pool: PgPool,
  fn: (tx: Sql & { exec(sql: string): Promise<void> }) => Promise<T>,
): Promise<T> {
  return withClient(pool, async (client, health) => {
    await client.query('begin');
    try {
      const result = await fn({
        query: async <R extends Record<string, unknown>>(text: string, params: readonly unknown[] = []) =>
          (await client.query(text, params as unknown[])).rows as R[],
        exec: async (text: string) => {
          await client.query(text);
        },
      });
      await client.query('commit');
      return result;
    } catch (error) {
      // on a dead connection a rollback only raises another error; the server rolls back by itself
      if (!health.broken() && !isConnectionError(error)) {
        // a client that cannot roll back is not handed to anyone else
        await client.query('rollback').catch((rollbackError: Error) => health.markBroken(rollbackError));
      }
      throw error;
    }
  });
}

/** Plain queries and guarded transactions over one pool: what the shared handlers take. */
export function pgSql(pool: PgPool): TransactionalSql {
  return {
    query: async <R extends Record<string, unknown>>(text: string, params: readonly unknown[] = []) =>
      (await pool.query(text, params as unknown[])).rows as R[],
    transaction: (fn) => inTransaction(pool, fn),
  };
}
