/**
 * What helps a visitor decide (docs/product.md §2; migration 20261201000000): the listings most
 * like one (public.similar_listings) and a listing's price history and last cut
 * (public.listing_price_history, price_cut_at), as the public key calls them, on
 * PostgreSQL. The score order is checked with the score written again here, apart from the SQL.
 */
import { describe, expect, it } from 'vitest';
import { KNOWN_TYPES } from '../../core/protocol/listing.ts';
import { seededDatabase } from '../support/seeded-database.ts';
import { now as clockNow } from '../../core/clock.ts';

type Listing = {
  id: number;
  property_type: string;
  operation: string;
  price: number;
  square_feet: number | null;
  bedrooms: number | null;
  map_lat: number;
  map_lng: number;
  lat: number | null;
  lng: number | null;
  sector_slug: string | null;
  city_slug: string | null;
  status: string;
  country_code: string;
};
type History = { at: string; event: string; price: number; change: number | null };

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** how unlike `c` is `s`: km apart (capped at 40) / 4, then price, area, bedrooms, and the same sector */
function score(s: Listing, c: Listing): number {
  const km = Math.min(
    40,
    Math.hypot(
      (Number(c.lat) - s.map_lat) * 111,
      (Number(c.lng) - s.map_lng) * 111 * Math.cos((s.map_lat * Math.PI) / 180),
    ),
  );
  const area =
    Number(c.square_feet) > 0 && Number(s.square_feet) > 0
      ? Math.abs(Math.log(Number(c.square_feet) / Number(s.square_feet))) * 6
      : 1;
  return (
    km / 4 +
    Math.abs(Math.log(c.price / s.price)) * 10 +
    area +
    Math.abs(Number(c.bedrooms ?? 0) - Number(s.bedrooms ?? 0)) * 1.5 -
    (c.sector_slug === s.sector_slug && c.city_slug === s.city_slug ? 2 : 0)
  );
}

