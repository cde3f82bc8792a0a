/**
 * The market index (docs/market.md) as the public key reads it: the figures public.market_index
 * answers are the ones the rule in docs/market.md gives, computed here again in SQL of our own
 * (written from the page's words, apart from supabase/schemas/2[5-8]_market*.sql), for three places and
 * types, the last full month and one a year before; a month that stands on too few listings offers
 * its parent's figure and says whose; the index follows a listing that leaves the market. Following
 * a market: double opt-in, the monthly report's mail with the rule's figure, one-click unsubscribe,
 * through a real SMTP server.
 */
import { formatCount, formatNumber, formatPrice } from '../../core/protocol/format.ts';
import { formatMonth } from '../../core/protocol/market.ts';
import { ecuadorMonth } from '../../core/protocol/calendar.ts';
import { now as clockNow } from '../../core/clock.ts';
import { KNOWN_TYPES } from '../../core/protocol/listing.ts';
import { pricePerM2, typeGroupOf } from '../../core/protocol/market.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE, TEAM, useDeliveries } from '../support/deliveries.ts';
import { type ReceivedMail } from '../support/smtp.ts';
import { until } from '../support/until.ts';

type Figure = {
  month: string;
  path: string;
  listings: number;
  median: number;
  p25: number;
  p75: number;
  new_listings: number;
  price_cuts: number;
  median_days: number;
};

/** When this month began: at midnight in Ecuador (docs/market.md: the months are Ecuador's), as an instant. */
const MONTH_START = "(date_trunc('month', internal.now() at time zone 'America/Guayaquil') at time zone 'America/Guayaquil')";

/**
 * The rule of docs/market.md, written again: the listings on the market in each of the 25 months,
 * each at its price at the month's end (or when it went off) per m² of its lot (land) or its built
 * area, outliers of its city and group over the 25 months out (RULE_ROWS, kept in a table of the
 * test's own while the listings stay as they are: it costs more than a second to work out), and of
 * those, the listings of `place` (a path) and `group` in the month starting `month`: their count
 * and median (RULE). Each month's end is the next month's start, or now.
 */
const RULE_ROWS = `
with recursive periods as (
  select ${MONTH_START} - make_interval(months => n) as start_at
    from generate_series(0, 24) n
), spans as (
  select (p.start_at at time zone 'America/Guayaquil')::date as start, p.start_at, least(p.start_at + interval '1 month', internal.now()) as finish from periods p
), listing_months as (
  select sp.start, sp.finish, l.id, l.city_slug, l.state_slug, l.sector_slug, l.property_type, l.price, l.lot_size, l.square_feet, s.on_at, s.off_at
    from spans sp
    join internal.listings l on l.country_code = 'EC' and l.operation = 'sale'
    -- its time on the market then (the last to begin, when it was relisted within the month)
    cross join lateral (select s.on_at, s.off_at from internal.listing_spells s
                         where s.listing_id = l.id and s.on_at < sp.finish and (s.off_at is null or s.off_at >= sp.start_at)
                         order by s.on_at desc limit 1) s
), valued as (
  select lm.*,
         case when lm.property_type in ('office', 'business_premises', 'commercial_building') then 'commercial'
              when lm.property_type in ('house', 'apartment', 'land') then lm.property_type
              when lm.property_type = 'suite' then 'apartment' when lm.property_type = 'quinta' then 'house' end as grp,
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
select u.start, u.grp, u.state_slug, u.city_slug, u.sector_slug, u.usd, u.on_at, u.off_at, u.finish
  from per_m2 u join limits b on b.city_slug = u.city_slug and b.grp = u.grp
 where u.usd >= b.lo and u.usd <= b.hi`;

/** What the rule's rows stand on: when any listing, time on the market or price change is added, changed or taken out, this changes. */
const RULE_SOURCES = `
select (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from internal.listings) || '/' ||
       (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from internal.listing_spells) || '/' ||
       (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from internal.listing_price_changes) as v`;

