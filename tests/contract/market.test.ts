/**
 * The market index (docs/market.md) as the public key reads it: the figures public.market_index
 * answers are the ones the rule in docs/market.md gives, computed here again in SQL of our own
 * (written from the page's words, apart from supabase/schemas/25_market.sql), for three places and
 * types, the last full month and one a year before; a month that stands on too few listings offers
 * its parent's figure and says whose; the index follows a listing that leaves the market.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { formatCount, formatPrice } from '../../core/protocol/format.ts';
import { KNOWN_TYPES } from '../../core/protocol/listing.ts';
import { pricePerM2, typeGroupOf } from '../../core/protocol/market.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { stopAll } from '../support/stop-all.ts';

type Figure = { month: string; path: string; listings: number; median: number; p25: number; p75: number; new_listings: number; price_cuts: number; median_days: number };

/**
 * The rule of docs/market.md, written again: the listings of `place` (a path) and `group` on the
 * market in the month starting `month`, each at its price at the month's end (or when it went off)
 * per m² of its lot (land) or its built area, outliers of its city and group over the 25 months
 * out; their count and median. Each month's end is the next month's start, or now.
 */
const RULE = `
with recursive periods as (
  select (date_trunc('month', now()) - make_interval(months => n))::date as start
    from generate_series(0, 24) n
), spans as (
  select p.start, least((p.start + interval '1 month'), now()) as finish from periods p
), listing_months as (
  select sp.start, sp.finish, l.id, l.city_slug, l.state_slug, l.sector_slug, l.property_type, l.price, l.lot_size, l.square_feet,
         (select s.off_at from internal.listing_spells s
           where s.listing_id = l.id and s.on_at < sp.finish and (s.off_at is null or s.off_at >= sp.start)
           order by s.on_at desc limit 1) as off_at
    from spans sp
    join internal.listings l on l.country_code = 'EC'
   where exists (select 1 from internal.listing_spells s where s.listing_id = l.id and s.on_at < sp.finish and (s.off_at is null or s.off_at >= sp.start))
), valued as (
  select lm.*,
         case when lm.property_type in ('office', 'business_premises', 'commercial_building') then 'commercial'
              when lm.property_type in ('house', 'apartment', 'land') then lm.property_type end as grp,
         case when lm.property_type = 'land' and coalesce(lm.lot_size, 0) > 0 then lm.lot_size else lm.square_feet end as m2,
         coalesce(
           (select c.new_price from internal.listing_price_changes c where c.listing_id = lm.id and c.changed_at <= least(lm.finish, coalesce(lm.off_at, lm.finish)) order by c.changed_at desc, c.id desc limit 1),
           (select c.old_price from internal.listing_price_changes c where c.listing_id = lm.id and c.changed_at > least(lm.finish, coalesce(lm.off_at, lm.finish)) order by c.changed_at, c.id limit 1),
           lm.price
         ) as asked
    from listing_months lm
), per_m2 as (
  select v.*, v.asked / v.m2 as usd from valued v where v.grp is not null and v.m2 >= 15 and v.asked > 0 and v.city_slug <> '' and v.state_slug <> ''
), limits as (
  select city_slug, grp, percentile_cont(0.02) within group (order by usd) as lo, percentile_cont(0.98) within group (order by usd) as hi
    from per_m2 group by city_slug, grp
)
select count(*)::int as listings, percentile_cont(0.5) within group (order by u.usd) as median
  from per_m2 u join limits b on b.city_slug = u.city_slug and b.grp = u.grp
 where u.usd >= b.lo and u.usd <= b.hi
   and u.start = $3::date
   and ($2 = 'all' or u.grp = $2)
   and case
         when $1 = 'ecuador' then true
         when $1 like 'provincia/%' then u.state_slug = substr($1, 11)
         when $1 like '%/%' then u.city_slug || '/' || u.sector_slug = $1
         else u.city_slug = $1
       end`;

