import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { insertSeed } from '../seed/apply.ts';
import { DEFAULT_LISTINGS, generateSeed } from '../seed/generate.ts';
import { DatabaseUnavailableError, type Database } from './database.ts';
import { now as clockNow } from '../../core/clock.ts';

const MIGRATIONS_DIR = resolve(import.meta.dirname, '../../supabase/migrations');

/** The first migration since the last squash: supabase/schemas/ as it stood, file by file. */
const BASELINE = '20261205212250';

/**
 * The last of the migrations that squash folded into the baseline: a database that applied it applied
 * them all (they run in order), so it is the baseline's database, and its records are the baseline's
 * (docs/deployment.md "Migrations"; `supabase migration repair` does the same on a project).
 */
export const FOLDED_LAST = '20261204165216';

/**
 * Applies supabase/migrations/*.sql in order, each once, recording them where the Supabase CLI
 * does (supabase_migrations.schema_migrations), so a database set up here is one the CLI knows.
 * Several servers starting at once on one database take turns (a named lock): the first applies,
 * the others find nothing left to do.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  return (await db.withLock('migrations', () => applyMigrations(db, dir))) ?? [];
}

async function applyMigrations(db: Database, dir: string): Promise<string[]> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
  `);
  const files = readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();
  const versions = new Set(files.map((f) => f.split('_')[0]));
  const recorded = async () =>
    new Set(
      (await db.jobs.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).map(
        (r) => r.version,
      ),
    );
  let done = await recorded();
  const gone = [...done].filter((v) => !versions.has(v));
  if (!done.has(BASELINE) && done.has(FOLDED_LAST)) {
    await db.transaction(async (tx) => {
      await tx.query('delete from supabase_migrations.schema_migrations where version = any($1)', [gone]);
      await tx.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, 'baseline')", [
        BASELINE,
      ]);
    });
    done = await recorded();
  } else if (!done.has(BASELINE) && gone.length > 0) {
    throw new Error(
      `this database was made by migrations that are not in the tree any more, squashed into ${BASELINE}_baseline.sql (docs/deployment.md "Migrations"): bring it to ${FOLDED_LAST} with a release from before the squash, or start with an empty one (npm start: RESET_DATA=1 rebuilds .data with the seed)`,
    );
  }
  const applied: string[] = [];
  for (const file of files) {
    const [version, ...rest] = file.replace(/\.sql$/, '').split('_');
    if (!version || done.has(version)) continue;
    const sql = readFileSync(join(dir, file), 'utf8');
    await db.transaction(
      async (tx) => {
        await tx.exec(sql);
        await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [
          version,
          rest.join('_'),
        ]);
      },
      { long: true },
    );
    applied.push(file);
  }
  return applied;
}

/**
 * Migrates, then seeds an empty database (first start); returns the migrations applied and how
 * many listings were seeded. Under the same lock as the migrations: of several servers started at
 * once on an empty database, exactly one seeds it.
 */
async function prepareDatabase(
  db: Database,
  listings = DEFAULT_LISTINGS,
): Promise<{ applied: string[]; seeded: number }> {
  return (
    (await db.withLock('migrations', async () => {
      const applied = await applyMigrations(db, MIGRATIONS_DIR);
      const seeded = await seedIfEmpty(db, listings);
      return { applied, seeded };
    })) ?? { applied: [], seeded: 0 }
  );
}

/** Seeds an empty database (first start); returns how many listings were loaded. */
export async function seedIfEmpty(db: Database, listings = DEFAULT_LISTINGS): Promise<number> {
  const [row] = await db.jobs.query<{ n: number | string }>('select count(*) as n from public.agents');
  if (Number(row?.n ?? 0) > 0) return 0;
  return reseed(db, listings);
}

export async function reseed(
  db: Database,
  listings: number,
  options: { replaceListingsOnly?: boolean } = {},
): Promise<number> {
  const seed = generateSeed({ listings, now: clockNow() });
  await db.transaction((tx) => insertSeed(tx, seed, options), { long: true });
  await db.vacuumAnalyze(['internal.listings', 'public.agents']);
  return seed.listings.length;
}

/**
 * Migrations and first-start seed (one server at a time, prepareDatabase's lock); a database that
 * is not up yet is retried until it is.
 */
export async function prepareWhenReachable(
  db: Database,
  seedListings: number | undefined,
  log: (line: string) => void,
  stopped: () => boolean,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { applied, seeded } = await prepareDatabase(db, seedListings);
      if (applied.length) log(`[db] applied migrations: ${applied.join(', ')}`);
      if (seeded) log(`[db] seeded ${seeded} listings`);
      return;
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError) || stopped()) throw error;
      if (attempt === 1 || attempt % 15 === 0) log('[db] the database is not reachable yet; retrying every 2 s');
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
