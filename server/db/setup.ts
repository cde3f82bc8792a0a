import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { insertSeed } from '../seed/apply.ts';
import { DEFAULT_LISTINGS, generateSeed } from '../seed/generate.ts';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = resolve(import.meta.dirname, '../../supabase/migrations');

/** The first migration since the squash: supabase/schemas/ as it stood, file by file. */
const BASELINE = '20261226000000';

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
  const done = new Set((await db.jobs.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).map((r) => r.version));
  if (!done.has(BASELINE) && [...done].some((v) => v < BASELINE)) {
    throw new Error(
      `this database was made by the migrations that were squashed into ${BASELINE}_baseline.sql (docs/architecture.md "Database"): start with an empty one (npm start: RESET_DATA=1 rebuilds .data with the seed)`,
    );
  }
  const applied: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort()) {
    const [version, ...rest] = file.replace(/\.sql$/, '').split('_');
    if (!version || done.has(version)) continue;
    const sql = readFileSync(join(dir, file), 'utf8');
    await db.transaction(
      async (tx) => {
        await tx.exec(sql);
        await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [version, rest.join('_')]);
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
export async function prepareDatabase(db: Database, listings = DEFAULT_LISTINGS): Promise<{ applied: string[]; seeded: number }> {
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

export async function reseed(db: Database, listings: number, options: { replaceListingsOnly?: boolean } = {}): Promise<number> {
  const seed = generateSeed({ listings, now: Date.now() });
  await db.transaction((tx) => insertSeed(tx, seed, options), { long: true });
  await db.vacuumAnalyze(['internal.listings', 'public.agents']);
  return seed.listings.length;
}
