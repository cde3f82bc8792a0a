/**
 * The database a command (`npm run import`, `npm run webhooks`) works on: the one `npm start`
 * uses. DATABASE_URL, else with --postgres the embedded PostgreSQL in DATA_DIR (the running one,
 * or started for the command), else the PGlite in DATA_DIR; 'held' when `npm start` holds that
 * PGlite (one process per PGlite): the command then hands its work to the server (admin.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from './database.ts';
import { runningEmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.ts';
import { DataDirLock } from './lock.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

export async function openForCommand(dataDir: string, usePostgres: boolean): Promise<{ db: Database; close: () => Promise<void> } | 'held'> {
  if (process.env.DATABASE_URL) {
    const db = await openPostgres(process.env.DATABASE_URL);
    return { db, close: () => db.close() };
  }
  if (usePostgres) {
    const dir = resolve(dataDir, 'postgres');
    const url = runningEmbeddedPostgres(dir);
    if (url) {
      const db = await openPostgres(url);
      return { db, close: () => db.close() };
    }
    const lock = DataDirLock.acquire(dataDir);
    const pg = await startEmbeddedPostgres({ dataDir: dir });
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
  try {
    const db = await openPglite(dataDir);
    return { db, close: () => db.close() };
  } catch (error) {
    if (/in use by another process/.test((error as Error).message)) return 'held';
    throw error;
  }
}

/** The `npm start` that holds the PGlite: its address and its token (DATA_DIR/import.json, server/import/service.ts). */
export function holdingServer(dataDir: string): { url: string; token: string } {
  const file = resolve(dataDir, 'import.json');
  if (!existsSync(file)) throw new Error(`${dataDir} is in use, but its server takes no commands (no import.json): stop it, or start it again with this version`);
  return JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string };
}
