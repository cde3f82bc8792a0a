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

  /**
   * This transaction's work so far: the staging table's rows read, and the calls of the listings' row
   * trigger that keeps their words and of the words' rule. The counters a backend keeps until it
   * reports them may hold its last transactions' too, so a merge's are the difference across it.
   */
  const counters = async (q: Transaction) => {
    const [read] = await q.query<{ rows: string }>(
      `select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text as rows
         from pg_catalog.pg_stat_xact_all_tables where relid = 'internal.import_staging'::regclass`,
    );
    const calls = await q.query<{ funcname: string; calls: string }>(
      `select funcname, calls::text from pg_catalog.pg_stat_xact_user_functions
        where schemaname = 'internal' and funcname in ('listings_fill_words', 'listing_words_pair')`,
    );
    return {
      read: Number(read?.rows ?? 0),
      calls: Object.fromEntries(calls.map((c) => [c.funcname, Number(c.calls)])) as Record<string, number>,
    };
  };

  const merge = (pass: number) =>
    work.db.transaction(
      async (q) => {
        await q.query("set local track_functions = 'all'");
        const run = await stage(q, pass);
        const before = await counters(q);
        const [{ r } = { r: {} }] = await q.query<{ r: Record<string, unknown> }>(
          "select internal.import_merge($1::bigint, 'work', true, 0.5, true) as r",
          [run],
        );
        const after = await counters(q);
        const calls = Object.fromEntries(
          Object.entries(after.calls)
            .map(([name, n]) => [name, n - (before.calls[name] ?? 0)] as const)
            .filter(([, n]) => n > 0),
        );
        return { r, read: after.read - before.read, calls };
      },
      { long: true },
    );

  it('reads its staged rows a few times over, whatever statistics the last run left', async () => {
    const first = await merge(1);
    expect(first.r).toMatchObject({ new: COUNT, updated: 0, withdrawn: 0 });
    const second = await merge(2);
    expect(second.r).toMatchObject({ new: 0, updated: COUNT / 20, withdrawn: COUNT / 50 });
    // each of the merge's statements reads the run once (about ten of them); a nested loop over the
    // pairs reads it COUNT times over (4.5 million rows here)
    expect(second.read).toBeGreaterThanOrEqual(COUNT);
    expect(second.read).toBeLessThan(20 * COUNT);
    // the first run made every listing's words; the second changed prices and withdrew, and its
    // text is the same: no words made, the trigger run for the changed and the withdrawn only
    // (an upsert's proposed row and its update: twice for each changed listing)
    expect(first.calls).toEqual({ listing_words_pair: COUNT, listings_fill_words: COUNT });
    expect(second.calls).toEqual({ listings_fill_words: 2 * (COUNT / 20) + COUNT / 50 });
  }, 240_000);

  it('touches only what changed: the same feed again writes nothing, runs no trigger and makes no words', async () => {
    // after the test above: the second run's feed again, as a CSV or Kyero source sends it. Each
    // row's version and lock as PostgreSQL keeps them (xmin, xmax): the same after, so none was
    // written or locked (a conflict clause locks every row it compares)
    const versions = async () =>
      (
        await work.db.admin.query<{ v: string }>(
          "select string_agg(id || ':' || xmin || ':' || xmax, ',' order by id) as v from internal.listings where source = 'work'",
        )
      )[0]?.v;
    const before = await versions();
    const again = await merge(2);
    expect(again.r).toMatchObject({ new: 0, updated: 0, withdrawn: 0, unchanged: COUNT - COUNT / 50 });
    expect(again.calls).toEqual({});
    expect(await versions()).toBe(before);
  }, 240_000);
});
