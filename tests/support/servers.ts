/**
 * The real data server for node-side tests and benchmarks, over PGlite (in memory, or a data dir)
 * or over a throwaway PostgreSQL server, migrated and seeded exactly as `npm start` does it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import type { Database } from '../../server/db/database.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../server/server.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';

export interface TestServer extends RunningServer {
  kind: 'pglite' | 'postgres';
  /** privileged SQL for the expected answers */
  sql<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  postgres?: PostgresServer;
}

export async function startTestServer(kind: 'pglite' | 'postgres', options: Partial<ServerOptions> = {}): Promise<TestServer> {
  let postgres: PostgresServer | undefined;
  let db: Database;
  if (kind === 'postgres') {
    postgres = await startPostgres();
    db = await openPostgres(postgres.url);
  } else {
    db = await openPglite(null);
  }
  // inquiries without SMTP go to a throwaway outbox, never into the repository's .data
  const outboxDir = mkdtempSync(join(tmpdir(), 'exp-outbox-'));
  const server = await startServer({ db, port: 0, bundlePort: 0, ...options, mail: { outboxDir, ...options.mail } });
  await server.ready;
  return {
    ...server,
    kind,
    postgres,
    sql: (text, params = []) => db.admin.query(text, params),
    async close() {
      await server.close();
      await postgres?.stop();
    },
  };
}
