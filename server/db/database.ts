/**
 * One interface over the embedded PGlite and a real PostgreSQL. Reads for the public API run as
 * the `anon` role, so row level security and column grants apply exactly as on Supabase.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  /** the public role, under row level security */
  readonly anon: Queryable;
  /** privileged work: migrations, seed, inquiries */
  readonly admin: Queryable;
  /** a privileged transaction */
  transaction<T>(fn: (q: Queryable & { exec(sql: string): Promise<void> }) => Promise<T>): Promise<T>;
  /** a privileged multi-statement script without parameters */
  exec(sql: string): Promise<void>;
  /** VACUUM ANALYZE after bulk loads, so counts use index-only scans and plans see the data */
  vacuumAnalyze(tables: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** The database cannot be reached (stopped, restarting, network): callers answer 503 and retry later. */
export class DatabaseUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super('The database is not reachable');
  }
}

export { isConnectionError } from '../../core/functions/db/pg.ts';
