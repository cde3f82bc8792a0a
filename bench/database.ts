/** The benchmarks' database: a PostgreSQL server's, migrated and seeded. */
import type { Database } from '../server/db/database.ts';
import { openPostgres } from '../server/db/postgres.ts';
import { migrate, reseed } from '../server/db/setup.ts';

/** The schema and `listings` listings of the seed, in the database at `url`: a connection the caller closes. */
export async function benchDatabase(url: string, listings: number, bench: string): Promise<Database> {
  console.log(`[bench:${bench}] PostgreSQL: seeding ${listings} listings...`);
  const db = await openPostgres(url);
  await migrate(db);
  await reseed(db, listings);
  return db;
}
