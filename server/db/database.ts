/**
 * The server's database: PostgreSQL, always (the embedded one of `npm start`, or DATABASE_URL's).
 * Reads for the public API run as the `anon` role, so row level security and column grants apply
 * exactly as on Supabase. Every statement has a time limit (docs/architecture.md "Deadlines and
 * fair shares"): the public API's by the `anon` role's own `statement_timeout` (3 s, as on
 * Supabase), privileged work of a request (inquiries, the outbox, alerts) 10 s, the server's own
 * jobs (migrations, the seed, imports) 15 minutes.
 */
import type { ClientShares } from '../http/client-shares.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { TransactionalSql } from '../../core/functions/sql.ts';

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** The public role's statements, each done for a request: its client's share, its deadline. */
export interface PublicQueryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[], request?: RequestContext): Promise<T[]>;
}

export type Transaction = Queryable & { exec(sql: string): Promise<void> };

export interface Database {
  /** the public role, under row level security; each client within its share (server/http/client-shares.ts) */
  readonly anon: PublicQueryable;
  /** each client's share of the public pool (what `anon` waits for) */
  readonly shares: ClientShares;
  /** privileged work done for a request: inquiries, saved searches, the outbox, the alert job */
  readonly admin: Queryable;
  /** privileged long work of the server's own: migrations, the seed, imports */
  readonly jobs: Queryable;
  /** a privileged transaction (`long`: with the jobs' time limit) */
  transaction<T>(fn: (q: Transaction) => Promise<T>, options?: { long?: boolean }): Promise<T>;
  /** a privileged multi-statement script without parameters (the jobs' time limit) */
  exec(sql: string): Promise<void>;
  /** VACUUM ANALYZE after bulk loads, so counts use index-only scans and plans see the data */
  vacuumAnalyze(tables: readonly string[]): Promise<void>;
  /**
   * Runs `fn` holding a named lock of the whole database (a session advisory lock on a connection
   * of its own): one holder across every server on this database. `wait: false` gives up at once
   * when another holds it (undefined). A process that dies lets go with its connection.
   */
  withLock<T>(name: string, fn: () => Promise<T>, options?: { wait?: boolean }): Promise<T | undefined>;
  close(): Promise<void>;
}

/** The database cannot be reached (stopped, restarting, network): callers answer 503 and retry later. */
export class DatabaseUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super('The database is not reachable');
  }
}

export { isConnectionError } from '../../core/functions/db/pg.ts';

/** The privileged queries and transactions the shared server code (inquiries, outbox) runs. */
export function adminSql(db: Database): TransactionalSql {
  return {
    query: (text, params) => db.admin.query(text, params),
    transaction: (fn) => db.transaction((tx) => fn(tx)),
  };
}
