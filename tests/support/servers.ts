/**
 * The real data server for node-side tests and benchmarks, over a fresh PostgreSQL database (a copy
 * of the shared seeded template) or a throwaway PostgreSQL server, migrated and seeded exactly as
 * `npm start` does it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres, type PostgresOptions } from '../../server/db/postgres.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../server/server.ts';
import { postgresDatabase, startPostgres, type PostgresServer } from './postgres.ts';

export interface TestServer extends RunningServer {
  /** the server's database, for a test's own connections (transactions held open across statements) */
  databaseUrl: string;
  /** privileged SQL for the expected answers */
  sql<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** the server's own PostgreSQL, to stop and start (kind 'postgres-pausable') */
  postgres: PostgresServer | undefined;
  /** where the server writes its mails as .eml files when it has no SMTP server */
  outboxDir: string;
}

/**
 * 'postgres': a fresh database (in DATABASE_URL's server when set, else a throwaway server);
 * 'postgres-pausable': always a throwaway server of its own, which the test may stop and start.
 */
export async function startTestServer(
  kind: 'postgres' | 'postgres-pausable' = 'postgres',
  options: Partial<ServerOptions> = {},
  database: PostgresOptions = {},
): Promise<TestServer> {
  let postgres: PostgresServer | undefined;
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string;
  if (kind === 'postgres-pausable') {
    postgres = await startPostgres();
    drop = () => postgres?.stop() ?? Promise.resolve();
    databaseUrl = postgres.url;
  } else {
    // a copy of the seeded template where the shared setup made one: the server finds it seeded
    const copy = await postgresDatabase('seeded');
    drop = copy.drop;
    databaseUrl = copy.url;
  }
  const db = await openPostgres(databaseUrl, database);
  // inquiries without SMTP go to a throwaway outbox, never into the repository's .data
  const outboxDir = mkdtempSync(join(tmpdir(), 'exp-outbox-'));
  const server = await startServer({ db, port: 0, bundlePort: 0, ...options, mail: { outboxDir, ...options.mail } });
  await server.ready;
  return {
    ...server,
    postgres,
    databaseUrl,
    outboxDir,
    sql: (text, params = []) => db.jobs.query(text, params),
    async close() {
      await server.close();
      await drop?.();
      // the outbox made here (a test that named its own keeps it)
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

/** The test server's own PostgreSQL, which the test stops and starts. */
export function pausable(server: TestServer): PostgresServer {
  if (!server.postgres) throw new Error("this test needs startTestServer('postgres-pausable')");
  return server.postgres;
}

/**
 * A client at `ip`, as the tests' servers are told who is asking: our server trusts one proxy
 * (TRUST_PROXY=1: the right-most X-Forwarded-For entry), the deployed functions their edge's
 * CF-Connecting-IP (their default).
 */
export const clientHeaders = (ip: string) => ({ 'X-Forwarded-For': ip, 'CF-Connecting-IP': ip });
