/**
 * The schema as it stands, one object one place (docs/architecture.md "Database"): every table,
 * view, function, trigger, index and policy is created in exactly one file of supabase/schemas/,
 * and the database the migrations build is the one the schema files build, as PostgreSQL's own
 * catalogue describes them (tests/support/catalogue.ts), on PostgreSQL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/setup.ts';
import { catalogue, catalogueDiff } from '../support/catalogue.ts';
import { postgresDatabase, type PostgresDatabase } from '../support/postgres.ts';
import { createdObject, sqlStatements } from '../support/sql-statements.ts';

const SCHEMAS = resolve(import.meta.dirname, '../../supabase/schemas');
const files = readdirSync(SCHEMAS)
  .filter((f) => f.endsWith('.sql'))
  .sort();

describe('supabase/schemas/: the schema as it stands', () => {
  it('creates each object in one file, once', () => {
    const where = new Map<string, string[]>();
    for (const file of files) {
      for (const statement of sqlStatements(readFileSync(join(SCHEMAS, file), 'utf8'))) {
        const object = createdObject(statement);
        if (object) where.set(object, [...(where.get(object) ?? []), file]);
      }
    }
    expect(where.size).toBeGreaterThan(100);
    expect([...where].filter(([, at]) => at.length > 1).map(([object, at]) => `${object}: ${at.join(', ')}`)).toEqual([]);
  });

  describe('on PostgreSQL', () => {
    let fromMigrations: PostgresDatabase;
    let fromFiles: PostgresDatabase;
    let a: Database;
    let b: Database;
    beforeAll(async () => {
      [fromMigrations, fromFiles] = await Promise.all([postgresDatabase(), postgresDatabase()]);
      [a, b] = await Promise.all([openPostgres(fromMigrations.url), openPostgres(fromFiles.url)]);
      await migrate(a);
      for (const file of files) await b.exec(readFileSync(join(SCHEMAS, file), 'utf8'));
    }, 180_000);
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await Promise.all([fromMigrations?.drop(), fromFiles?.drop()]);
    });

    it('the database the migrations build is the one the schema files build', async () => {
      const [left, right] = await Promise.all([catalogue(a.admin), catalogue(b.admin)]);
      expect((left.functions ?? []).length).toBeGreaterThan(40);
      expect((left.columns ?? []).length).toBeGreaterThan(200);
      expect(catalogueDiff(left, right)).toEqual([]);
    });

    it('a database the squashed migrations made is refused, with what to do (they are not in the tree any more)', async () => {
      const old = await postgresDatabase();
      const db = await openPostgres(old.url);
      try {
        await db.exec(`create schema supabase_migrations;
          create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
          insert into supabase_migrations.schema_migrations (version, name) values ('20261213000000', 'baseline'), ('20261224000000', 'rentals');`);
        await expect(migrate(db)).rejects.toThrow(/squashed into 20261226000000_baseline\.sql .*RESET_DATA=1/);
      } finally {
        await db.close();
        await old.drop();
      }
    });
  });
});
