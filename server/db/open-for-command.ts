/**
 * The database a command (`npm run import`, `npm run webhooks`, `npm run seed`) works on: the one
 * `npm start` uses. DATABASE_URL, else the embedded PostgreSQL in DATA_DIR: the one a running
 * `npm start` holds, or started for the command and stopped after it.
 */
import type { Database } from './database.ts';
import { dataDirFor, runningEmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.ts';
import { DataDirLock } from './lock.ts';
import { openPostgres } from './postgres.ts';

/** What a command was told cannot be run: its CLI prints the message with the usage (exit 2). */
export class UsageError extends Error {}

export async function openForCommand(dataDir: string): Promise<{ db: Database; close: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const db = await openPostgres(process.env.DATABASE_URL);
    return { db, close: () => db.close() };
  }
  const dir = dataDirFor(dataDir);
  const url = runningEmbeddedPostgres(dir);
  if (url) {
    const db = await openPostgres(url);
    return { db, close: () => db.close() };
  }
  const lock = DataDirLock.acquire(dataDir);
  const pg = await startEmbeddedPostgres({ dataDir: dir }).catch((error: unknown) => {
    lock.release();
    throw error;
  });
  const db = await openPostgres(pg.url);
  return {
    db,
    close: async () => {
      await db.close();
      await pg.stop();
      lock.release();
    },
  };
}
