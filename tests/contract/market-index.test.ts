/**
 * The market index (docs/market.md) as the public key reads it: the figures public.market_index
 * answers are the ones the rule in docs/market.md gives, computed again in SQL of our own
 * (tests/support/market-rule.ts), for three places and types, the last full month and one a year
 * before; a place's report page says them; a month that stands on too few listings offers its
 * parent's figure and says whose; the cities ranked; what homes rent for; the type groups and a
 * listing's price per m² as core/protocol/market.ts reads them; clear errors.
 */
import { formatCount, formatNumber, formatPrice } from '../../core/protocol/format.ts';
import { KNOWN_TYPES } from '../../core/protocol/listing.ts';
import { pricePerM2, typeGroupOf } from '../../core/protocol/market.ts';
import { describe, expect, it } from 'vitest';
import { TEAM, useDeliveries } from '../support/deliveries.ts';
import { useMarketRule } from '../support/market-rule.ts';

describe('the market index (docs/market.md): its figures', () => {
  const d = useDeliveries([], { mail: { probeMs: 200 }, alerts: { teamInbox: TEAM } });
  const { ours, index, monthsAgo } = useMarketRule(d);

  it('answers for three places and types, last month and a year before, the figures the written rule gives, and the count they stand on', async () => {
    const [big] = await d.server.sql<{ city: string; sector: string }>(
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
        expect(Number(row?.median), `${place} ${group} ${month}: the median`).toBe(mine.median);
        expect(row?.median_days, `${place} ${group} ${month}: median days on the market`).toBe(mine.medianDays);
        compared++;
      }
    }
    // the seed gives each of these enough listings: most comparisons are of figures, not of absences
    expect(compared).toBeGreaterThanOrEqual(4);
  });

  it("a place's report page shows last month's figure the rule gives and the count it stands on, in both languages; a place without a report is a 404", async () => {
    const [big] = await d.server.sql<{ city: string }>(
      "select city_slug as city from internal.listings where country_code = 'EC' and status = '1' group by 1 order by count(*) desc limit 1",
    );
    for (const place of ['ecuador', String(big?.city), 'provincia/guayas']) {
      const mine = await ours(place, 'all', monthsAgo(1));
      for (const prefix of ['', '/es']) {
        const res = await fetch(`${d.server.url}${prefix}/market${place === 'ecuador' ? '' : `/${place}`}`);
        expect(res.status, place).toBe(200);
        const html = await res.text();
        const figure = /<p class="market__figure"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
        expect(figure, place).toBe(`${formatPrice(mine.median)}/m²`);
        expect(html).toContain(
          prefix ? `De ${formatCount(mine.listings)} anuncios` : `From ${formatCount(mine.listings)} listings`,
        );
      }
    }
    expect((await fetch(`${d.server.url}/market/atlantis`)).status).toBe(404);
  });

  it("a month of too few listings offers its parent's figure, and says whose", async () => {
    const [small] = await d.server.sql<{ path: string; parent: string; month: string }>(
      "select path, parent, month::text as month from internal.market_index where kind = 'sector' and type_group = 'all' and listings < 8 and month < internal.this_month() order by listings desc, path, month limit 1",
    );
    expect(small).toBeDefined();
    const answer = await index(small!.path, 'all');
    const row = answer.find((r) => String(r.month).slice(0, 10) === small!.month);
    const parent = await ours(small!.parent, 'all', small!.month);
    expect(row?.path).toBe(small!.parent);
    expect(row?.listings).toBe(parent.listings);
    expect(Number(row?.median)).toBe(parent.median);
  });

  it('ranks the cities of Ecuador by last month, each with its figure of a year before', async () => {
    const { data, error } = await d.rest.rpc('market_ranking', { place: 'ecuador', type_group: 'all', kind: 'city' });
    expect(error).toBeNull();
    const rows = data as Array<{ path: string; listings: number; median: number; median_year_before: number | null }>;
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.map((r) => Number(r.median))).toEqual([...rows.map((r) => Number(r.median))].sort((a, b) => b - a));
    const first = rows[0]!;
    const mine = await ours(first.path, 'all', monthsAgo(1));
    expect(first.listings).toBe(mine.listings);
    expect(Number(first.median)).toBe(mine.median);
  });

  it("says what homes rent for now beside the asking prices: the median rent a month per m² and a two-bedroom flat's, as the rule written apart gives; a sector with too few rentals has its city's; the page says it", async () => {
    const RENTALS =
      "country_code = 'EC' and status = '1' and operation = 'rent' and property_type in ('house', 'quinta', 'apartment', 'suite') and square_feet >= 15 and price > 0";
    const [quito] = await d.server.sql<{ n: number; median: number; two: number | null; two_n: number }>(
      `select count(*)::int as n,
              round(percentile_cont(0.5) within group (order by (price / square_feet)::float8)::numeric, 2)::float8 as median,
              round((percentile_cont(0.5) within group (order by price::float8) filter (where bedrooms = 2 and property_type in ('apartment', 'suite')))::numeric)::float8 as two,
              (count(*) filter (where bedrooms = 2 and property_type in ('apartment', 'suite')))::int as two_n
         from internal.listings where ${RENTALS} and city_slug = 'quito'`,
    );
    expect(quito?.n).toBeGreaterThan(50);
    expect(quito?.two_n).toBeGreaterThanOrEqual(8);
    const rents = async (place: string) =>
      (
        await d.server.sql<{ r: Record<string, unknown> | null }>("select public.market_report($1) -> 'rents' as r", [
          place,
        ])
      )[0]?.r;
    expect(await rents('quito')).toMatchObject({
      path: 'quito',
      name: 'Quito',
      listings: quito?.n,
      median: quito?.median,
      two_bedroom: quito?.two,
    });
    // a sector of Quito with fewer rentals than the minimum: Quito's figures, said as Quito's
    const [few] = await d.server.sql<{ path: string }>(
      `select city_slug || '/' || sector_slug as path from internal.listings
        where country_code = 'EC' and status = '1' and city_slug = 'quito' and sector_slug <> ''
        group by 1 having count(*) filter (where ${RENTALS}) between 1 and 7 order by 1 limit 1`,
    );
    expect(few).toBeTruthy();
    expect(await rents(String(few?.path))).toMatchObject({ path: 'quito', listings: quito?.n });
    // a place without rentals anywhere near it but Ecuador: the country's
    expect((await rents('ecuador'))?.path).toBe('ecuador');
    // the report's page says them, in both languages
    const es = await (await fetch(`${d.server.url}/es/market/quito`)).text();
    expect(es).toContain('Arriendos');
    expect(es).toContain(`$${formatNumber(Number(quito?.median), 2)}/mes`);
    expect(es).toContain(`${formatPrice(quito?.two)}/mes`);
    expect(es).toContain('/es/search-properties?place=quito&amp;operation=rent');
    const en = await (await fetch(`${d.server.url}/market/quito`)).text();
    expect(en).toContain(`${formatPrice(quito?.two)}/month`);
  });

  it("the type groups and a listing's price per m² are the SQL rule's, read once in core/protocol/market.ts for the listing page and the detail", async () => {
    for (const type of [...KNOWN_TYPES, 'castle', '']) {
      const [row] = await d.server.sql<{ g: string | null }>('select internal.market_type_group($1) as g', [type]);
      expect(typeGroupOf(type), type).toBe(row?.g ?? null);
    }
    expect(pricePerM2({ price: 300_000, area: 150, lot: 500, propertyType: 'house' })).toBe(2000);
    expect(pricePerM2({ price: 100_000, area: 0, lot: 1000, propertyType: 'land' })).toBe(100);
    expect(pricePerM2({ price: 100_000, area: 10, lot: 0, propertyType: 'apartment' })).toBeNull();
  });

  it('refuses what it cannot answer with a clear error, in PostgREST shape', async () => {
    for (const args of [
      { place: 'quito', type_group: 'castle' },
      { place: 'quito', months: 0 },
      { place: 'x'.repeat(200) },
    ]) {
      const { error } = await d.rest.rpc('market_index', args);
      expect(error?.code, JSON.stringify(args)).toBe('22023');
    }
    const { data } = await d.rest.rpc('market_index', { place: 'no-such-place' });
    expect(data).toEqual([]);
  });
});