describe.each(['postgres'] as const)('deciding on a listing on %s', (kind) => {
  const db = seededDatabase(kind, 1800);
  const row = async (id: number) => {
    const [r] = await db().admin.query<Listing>(
      'select id, property_type, price::float8 as price, square_feet::float8 as square_feet, bedrooms::float8 as bedrooms, map_lat, map_lng, lat, lng, sector_slug, city_slug, status, country_code, operation from internal.listings where id = $1',
      [id],
    );
    return r as Listing;
  };

  it('the seed gives a realistic market: a tenth of the listings cut, some lately, never before they were listed', async () => {
    const [stats] = await db().admin.query<{
      active: number;
      cut: number;
      recent: number;
      early: number;
      kept: number;
    }>(`
      select count(*) filter (where status = '1')::int as active,
             count(*) filter (where status = '1' and price_cut_at is not null)::int as cut,
             count(*) filter (where status = '1' and price_cut_at > internal.now() - interval '30 days')::int as recent,
             (select count(*)::int from internal.listing_price_changes c join internal.listings l on l.id = c.listing_id where c.changed_at < l.listed_at or c.changed_at > internal.now()) as early,
             (select count(*)::int from internal.listing_price_changes) as kept
        from internal.listings where country_code = 'EC'`);
    expect(stats?.cut).toBeGreaterThan((stats?.active ?? 0) * 0.08);
    expect(stats?.cut).toBeLessThan((stats?.active ?? 0) * 0.2);
    expect(stats?.recent).toBeGreaterThan(20);
    expect(stats?.early).toBe(0);
    expect(stats?.kept).toBeGreaterThan(stats?.cut ?? 0);
  });

  it('similar listings are active, never the listing itself, of its type, within its price band, best score first', async () => {
    // two of each known type: the rare ones are walked through their own index (migration 20261202000000)
    // two of each known type and operation that has others to compare with (rentals: flats, suites, houses)
    const sample = await db().admin.query<{ id: number }>(
      `select id from (select id, row_number() over (partition by property_type, operation order by id % 97, id) as n,
                              count(*) over (partition by property_type, operation) as of_kind
                         from internal.listings where country_code = 'EC' and status = '1' and price > 0 and property_type = any($1)) s
        where n <= 2 and of_kind >= 5`,
      [[...KNOWN_TYPES]],
    );
    expect(sample.length).toBeGreaterThanOrEqual(2 * (KNOWN_TYPES.length - 2) + 6);
    let shown = 0;
    for (const { id } of sample) {
      const s = await row(id);
      const similar = await db().anon.query<{ id: number }>('select id from public.similar_listings($1, 8)', [id]);
      expect(similar.length, `listing ${id}`).toBeGreaterThan(0);
      expect(similar.length).toBeLessThanOrEqual(8);
      shown += similar.length;
      const rows = await Promise.all(similar.map((r) => row(Number(r.id))));
      const scores: number[] = [];
      for (const c of rows) {
        expect(c.id).not.toBe(id);
        expect([c.country_code, c.status]).toEqual(['EC', '1']);
        expect(c.property_type).toBe(s.property_type);
        // a sale's similar listings are sales, a rent's rents
        expect(c.operation).toBe(s.operation);
        expect(c.price).toBeGreaterThanOrEqual(s.price * 0.7 - 1e-6);
        expect(c.price).toBeLessThanOrEqual(s.price * 1.4 + 1e-6);
        scores.push(score(s, c));
      }
      for (let i = 1; i < scores.length; i++)
        expect(scores[i], `listing ${id}, place ${i}`).toBeGreaterThanOrEqual((scores[i - 1] as number) - 1e-9);
    }
    expect(shown).toBeGreaterThan(sample.length * 6);
  });

  it('every known type (core/protocol/listing.ts) has its own index for the nearest of its type, and no index names another', async () => {
    const indexes = await db().admin.query<{ name: string; def: string }>(
      "select indexname as name, indexdef as def from pg_indexes where schemaname = 'internal' and indexname like 'listings\\_near\\_%'",
    );
    const named = indexes.map((i) => /property_type = '([a-z_]+)'/.exec(i.def)?.[1]).sort();
    expect(named).toEqual([...KNOWN_TYPES].sort());
    for (const i of indexes) expect(i.def, i.name).toMatch(/USING gist \(location\)/);
  });

  it('a listing that left the market still has similar ones (its 410 page), and a wrong count is refused', async () => {
    const [{ id } = { id: 0 }] = await db().admin.query<{ id: number }>(
      "select id from internal.listings where country_code = 'EC' and status = '1' and operation = 'sale' and property_type = 'house' and price > 0 order by id desc limit 1",
    );
    await db().admin.query("update internal.listings set status = '3' where id = $1", [id]);
    const similar = await db().anon.query<{ id: number }>('select id from public.similar_listings($1, 4)', [id]);
    expect(similar.length).toBe(4);
    expect(similar.map((r) => Number(r.id))).not.toContain(id);
    await db().admin.query("update internal.listings set status = '1' where id = $1", [id]);
    expect(await db().anon.query('select id from public.similar_listings(999999999, 8)')).toEqual([]);
    await expect(db().anon.query('select id from public.similar_listings($1, 0)', [id])).rejects.toThrow(
      /max_results must be 1 to 24/,
    );
  });

  it("after two cuts and a rise the history lists each (newest first) under the listing, and the last cut is the badge's until a rise", async () => {
    const [l = { id: 0, price: 0 }] = await db().admin.query<{ id: number; price: number }>(
      "select l.id, l.price::float8 as price from internal.listings l where country_code = 'EC' and status = '1' and price > 100000 and not exists (select 1 from internal.listing_price_changes c where c.listing_id = l.id) order by id limit 1",
    );
    const history = async () =>
      (
        await db().anon.query<History>(
          'select at, event, price::float8 as price, change::float8 as change from public.listing_price_history($1)',
          [l.id],
        )
      ).map((h) => ({
        ...h,
        price: num(h.price),
        change: num(h.change),
      }));
    const view = async () =>
      (
        await db().anon.query<{ price_cut_at: string | null; price_before_cut: number | null }>(
          'select price_cut_at, price_before_cut::float8 as price_before_cut from public.listings where id = $1',
          [l.id],
        )
      )[0];

    expect((await history()).map((h) => [h.event, h.price, h.change])).toEqual([['listed', l.price, null]]);
    expect(await view()).toEqual({ price_cut_at: null, price_before_cut: null });

    await db().admin.query('update internal.listings set price = price - 10000 where id = $1', [l.id]);
    await db().admin.query('update internal.listings set price = price - 5000 where id = $1', [l.id]);
    expect((await history()).map((h) => [h.event, h.price, h.change])).toEqual([
      ['reduced', l.price - 15000, -5000],
      ['reduced', l.price - 10000, -10000],
      ['listed', l.price, null],
    ]);
    const cut = await view();
    expect(cut?.price_before_cut).toBe(l.price - 10000);
    expect(clockNow() - Date.parse(String(cut?.price_cut_at))).toBeLessThan(60_000);

    // a change of something else keeps the cut; a rise ends it
    await db().admin.query("update internal.listings set description = 'repainted' where id = $1", [l.id]);
    expect((await view())?.price_before_cut).toBe(l.price - 10000);
    await db().admin.query('update internal.listings set price = price + 2000 where id = $1', [l.id]);
    expect((await history())[0]).toMatchObject({ event: 'increased', price: l.price - 13000, change: 2000 });
    expect(await view()).toEqual({ price_cut_at: null, price_before_cut: null });

    // not for a listing that is not public
    await db().admin.query("update internal.listings set status = '0' where id = $1", [l.id]);
    expect(await history()).toEqual([]);
    await db().admin.query("update internal.listings set status = '1' where id = $1", [l.id]);
  });
});