describe('the market index (docs/market.md)', () => {
  let server: TestServer;
  let rest: PostgrestClient;
  beforeAll(async () => {
    server = await startTestServer('postgres');
    await server.ready;
    rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'anon-key' } });
  }, 240_000);
  afterAll(() => stopAll(server));

  const ours = async (place: string, group: string, month: string) => {
    const [row] = await server.sql<{ listings: number; median: string | null }>(RULE, [place, group, month]);
    return { listings: Number(row?.listings ?? 0), median: row?.median === null || row?.median === undefined ? null : Number(row.median) };
  };
  const index = async (place: string, group: string) => {
    const { data, error } = await rest.rpc('market_index', { place, type_group: group, months: 25 });
    expect(error).toBeNull();
    return (data ?? []) as Figure[];
  };
  const monthsAgo = (n: number) => {
    const d = new Date();
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1)).toISOString().slice(0, 10);
  };

  it('answers for three places and types, last month and a year before, the figures the written rule gives, and the count they stand on', async () => {
    const [big] = await server.sql<{ city: string; sector: string }>(
      "select city_slug as city, sector_slug as sector from internal.listings where country_code = 'EC' and status = '1' and sector_slug <> '' group by 1, 2 order by count(*) desc, 1, 2 limit 1",
    );
    const cases: Array<[string, string]> = [
      ['ecuador', 'all'],
      [String(big?.city), 'apartment'],
      ['provincia/guayas', 'house'],
    ];
    let compared = 0;
    for (const [place, group] of cases) {
      const answer = await index(place, group);
      for (const month of [monthsAgo(1), monthsAgo(13)]) {
        const mine = await ours(place, group, month);
        const row = answer.find((r) => String(r.month).slice(0, 10) === month);
        if (mine.listings < 8) {
          expect(row?.path ?? null, `${place} ${group} ${month}`).not.toBe(place);
          continue;
        }
        expect(row, `${place} ${group} ${month}`).toBeDefined();
        expect(row?.path).toBe(place);
        expect(row?.listings, `${place} ${group} ${month}`).toBe(mine.listings);
        expect(Number(row?.median)).toBeCloseTo(mine.median as number, 2);
        compared++;
      }
    }
    // the seed gives each of these enough listings: most comparisons are of figures, not of absences
    expect(compared).toBeGreaterThanOrEqual(4);
  });

  it("a place's report page shows last month's figure the rule gives and the count it stands on, in both languages; a place without a report is a 404", async () => {
    const [big] = await server.sql<{ city: string }>("select city_slug as city from internal.listings where country_code = 'EC' and status = '1' group by 1 order by count(*) desc limit 1");
    for (const place of ['ecuador', String(big?.city), 'provincia/guayas']) {
      const mine = await ours(place, 'all', monthsAgo(1));
      for (const prefix of ['', '/es']) {
        const res = await fetch(`${server.url}${prefix}/market${place === 'ecuador' ? '' : `/${place}`}`);
        expect(res.status, place).toBe(200);
        const html = await res.text();
        const figure = /<p class="market__figure"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
        expect(figure, place).toBe(`${formatPrice(mine.median)}/m²`);
        expect(html).toContain(prefix ? `De ${formatCount(mine.listings)} anuncios` : `From ${formatCount(mine.listings)} listings`);
      }
    }
    expect((await fetch(`${server.url}/market/atlantis`)).status).toBe(404);
  });

  it("a month of too few listings offers its parent's figure, and says whose", async () => {
    const [small] = await server.sql<{ path: string; parent: string; month: string }>(
      "select path, parent, month::text as month from internal.market_index where kind = 'sector' and type_group = 'all' and listings < 8 and month < date_trunc('month', now()) order by listings desc, path, month limit 1",
    );
    expect(small).toBeDefined();
    const answer = await index(small!.path, 'all');
    const row = answer.find((r) => String(r.month).slice(0, 10) === small!.month);
    const parent = await ours(small!.parent, 'all', small!.month);
    expect(row?.path).toBe(small!.parent);
    expect(row?.listings).toBe(parent.listings);
    expect(Number(row?.median)).toBeCloseTo(parent.median as number, 2);
  });

  it('ranks the cities of Ecuador by last month, each with its figure of a year before', async () => {
    const { data, error } = await rest.rpc('market_ranking', { place: 'ecuador', type_group: 'all', kind: 'city' });
    expect(error).toBeNull();
    const rows = data as Array<{ path: string; listings: number; median: number; median_year_before: number | null }>;
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.map((r) => Number(r.median))).toEqual([...rows.map((r) => Number(r.median))].sort((a, b) => b - a));
    const first = rows[0]!;
    const mine = await ours(first.path, 'all', monthsAgo(1));
    expect(first.listings).toBe(mine.listings);
    expect(Number(first.median)).toBeCloseTo(mine.median as number, 2);
  });

  it('follows the market: a listing withdrawn ends its time on the market, relisted it starts another; the next index counts it so', async () => {
    const [l] = await server.sql<{ id: string }>("select id::text as id from internal.listings where country_code = 'EC' and status = '1' order by id limit 1");
    await server.sql("update internal.listings set status = '0' where id = $1", [l!.id]);
    let spells = await server.sql<{ off_at: string | null }>('select off_at from internal.listing_spells where listing_id = $1 order by on_at', [l!.id]);
    expect(spells.at(-1)?.off_at).not.toBeNull();
    await server.sql("update internal.listings set status = '1' where id = $1", [l!.id]);
    spells = await server.sql<{ off_at: string | null }>('select off_at from internal.listing_spells where listing_id = $1 order by on_at', [l!.id]);
    expect(spells.length).toBeGreaterThanOrEqual(2);
    expect(spells.at(-1)?.off_at).toBeNull();
    // this month's new listings count it (it came on the market again now)
    const before = (await index('ecuador', 'all')).at(-1)?.new_listings ?? 0;
    expect(await server.refreshMarket()).toBeGreaterThan(0);
    const after = (await index('ecuador', 'all')).at(-1)?.new_listings ?? 0;
    expect(after).toBeGreaterThanOrEqual(before);
    const mine = await ours('ecuador', 'all', monthsAgo(0));
    expect((await index('ecuador', 'all')).at(-1)?.listings).toBe(mine.listings);
  });

  it("the type groups and a listing's price per m² are the SQL rule's, read once in core/protocol/market.ts for the listing page and the detail", async () => {
    for (const type of [...KNOWN_TYPES, 'castle', '']) {
      const [row] = await server.sql<{ g: string | null }>('select internal.market_type_group($1) as g', [type]);
      expect(typeGroupOf(type), type).toBe(row?.g ?? null);
    }
    expect(pricePerM2({ price: 300_000, area: 150, lot: 500, propertyType: 'house' })).toBe(2000);
    expect(pricePerM2({ price: 100_000, area: 0, lot: 1000, propertyType: 'land' })).toBe(100);
    expect(pricePerM2({ price: 100_000, area: 10, lot: 0, propertyType: 'apartment' })).toBeNull();
  });

  it('the hourly refresh of the last two months writes what a whole rebuild writes for them, and leaves the months before alone', async () => {
    const snapshot = () =>
      server.sql<Record<string, unknown>>(
        'select path, type_group, month::text, listings, median::text, p25::text, p75::text, new_listings, price_cuts, median_days from internal.market_index order by path, type_group, month',
      );
    await server.sql('select internal.rebuild_market_index()');
    const whole = await snapshot();
    await server.sql("select internal.rebuild_market_index((date_trunc('month', now()) - interval '1 month')::date)");
    expect(await snapshot()).toEqual(whole);
  });

  it('refuses what it cannot answer with a clear error, in PostgREST shape', async () => {
    for (const args of [{ place: 'quito', type_group: 'castle' }, { place: 'quito', months: 0 }, { place: 'x'.repeat(200) }]) {
      const { error } = await rest.rpc('market_index', args);
      expect(error?.code, JSON.stringify(args)).toBe('22023');
    }
    const { data } = await rest.rpc('market_index', { place: 'no-such-place' });
    expect(data).toEqual([]);
  });
});
