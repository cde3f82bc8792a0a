/**
 * The map's kept cells (internal.listing_cells, docs/decisions.md #20) always equal what counting
 * the listings gives, after the seed and after every kind of change; and the clusters function
 * answers the same from the kept cells as from counting the listings.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { seededDatabase } from '../support/seeded-database.ts';

type Cell = {
  level: number;
  cx: number;
  cy: number;
  n: number;
  n_approximate: number;
  sum_lat: number;
  sum_lng: number;
  lat_min: number;
  lat_max: number;
  lng_min: number;
  lng_max: number;
  price_min: string | null;
  price_max: string | null;
  id_min: string;
};

/** Every level's cells counted from the listings, as the oracle. */
const COUNTED = `
  select g.level, floor(l.map_x * 2 ^ g.level)::int as cx, floor(l.map_y * 2 ^ g.level)::int as cy, count(*)::int as n,
         (count(*) filter (where l.map_approximate))::int as n_approximate, sum(l.map_lat) as sum_lat, sum(l.map_lng) as sum_lng,
         min(l.map_lat) as lat_min, max(l.map_lat) as lat_max, min(l.map_lng) as lng_min, max(l.map_lng) as lng_max,
         min(l.price)::text as price_min, max(l.price)::text as price_max, min(l.id)::text as id_min
  from internal.listings l, generate_series(2, 14) g(level)
  where l.country_code = 'EC' and l.status = '1' and l.operation = 'sale'
  group by 1, 2, 3 order by 1, 2, 3`;
const KEPT = `select level, cx, cy, n, n_approximate, sum_lat, sum_lng, lat_min, lat_max, lng_min, lng_max, price_min::text as price_min, price_max::text as price_max, id_min::text as id_min from internal.listing_cells order by 1, 2, 3`;

async function expectKeptEqualsCounted(db: Database): Promise<number> {
  const [kept, counted] = await Promise.all([db.admin.query<Cell>(KEPT), db.admin.query<Cell>(COUNTED)]);
  expect(kept.length).toBe(counted.length);
  const exact = (c: Cell) =>
    [
      c.level,
      c.cx,
      c.cy,
      c.n,
      c.n_approximate,
      c.lat_min,
      c.lat_max,
      c.lng_min,
      c.lng_max,
      c.price_min,
      c.price_max,
      c.id_min,
    ]
      .map(String)
      .join('|');
  expect(kept.map(exact)).toEqual(counted.map(exact));
  // sums are added child by child: equal up to rounding
  kept.forEach((c, i) => {
    expect(Number(c.sum_lat)).toBeCloseTo(Number(counted[i]?.sum_lat), 6);
    expect(Number(c.sum_lng)).toBeCloseTo(Number(counted[i]?.sum_lng), 6);
  });
  return kept.length;
}

describe.each(['postgres'] as const)('the kept map cells on %s', (kind) => {
  const db = seededDatabase(kind, 1800);

  it('equal the counted cells after the seed', async () => {
    expect(await expectKeptEqualsCounted(db())).toBeGreaterThan(100);
  });

  it('stay equal after inserts, price changes, moves, deactivation and deletes, one statement at a time and many at once', async () => {
    await db().admin.query(
      "insert into internal.listings (title, city, price, geo_lat, geo_lon) values ('cells a', 'Quito', 10, '-0.2', '-78.5'), ('cells b', 'Loja', null, null, null), ('cells c', 'Nowhere', 5, null, null)",
    );
    await expectKeptEqualsCounted(db());
    await db().admin.query("update internal.listings set price = 1 where title = 'cells a'");
    await db().admin.query("update internal.listings set geo_lat = '-2.9', geo_lon = '-79.0' where title = 'cells a'");
    await db().admin.query("update internal.listings set status = '0' where title = 'cells b'");
    // a listing put up for rent leaves the kept cells (a search without an operation is of sales), and back
    await db().admin.query("update internal.listings set operation = 'rent' where title = 'cells c'");
    await expectKeptEqualsCounted(db());
    await db().admin.query("update internal.listings set operation = 'sale' where title = 'cells c'");
    await db().admin.query("update internal.listings set description = 'unchanged position' where title = 'cells c'");
    await expectKeptEqualsCounted(db());
    await db().admin.query("update internal.listings set price = price * 0.9 where city ilike '%cuenca%'");
    await db().admin.query(
      "delete from internal.listings where title like 'cells %' or id in (select id from internal.listings where city ilike '%manta%' limit 20)",
    );
    await expectKeptEqualsCounted(db());
  });

  it('answer the clusters as counting does, at every zoom the cells are kept for', async () => {
    type Row = {
      count: string;
      lat: number;
      lng: number;
      lat_min: number;
      lng_max: number;
      price_from: string | null;
      price_to: string | null;
      id: string | null;
      approximate: boolean;
    };
    const views: Array<[number, number[]]> = [
      [0, [-180, -85, 180, 85]],
      [2, [-180, -85, 180, 85]],
      [7, [-81.5625, -5.6159, -75.9375, 1.4061]],
      [11, [-78.6, -0.35, -78.3, -0.05]],
      [12, [-79.1, -3.0, -78.9, -2.8]],
    ];
    const shape = (rows: Row[]) =>
      rows
        .map((r) =>
          [
            r.count,
            Number(r.lat).toFixed(9),
            Number(r.lng).toFixed(9),
            r.lat_min,
            r.lng_max,
            r.price_from,
            r.price_to,
            r.id,
            r.approximate,
          ]
            .map(String)
            .join('|'),
        )
        .sort();
    for (const [zoom, view] of views) {
      const args = [zoom, ...view];
      const kept = await db().anon.query<Row>(
        'select * from public.listing_clusters(zoom => $1, view_west => $2, view_south => $3, view_east => $4, view_north => $5)',
        args,
      );
      // every listing's folded city contains '': the same listings, counted instead of read from the kept cells
      const counted = await db().anon.query<Row>(
        `select * from public.listing_clusters(zoom => $1, view_west => $2, view_south => $3, view_east => $4, view_north => $5, filters => '{"city":""}')`,
        args,
      );
      expect(kept.length, `zoom ${zoom}`).toBeGreaterThan(0);
      expect(shape(kept), `zoom ${zoom}`).toEqual(shape(counted));
    }
    const all = await db().anon.query<{ n: string }>(
      'select sum(count)::text as n from public.listing_clusters(zoom => 2)',
    );
    const total = await db().anon.query<{ n: string }>(
      "select count(*)::text as n from public.listings where country_code = 'EC' and operation = 'sale'",
    );
    expect(all[0]?.n).toBe(total[0]?.n);
  });
});
