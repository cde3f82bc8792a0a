/**
 * The schema as it stands, one object one place (docs/architecture.md "Database"): every table,
 * view, function, trigger, index and policy is created in exactly one file of supabase/schemas/,
 * and the database the migrations build is the one the schema files build, as PostgreSQL's own
 * catalogue describes them (tests/support/catalogue.ts), on PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { FOLDED_LAST, migrate } from '../../server/db/setup.ts';
import { catalogue, catalogueDiff } from '../support/catalogue.ts';
import { postgresDatabase, type PostgresDatabase } from '../support/postgres.ts';
import { createdObject, sqlStatements } from '../support/sql-statements.ts';

const SCHEMAS = resolve(import.meta.dirname, '../../supabase/schemas');
const files = readdirSync(SCHEMAS)
  .filter((f) => f.endsWith('.sql'))
  .sort();

describe('supabase/migrations/: stamped when they were made', () => {
  // `supabase migration new` stamps a migration with the time it is made, and `supabase db push`
  // refuses one that sorts before the last one a project applied: a stamp in the future makes
  // every later migration sort before it (docs/deployment.md "Migrations")
  it('no migration is stamped after the commit that added it; a new one after every one before it', () => {
    const dir = resolve(import.meta.dirname, '../../supabase/migrations');
    const stamps = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(stamps.length).toBeGreaterThan(0);
    const added = (file: string): string | null => {
      try {
        // the commit that added it under this name (renames not followed: a stamp mended later is added then)
        const out = execFileSync('git', ['log', '--diff-filter=A', '--format=%cI', '--', join(dir, file)], {
          cwd: dir,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        return out.trim().split('\n').filter(Boolean).at(-1) ?? null;
      } catch {
        return null;
      }
    };
    const late: string[] = [];
    let committed = 0;
    let previous = { file: '', when: 0 };
    for (const file of stamps) {
      const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})_/.exec(file);
      expect(m, file).toBeTruthy();
      const stamp = Date.UTC(
        Number(m![1]),
        Number(m![2]) - 1,
        Number(m![3]),
        Number(m![4]),
        Number(m![5]),
        Number(m![6]),
      );
      const when = added(file);
      // a migration not committed yet (the change at hand) is checked when it is
      if (!when) continue;
      committed++;
      if (stamp > Date.parse(when)) late.push(`${file} stamped after its commit of ${when}`);
      // in the order they were added: one added before another sorts before it
      if (Date.parse(when) < previous.when) late.push(`${file} was added before ${previous.file} and sorts after it`);
      previous = { file, when: Date.parse(when) };
    }
    expect(late).toEqual([]);
    // a checkout without its history checks nothing: say so rather than pass quietly
    if (existsSync(resolve(dir, '../../.git'))) expect(committed).toBeGreaterThan(0);
  });
});

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
    expect([...where].filter(([, at]) => at.length > 1).map(([object, at]) => `${object}: ${at.join(', ')}`)).toEqual(
      [],
    );
  });

  it('writes each rule as small functions (docs/architecture.md "Database"): none over 60 lines', () => {
    const long: string[] = [];
    for (const file of files)
      for (const statement of sqlStatements(readFileSync(join(SCHEMAS, file), 'utf8'))) {
        const object = createdObject(statement);
        if (!object?.startsWith('function ')) continue;
        const from = statement.search(/create (or replace )?function/i);
        const lines = statement.slice(from).trimEnd().split('\n').length;
        if (lines > 60) long.push(`${object}: ${lines}`);
      }
    expect(long).toEqual([]);
    // and each file one a reader takes in at once, as the code's are (eslint.config.js max-lines)
    expect(files.filter((file) => readFileSync(join(SCHEMAS, file), 'utf8').split('\n').length > 450)).toEqual([]);
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

    it('a database made by migrations squashed away, short of the last one folded into the baseline, is refused, with what to do', async () => {
      const old = await postgresDatabase();
      const db = await openPostgres(old.url);
      try {
        // the first squash's (2026-11-26), and the second's short of its last: neither is the baseline's database
        for (const recorded of [
          ['20261213000000', '20261224000000'],
          ['20261126193507', '20261203174847'],
        ]) {
          await db.exec(`drop schema if exists supabase_migrations cascade; create schema supabase_migrations;
            create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
            insert into supabase_migrations.schema_migrations (version) values ${recorded.map((v) => `('${v}')`).join(', ')};`);
          await expect(migrate(db)).rejects.toThrow(
            new RegExp(`squashed into \\d+_baseline\\.sql .*bring it to ${FOLDED_LAST} .*RESET_DATA=1`),
          );
        }
        expect(await db.jobs.query("select 1 from pg_namespace where nspname = 'internal'")).toEqual([]);
      } finally {
        await db.close();
        await old.drop();
      }
    });

    it("a database that applied the migrations folded into the baseline takes the baseline's record, and nothing is applied twice", async () => {
      const old = await postgresDatabase();
      const db = await openPostgres(old.url);
      try {
        await migrate(db);
        const tree = readdirSync(resolve(import.meta.dirname, '../../supabase/migrations'))
          .filter((f) => f.endsWith('.sql'))
          .map((f) => f.split('_')[0])
          .sort();
        // as a database the 33 folded migrations made records them (its first six under the future
        // stamps a project pushed before 2026-12-01 kept): the catalogue of such a database was the
        // schema files' on the day of the squash, which this file's test held
        await db.exec(`delete from supabase_migrations.schema_migrations where version = '${tree[0]}';
          insert into supabase_migrations.schema_migrations (version) values
          ('20261226000000'), ('20261229000000'), ('20261202145702'), ('${FOLDED_LAST}');`);
        expect(await migrate(db)).toEqual([]);
        const versions = (
          await db.jobs.query<{ version: string }>(
            'select version from supabase_migrations.schema_migrations order by version',
          )
        ).map((r) => r.version);
        expect(versions).toEqual(tree);
      } finally {
        await db.close();
        await old.drop();
      }
    });
  });
});
