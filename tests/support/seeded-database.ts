/**
 * A migrated database for the tests of one describe block (vitest): opened before them, with the
 * seed's `listings` when given, and closed after them. `const db = seededDatabase('postgres', 1800)`,
 * then `db().admin.query(...)` in the tests.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { reseed } from '../../server/db/setup.ts';
import { migratedDatabase } from './postgres.ts';

export function seededDatabase(_kind: 'postgres', listings?: number): () => Database {
  let opened: Awaited<ReturnType<typeof migratedDatabase>> | undefined;
  beforeAll(async () => {
    opened = await migratedDatabase();
    if (listings) await reseed(opened.db, listings);
  }, 180_000);
  afterAll(async () => {
    await opened?.close();
  });
  return () => {
    if (!opened) throw new Error('the database is not open yet');
    return opened.db;
  };
}
