import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { isConnectionError } from '../../core/functions/db/pg.ts';
import { DatabaseUnavailableError, type Database, type Queryable, type Row } from './database.ts';
import { DataDirLock } from './lock.ts';

/**
 * The embedded database: PostgreSQL compiled to WebAssembly, one per data directory (locked).
 * The session runs as `anon`; privileged work switches role inside its own transaction.
 */
/** A closed or aborted PGlite answers like a database that is away (503), never with a crash. */
async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw isConnectionError(error) ? new DatabaseUnavailableError(error) : error;
  }
}

export async function openPglite(dataDir: string | null): Promise<Database> {
  const lock = dataDir ? DataDirLock.acquire(dataDir) : undefined;
  let pg: PGlite;
  try {
    if (dataDir) mkdirSync(join(dataDir, 'pglite'), { recursive: true });
    pg = await PGlite.create({ dataDir: dataDir ? join(dataDir, 'pglite') : undefined, extensions: { pg_trgm } });
  } catch (error) {
    lock?.release();
    throw error;
  }
  await pg.exec("set timezone to 'UTC'");
  let anonSession = false;
  const asAnon = async () => {
    if (anonSession) return;
    // the role exists once the first migration ran; until then reads fail like a missing table
    const exists = await pg.query<{ ok: boolean }>("select exists(select 1 from pg_roles where rolname = 'anon') as ok");
    if (exists.rows[0]?.ok) {
      await pg.exec('set role anon');
      anonSession = true;
    }
  };
  const anon: Queryable = {
    query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return guard(async () => {
        await asAnon();
        return (await pg.query<T>(sql, params as unknown[])).rows;
      });
    },
  };
  const admin: Queryable = {
    query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return guard(() =>
        pg.transaction(async (tx) => {
          await tx.exec('set local role postgres');
          return (await tx.query<T>(sql, params as unknown[])).rows;
        }),
      );
    },
  };
  return {
    kind: 'pglite',
    anon,
    admin,
    transaction(fn) {
      return guard(() =>
        pg.transaction(async (tx) => {
          await tx.exec('set local role postgres');
          return fn({
            query: async <T extends Row>(sql: string, params: readonly unknown[] = []) => (await tx.query<T>(sql, params as unknown[])).rows,
            exec: async (sql: string) => {
              await tx.exec(sql);
            },
          });
        }),
      );
    },
    async exec(sql) {
      await guard(() =>
        pg.transaction(async (tx) => {
          await tx.exec('set local role postgres');
          await tx.exec(sql);
        }),
      );
    },
    async vacuumAnalyze(tables) {
      await pg.exec('reset role');
      // twice: see openPostgres().vacuumAnalyze
      await pg.exec(`vacuum ${tables.join(', ')}`);
      await pg.exec(`vacuum analyze ${tables.join(', ')}`);
      anonSession = false;
    },
    async close() {
      try {
        await pg.close();
      } finally {
        lock?.release();
      }
    },
  };
}
