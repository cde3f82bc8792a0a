/**
 * A merge of more than 10,000 listings defers the upkeep of the map's cells, the places' counts
 * and the words' copy, and rebuilds each once at its end (internal.import_merge's bulk path; docs/
 * decisions.md #29). The same 10,050 listings imported in one run (the bulk path) and in two runs
 * of 5,025 (statement by statement) must leave the same cells, places and words, and the search
 * finds them by place and by word. On PostgreSQL, where feeds this large are loaded.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { runImport } from '../../server/import/run.ts';
import { sourceFrom } from '../../server/import/sources.ts';
import { WORDS_OFF_RULE } from '../support/independent-sql.ts';
import { migratedDatabase } from '../support/postgres.ts';
import { stopAll } from '../support/stop-all.ts';

const COUNT = 10_050;
const SECTORS = ['Cumbayá', 'La Carolina', 'Tumbaco', 'Iñaquito', 'Samborondón'];

function record(i: number): Record<string, unknown> {
  return {
    ListingKey: `B-${i}`,
    StandardStatus: 'Active',
    ListPrice: 80_000 + (i % 97) * 2_500,
    BedroomsTotal: 1 + (i % 5),
    LivingArea: 60 + (i % 200),
    LivingAreaUnits: 'Square Meters',
    PropertySubType: i % 3 ? 'Condominium' : 'Single Family Residence',
    Latitude: (-0.1 - (i % 113) / 1000).toFixed(5),
    Longitude: (-78.4 - (i % 127) / 1000).toFixed(5),
    UnparsedAddress: `Calle ${i}`,
    City: 'Quito',
    SubdivisionName: SECTORS[i % SECTORS.length],
    StateOrProvince: 'Pichincha',
    PublicRemarks: i % 10 ? `Departamento luminoso número ${i}` : `Casa con piscina y jardín, número ${i}`,
    PoolPrivateYN: i % 10 === 0,
    ModificationTimestamp: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
  };
}

/**
 * A table's rows in a stable order, its floating-point values to 6 decimals: sums added in another
 * order differ in their last bits (-788552.231999999 against -788552.232), and every coordinate here
 * has 3.
 */
async function table(db: Database, name: string): Promise<string> {
  const columns = await db.admin.query<{ column_name: string; data_type: string }>(
    "select column_name, data_type from information_schema.columns where table_schema = 'internal' and table_name = $1 order by ordinal_position",
    [name],
  );
  const list = columns
    .map((c) =>
      c.data_type === 'double precision' ? `round(${c.column_name}::numeric, 6) as ${c.column_name}` : c.column_name,
    )
    .join(', ');
  return JSON.stringify(await db.admin.query(`select ${list} from internal.${name} order by 1, 2, 3`));
}

/** The derived tables: what the merge's upkeep leaves. */
async function derived(db: Database) {
  const rows = async (sql: string) => JSON.stringify(await db.admin.query(sql));
  return {
    cells: await table(db, 'listing_cells'),
    places: await table(db, 'places'),
    words: await rows(
      "select l.source_key, w.words::text from internal.listing_words w join internal.listings l using (id) where l.source = 'bulk' order by 1",
    ),
  };
}

describe('imports of more than 10,000 listings (PostgreSQL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-import-bulk-'));
  let bulk: { db: Database; close(): Promise<void> };
  let steps: { db: Database; close(): Promise<void> };
  beforeAll(async () => {
    [bulk, steps] = await Promise.all([migratedDatabase(), migratedDatabase()]);
    const all = Array.from({ length: COUNT }, (_, i) => record(i + 1));
    writeFileSync(join(dir, 'all.json'), JSON.stringify({ value: all }));
    writeFileSync(join(dir, 'first.json'), JSON.stringify({ value: all.slice(0, COUNT / 2) }));
    writeFileSync(join(dir, 'second.json'), JSON.stringify({ value: all.slice(COUNT / 2) }));
  }, 120_000);
  afterAll(() => stopAll(bulk, steps));

  it('leaves the same cells, places and words as statement-by-statement merges, and the search finds them', async () => {
    const source = (file: string) =>
      sourceFrom({ kind: 'reso-json', location: join(dir, file), name: 'bulk', areaUnit: 'm2' });
    const one = await runImport(bulk.db, source('all.json'), { photos: false });
    expect(one).toMatchObject({ outcome: 'done', read: COUNT, new: COUNT, quarantinedCount: 0 });
    // two halves, each below the bulk threshold; the second, a whole feed without the first half,
    // would withdraw it: more than the share, so it is held back and the first half stays
    const a = await runImport(steps.db, source('first.json'), { photos: false });
    expect(a).toMatchObject({ outcome: 'done', new: COUNT / 2 });
    const b = await runImport(steps.db, source('second.json'), { photos: false });
    expect(b).toMatchObject({ outcome: 'held', new: COUNT / 2, withdrawn: 0, held: COUNT / 2 });
    const [x, y] = await Promise.all([derived(bulk.db), derived(steps.db)]);
    expect(JSON.parse(x.words)).toHaveLength(COUNT);
    expect(x.cells).toBe(y.cells);
    expect(x.places).toBe(y.places);
    expect(x.words).toBe(y.words);
    // the words the merge computed for all its listings at once (in parallel) are each listing's text's
    for (const db of [bulk.db, steps.db]) expect((await db.admin.query<{ n: number }>(WORDS_OFF_RULE))[0]?.n).toBe(0);
    // and the search reads them: a sector with its count, a word
    const [place] = await bulk.db.admin.query<{ listings: number }>(
      "select listings from internal.places where kind = 'sector' and name = 'Cumbayá'",
    );
    expect(Number(place?.listings)).toBe(COUNT / SECTORS.length);
    const [{ n } = { n: 0 }] = await bulk.db.admin.query<{ n: number }>(
      "select count(*)::int as n from internal.listing_words w where w.words @@ public.words_query('piscina')",
    );
    expect(Number(n)).toBe(COUNT / 10);
  }, 240_000);
});
