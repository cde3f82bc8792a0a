/**
 * A feed merged again reads its staged rows a few times over, not once per listing
 * (docs/import.md "A run", step 3). The staging table is filled just before a run and emptied after
 * it, so the statistics PostgreSQL keeps of it are another run's; planned on those, the counts that
 * open the merge joined the run to the source's listings as nested loops over every pair (a whole
 * feed of 20,000 listings merged the second time took minutes). The work is counted, not timed: the
 * rows the merge's transaction read from the staging table (pg_stat_xact_all_tables, this
 * transaction's own counters, so nothing else on the server counts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Transaction } from '../../server/db/database.ts';
import { migratedDatabase } from '../support/postgres.ts';
import { stopAll } from '../support/stop-all.ts';

const COUNT = 3_000;

/** A run of the source 'work' staged: COUNT listings, 5% repriced and 2% absent on the second. */
async function stage(q: Transaction, pass: number): Promise<string> {
  const [run] = await q.query<{ id: string }>(
    "insert into internal.import_runs (source, kind, mode) values ('work', 'csv', 'full') returning id::text as id",
  );
  await q.query(
    `insert into internal.import_staging (run_id, source_key, listing)
     select $1::bigint, 'w-' || i, pg_catalog.jsonb_build_object(
              'listing_ref', 'ref-' || i, 'status', '1', 'source_status', 'Active',
              'title', 'Departamento ' || i, 'address', 'Calle ' || i,
              'price', case when $2 = 2 and i % 20 = 3 then 95000 else 100000 end + i,
              'bedrooms', 1 + i % 4, 'square_feet', 60 + i % 90, 'property_type', 'Apartment', 'city', 'Quito',
              'sector', 'Iñaquito', 'country_code', 'EC', 'geo_lat', (-0.17 - (i % 97) / 1000.0)::text,
              'geo_lon', (-78.48 - (i % 89) / 1000.0)::text, 'description', 'Luminoso, cerca del parque',
              'source_modified_at', '2026-11-01T00:00:00Z', 'operation', 'sale')
       from pg_catalog.generate_series(1, $3::integer) i
      where not ($2 = 2 and i % 50 = 11)`,
    [run!.id, pass, COUNT],
  );
  return run!.id;
}

describe('a feed merged again (PostgreSQL)', () => {
  let work: { db: Database; close(): Promise<void> };
  beforeAll(async () => {
    work = await migratedDatabase();
  }, 120_000);
  afterAll(() => stopAll(work));

  it('reads its staged rows a few times over, whatever statistics the last run left', async () => {
    const merge = (pass: number) =>
      work.db.transaction(
        async (q) => {
          const run = await stage(q, pass);
          const [{ r } = { r: {} }] = await q.query<{ r: Record<string, unknown> }>(
            "select internal.import_merge($1::bigint, 'work', true, 0.5, true) as r",
            [run],
          );
          const [read] = await q.query<{ rows: string }>(
            `select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text as rows
               from pg_catalog.pg_stat_xact_all_tables where relid = 'internal.import_staging'::regclass`,
          );
          return { r, read: Number(read?.rows) };
        },
        { long: true },
      );
    const first = await merge(1);
    expect(first.r).toMatchObject({ new: COUNT, updated: 0, withdrawn: 0 });
    const second = await merge(2);
    expect(second.r).toMatchObject({ new: 0, updated: COUNT / 20, withdrawn: COUNT / 50 });
    // each of the merge's statements reads the run once (about ten of them); a nested loop over the
    // pairs reads it COUNT times over (4.5 million rows here)
    expect(second.read).toBeGreaterThanOrEqual(COUNT);
    expect(second.read).toBeLessThan(20 * COUNT);
  }, 240_000);
});
