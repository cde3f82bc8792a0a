/**
 * npm run seed -- [--listings N] [--sql FILE]
 *
 * Replaces the data of the configured database (DATABASE_URL, else the embedded PostgreSQL in
 * DATA_DIR, running or not) with the deterministic seed of N listings (default 1800), e.g.
 * `npm run seed -- --listings 100000` for benchmarks. With --sql, writes the seed as SQL for the
 * Supabase CLI instead (`supabase db reset` with it configured as the project's seed file).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openForCommand } from '../db/open-for-command.ts';
import { migrate, reseed } from '../db/setup.ts';
import { seedSql } from './apply.ts';
import { DEFAULT_LISTINGS, generateSeed } from './generate.ts';
import { now as clockNow } from '../../core/clock.ts';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const listings = Number(option('listings') ?? DEFAULT_LISTINGS);
  if (!Number.isInteger(listings) || listings < 1 || listings > 2_000_000)
    throw new Error('--listings must be a whole number between 1 and 2,000,000');
  const sqlFile = option('sql');
  if (sqlFile) {
    writeFileSync(resolve(sqlFile), seedSql(generateSeed({ listings, now: clockNow() })));
    console.log(`wrote ${sqlFile}`);
    return;
  }
  const root = resolve(import.meta.dirname, '../..');
  const { db, close } = await openForCommand(resolve(root, process.env.DATA_DIR ?? '.data'));
  try {
    await migrate(db);
    const started = Date.now();
    const n = await reseed(db, listings);
    console.log(
      `seeded ${n} listings (${listings} generated + the rule rows) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
