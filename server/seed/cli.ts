/**
 * npm run seed -- [--listings N] [--postgres] [--sql FILE]
 *
 * Replaces the data of the configured database (DATABASE_URL; with --postgres the embedded
 * PostgreSQL of `npm start -- --postgres`, running or not; else the PGlite in DATA_DIR, which must
 * not be in use by `npm start`) with the deterministic seed of N listings (default 1800), e.g.
 * `npm run seed -- --listings 100000` for benchmarks. With --sql, writes the seed as SQL for the
 * Supabase CLI instead (`supabase db reset` with it configured as the project's seed file).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from '../db/database.ts';
import { runningEmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { DataDirLock } from '../db/lock.ts';
import { openPglite } from '../db/pglite.ts';
import { openPostgres } from '../db/postgres.ts';
import { migrate, reseed } from '../db/setup.ts';
import { seedSql } from './apply.ts';
import { DEFAULT_LISTINGS, generateSeed } from './generate.ts';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const listings = Number(option('listings') ?? DEFAULT_LISTINGS);
  if (!Number.isInteger(listings) || listings < 1 || listings > 2_000_000) throw new Error('--listings must be a whole number between 1 and 2,000,000');
  const sqlFile = option('sql');
  if (sqlFile) {
    writeFileSync(resolve(sqlFile), seedSql(generateSeed({ listings, now: Date.now() })));
    console.log(`wrote ${sqlFile}`);
    return;
  }
  const root = resolve(import.meta.dirname, '../..');
  const dataDir = resolve(root, process.env.DATA_DIR ?? '.data');
  let stopEmbedded: (() => Promise<void>) | undefined;
  let db: Database;
  if (process.env.DATABASE_URL) db = await openPostgres(process.env.DATABASE_URL);
  else if (process.argv.includes('--postgres')) {
    const dir = resolve(dataDir, 'postgres');
    let url = runningEmbeddedPostgres(dir);
    if (!url) {
      const lock = DataDirLock.acquire(dataDir);
      const pg = await startEmbeddedPostgres({ dataDir: dir });
      url = pg.url;
      stopEmbedded = async () => {
        await pg.stop();
        lock.release();
      };
    }
    db = await openPostgres(url);
  } else db = await openPglite(dataDir);
  try {
    await migrate(db);
    const started = Date.now();
    const n = await reseed(db, listings);
    console.log(`seeded ${n} listings (${listings} generated + the rule rows) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await db.close();
    await stopEmbedded?.();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