const RULE = `
select count(*)::int as listings,
       -- to the cent, as the index publishes it
       round(percentile_cont(0.5) within group (order by u.usd)::numeric, 2) as median,
       -- the median days on the market at the month's end (or when it went off), to the nearest day
       round(percentile_cont(0.5) within group (order by extract(epoch from least(u.finish, coalesce(u.off_at, u.finish)) - u.on_at)::double precision / 86400))::int as median_days
  from internal.test_rule_rows u
 where u.start = $3::date
   and ($2 = 'all' or u.grp = $2)
   and case
         when $1 = 'ecuador' then true
         when $1 like 'provincia/%' then u.state_slug = substr($1, 11)
         when $1 like '%/%' then u.city_slug || '/' || u.sector_slug = $1
         else u.city_slug = $1
       end`;

describe('the market index (docs/market.md)', () => {
  const d = useDeliveries([], { mail: { probeMs: 200 }, alerts: { teamInbox: TEAM } });

  let rowsOf: string | undefined;
  const ours = async (place: string, group: string, month: string) => {
    const [sources] = await d.server.sql<{ v: string }>(RULE_SOURCES);
    if (sources?.v !== rowsOf) {
      await d.server.sql('drop table if exists internal.test_rule_rows');
      await d.server.sql(`create table internal.test_rule_rows as ${RULE_ROWS}`);
      rowsOf = sources?.v;
    }
    const [row] = await d.server.sql<{ listings: number; median: string | null; median_days: number | null }>(RULE, [place, group, month]);
    return {
      listings: Number(row?.listings ?? 0),
      median: row?.median === null || row?.median === undefined ? null : Number(row.median),
      medianDays: row?.median_days ?? null,
    };
  };
  const index = async (place: string, group: string) => {
    const { data, error } = await d.rest.rpc('market_index', { place, type_group: group, months: 25 });
    expect(error).toBeNull();
    return (data ?? []) as Figure[];
  };
  // the months as the clock the test set reads them (tests/support/suite-clock.mjs), in Ecuador
  let months: string[] = [];
  beforeAll(async () => {
    months = (
      await d.server.sql<{ m: string }>(
        `select to_char(${MONTH_START} at time zone 'America/Guayaquil' - make_interval(months => n), 'YYYY-MM-DD') as m from generate_series(0, 24) n order by n`,
      )
    ).map((r) => r.m);
  });
  const monthsAgo = (n: number) => months[n] as string;

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
        expect(html).toContain(prefix ? `De ${formatCount(mine.listings)} anuncios` : `From ${formatCount(mine.listings)} listings`);
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

  it('follows the market: a listing withdrawn ends its time on the market, relisted it starts another; the next index counts it so', async () => {
    const [l] = await d.server.sql<{ id: string }>(
      "select id::text as id from internal.listings where country_code = 'EC' and status = '1' order by id limit 1",
    );
    await d.server.sql("update internal.listings set status = '0' where id = $1", [l!.id]);
    let spells = await d.server.sql<{ off_at: string | null }>('select off_at from internal.listing_spells where listing_id = $1 order by on_at', [l!.id]);
    expect(spells.at(-1)?.off_at).not.toBeNull();
    await d.server.sql("update internal.listings set status = '1' where id = $1", [l!.id]);
    spells = await d.server.sql<{ off_at: string | null }>('select off_at from internal.listing_spells where listing_id = $1 order by on_at', [l!.id]);
    expect(spells.length).toBeGreaterThanOrEqual(2);
    expect(spells.at(-1)?.off_at).toBeNull();
    // this month's new listings count it (it came on the market again now)
    const before = (await index('ecuador', 'all')).at(-1)?.new_listings ?? 0;
    expect(await d.server.refreshMarket()).toBeGreaterThan(0);
    const after = (await index('ecuador', 'all')).at(-1)?.new_listings ?? 0;
    expect(after).toBeGreaterThanOrEqual(before);
    const mine = await ours('ecuador', 'all', monthsAgo(0));
    expect((await index('ecuador', 'all')).at(-1)?.listings).toBe(mine.listings);
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
      (await d.server.sql<{ r: Record<string, unknown> | null }>("select public.market_report($1) -> 'rents' as r", [place]))[0]?.r;
    expect(await rents('quito')).toMatchObject({ path: 'quito', name: 'Quito', listings: quito?.n, median: quito?.median, two_bedroom: quito?.two });
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

  it('counts a listing in the months its times on the market span, at their edges: on or off at a month’s first instant, relisted within a month, listed for later', async () => {
    // ten flats of one price and size in a city of their own, their times on the market written here
    const ids = (
      await d.server.sql<{ id: string }>(
        `select l.id::text as id from internal.listings l
          where l.country_code = 'EC' and l.operation = 'sale' and l.property_type = 'apartment' and coalesce(l.state_slug, '') <> ''
            and not exists (select 1 from internal.listing_price_changes c where c.listing_id = l.id)
          order by l.id limit 10`,
      )
    ).map((r) => r.id);
    expect(ids).toHaveLength(10);
    await d.server.sql("update internal.listings set city = 'Borde', sector = null, price = 100000, square_feet = 100 where id = any($1::bigint[])", [ids]);
    await d.server.sql('delete from internal.listing_price_changes where listing_id = any($1::bigint[])', [ids]);
    await d.server.sql('delete from internal.listing_spells where listing_id = any($1::bigint[])', [ids]);
    // m0 this month's first instant, m1 and m2 the months before
    await d.server.sql(
      `with m as (select ${MONTH_START} as m0, ${MONTH_START} - interval '1 month' as m1, ${MONTH_START} - interval '2 months' as m2)
       insert into internal.listing_spells (listing_id, on_at, off_at)
       select ($1::bigint[])[s.n], s.on_at, s.off_at from m, lateral (values
         (1, m2 + interval '3 days', null::timestamptz),
         (2, m2 + interval '3 days', m1),
         (3, m2 - interval '10 days', m1 - interval '1 second'),
         (4, m2 + interval '1 day', m1 + interval '5 days'), (4, m1 + interval '20 days', null),
         (5, internal.now() + interval '1 hour', null),
         (6, m1 + interval '2 days', internal.now() - interval '1 hour'), (6, internal.now() + interval '1 hour', null),
         (7, m0 - interval '1 second', null),
         (8, m0, null),
         (9, internal.now() - interval '30 months', m2 + interval '1 second'),
         (10, internal.now() - interval '30 months', internal.now() - interval '26 months')
       ) s(n, on_at, off_at)`,
      [ids],
    );
    await d.server.sql('select internal.rebuild_market_index()');
    const counted = await d.server.sql<{ month: string; listings: number }>(
      "select month::text as month, listings from internal.market_index where path = 'borde' and type_group = 'all' order by month",
    );
    const at = (month: string) => counted.find((r) => r.month === month)?.listings ?? 0;
    // two months ago: 1, 2, 3, the first time of 4, and 9; last month: 1, 2, the second time of 4, 6 and 7; this month: 1, 4, 6 (relisted later), 7 and 8
    expect([at(monthsAgo(2)), at(monthsAgo(1)), at(monthsAgo(0))]).toEqual([5, 5, 5]);
    for (const month of [monthsAgo(24), monthsAgo(3), monthsAgo(2), monthsAgo(1), monthsAgo(0)]) {
      expect(at(month), month).toBe((await ours('borde', 'all', month)).listings);
    }
    expect(at(monthsAgo(3))).toBe(2);
  });

  it("refuses a listing's time on the market that is no time ('infinity'), so that no rebuild meets one", async () => {
    const [listing] = await d.server.sql<{ id: string }>("select id::text as id from internal.listings where country_code = 'EC' order by id limit 1");
    for (const at of ['infinity', '-infinity']) {
      await expect(d.server.sql('update internal.listings set listed_at = $2::timestamptz where id = $1', [listing?.id, at]), at).rejects.toThrow(
        /listings_listed_at_check/,
      );
    }
    expect(await d.server.sql('select internal.rebuild_market_index() > 0 as built')).toEqual([{ built: true }]);
  });

  it('the hourly refresh of the last two months writes what a whole rebuild writes for them, and leaves the months before alone', async () => {
    const snapshot = (table: string) =>
      d.server.sql<Record<string, unknown>>(
        `select path, type_group, month::text, listings, median::text, p25::text, p75::text, new_listings, price_cuts, median_days from ${table} order by path, type_group, month`,
      );
    // both in one transaction, so at one internal.now(): this month's days on the market grow by the second
    await d.server.sql('create table internal.test_whole_index (like internal.market_index)');
    await d.server.sql(`do $$ begin
      perform internal.rebuild_market_index();
      insert into internal.test_whole_index select * from internal.market_index;
      perform internal.rebuild_market_index((internal.this_month() - interval '1 month')::date);
    end $$`);
    const whole = await snapshot('internal.test_whole_index');
    await d.server.sql('drop table internal.test_whole_index');
    expect(whole.length).toBeGreaterThan(1000);
    expect(await snapshot('internal.market_index')).toEqual(whole);
  });

  it('refuses what it cannot answer with a clear error, in PostgREST shape', async () => {
    for (const args of [{ place: 'quito', type_group: 'castle' }, { place: 'quito', months: 0 }, { place: 'x'.repeat(200) }]) {
      const { error } = await d.rest.rpc('market_index', args);
      expect(error?.code, JSON.stringify(args)).toBe('22023');
    }
    const { data } = await d.rest.rpc('market_index', { place: 'no-such-place' });
    expect(data).toEqual([]);
  });

  describe('following a market by e-mail', () => {
    const linkIn = (mail: ReceivedMail, path: string) => {
      const token = new RegExp(`${path.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];
      expect(token, path).toBeTruthy();
      return `${d.server.url}${path}?token=${token}`;
    };
    const subscribe = async (body: Record<string, unknown>) => {
      const res = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'subscribe', ...body }),
      });
      return { status: res.status, json: (await res.json()) as { fields?: Record<string, string> } };
    };
    const follow = async (email: string) =>
      (
        await d.server.sql<{ id: string; status: string; next_run_at: string }>(
          'select id::text as id, status, next_run_at::text as next_run_at from internal.saved_searches where email = $1',
          [email],
        )
      )[0];
    /** the month of its report, the Ecuadorian calendar's last closed one */
    const reported = async () =>
      String(
        (
          await d.server.sql<{ m: string }>(
            "select to_char(date_trunc('month', internal.now() at time zone 'America/Guayaquil') - interval '1 month', 'YYYY-MM-DD') as m",
          )
        )[0]?.m,
      );

    it('double opt-in, then early each month one mail with the figure the rule gives, the count it stands on and the way to the report; one-click unsubscribe stops it', async () => {
      const [big] = await d.server.sql<{ city: string; name: string }>(
        "select i.path as city, i.name from internal.market_index i where i.kind = 'city' and i.type_group = 'all' group by 1, 2 order by max(i.listings) desc limit 1",
      );
      const place = String(big?.city);
      const email = `seller-${Date.now().toString(36)}@example.org`;
      expect(await subscribe({ email, market: { place, typeGroup: 'all' }, lang: 'es' })).toEqual({ status: 200, json: { ok: true } });
      const confirm = await until(() => d.mailsTo(email)[0]);
      expect(confirm.text).toContain(`El informe de mercado de ${big?.name}`);
      expect(confirm.text).toContain('Una vez al mes');
      // nothing but the confirmation before it is confirmed, even when its time comes
      await d.server.sql("update internal.saved_searches set next_run_at = internal.now() - interval '1 second' where email = $1", [email]);
      await d.server.runAlerts();
      await d.server.drainOutbox();
      expect(d.mailsTo(email)).toHaveLength(1);

      const page = await fetch(linkIn(confirm, '/es/alerts/confirm'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Te enviaremos el informe de este mercado a inicios de cada mes.');
      expect(html).toContain(`href="/es/market/${place}"`);
      // its first report: the 1st of next month, 08:00 in Ecuador (13:00 UTC)
      const row = await follow(email);
      expect(row?.status).toBe('active');
      expect(new Date(String(row?.next_run_at)).toISOString()).toBe(`${ecuadorMonth(clockNow(), -1)}T13:00:00.000Z`);
      // not due yet: a run mails nothing (the team's lead notice aside)
      await d.server.runAlerts();
      await d.server.drainOutbox();
      expect(d.mailsTo(email)).toHaveLength(1);

      // its month comes
      await d.server.sql("update internal.saved_searches set next_run_at = internal.now() - interval '1 second' where email = $1", [email]);
      expect((await d.server.runAlerts()).alerts).toBeGreaterThanOrEqual(1);
      const report = await until(() => d.mailsTo(email)[1]);
      const month = await reported();
      const mine = await ours(place, 'all', month);
      expect(report.subject).toBe(`El informe de mercado de ${big?.name}, ${formatMonth(month, 'es')}`);
      expect(report.text).toContain(`${formatPrice(mine.median)}/m²`);
      expect(report.text).toContain(`Anuncios: ${formatCount(mine.listings)}`);
      expect(report.html).toContain(`${SITE}/es/market/${place}`);
      expect(report.raw['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      expect(report.raw['list-unsubscribe']).toMatch(/^<https:\/\/expecuador\.example\/es\/alerts\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/);
      // once a month: the next is due next month, and a run now mails nothing more
      expect(new Date(String((await follow(email))?.next_run_at)).getTime()).toBeGreaterThan(clockNow());
      await d.server.runAlerts();
      await d.server.drainOutbox();
      expect(d.mailsTo(email)).toHaveLength(2);

      // a market follow is monthly: its manage link cannot make it daily
      const manageToken = /\/es\/alerts\/manage\?token=([A-Za-z0-9_-]{43})/.exec(report.text)?.[1];
      const change = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'update', token: manageToken, frequency: 'daily' }),
      });
      expect(change.status).toBe(400);
      const manage = await (await fetch(`${d.server.url}/es/alerts/manage?token=${manageToken}`)).text();
      expect(manage).toContain(`El informe de mercado de ${big?.name}`);
      expect(manage).not.toContain('name="frequency"');

      // one click in the mail client, and no report comes again
      const unsubscribe = String(report.raw['list-unsubscribe'])
        .slice(1, -1)
        .replace(SITE, () => d.server.url);
      expect(
        (await fetch(unsubscribe, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' }))
          .status,
      ).toBe(200);
      expect((await follow(email))?.status).toBe('unsubscribed');
      await d.server.sql("update internal.saved_searches set next_run_at = internal.now() - interval '1 second' where email = $1", [email]);
      await d.server.runAlerts();
      await d.server.drainOutbox();
      expect(d.mailsTo(email)).toHaveLength(2);
    });

    it('refuses a place without a report, a follow that is not monthly, and a follow with a search in it; the same follow twice is one', async () => {
      const email = `twice-${Date.now().toString(36)}@example.org`;
      expect((await subscribe({ email, market: { place: 'atlantis' } })).json.fields).toEqual({ market: 'invalid' });
      expect((await subscribe({ email, market: { place: '../etc' } })).json.fields).toEqual({ market: 'invalid' });
      expect((await subscribe({ email, market: { place: 'quito', typeGroup: 'castle' } })).json.fields).toEqual({ 'market.typeGroup': 'invalid' });
      expect((await subscribe({ email, market: { place: 'quito' }, frequency: 'daily' })).json.fields).toEqual({ frequency: 'invalid' });
      expect((await subscribe({ email, market: { place: 'quito' }, filters: { minPrice: 1 } })).json.fields).toEqual({ filters: 'invalid' });
      expect((await subscribe({ email, frequency: 'monthly' })).json.fields).toEqual({ frequency: 'invalid' });
      // a city with a report of its houses (not every city has one: the edges' test above makes a city of flats)
      const [city] = await d.server.sql<{ path: string }>(
        "select path from internal.market_index where kind = 'city' and type_group = 'house' order by path limit 1",
      );
      for (const key of ['a', 'b'])
        expect(
          (await subscribe({ email, market: { place: city?.path, typeGroup: 'house' }, idempotencyKey: `follow-twice-${key}-${Date.now()}` })).status,
        ).toBe(200);
      expect(await d.server.sql('select 1 from internal.saved_searches where email = $1', [email])).toHaveLength(1);
    });
  });
});
