/**
 * The rule of docs/market.md written again, apart from supabase/schemas/2[5-8]_market*.sql, for the
 * suites of tests/contract/market-*.test.ts: SQL of our own, from the page's words, that gives a
 * place's and type's figures for a month, and the market index as the public key reads it
 * (public.market_index), on the server of tests/support/deliveries.ts.
 */
import { beforeAll, expect } from 'vitest';
import type { Deliveries } from './deliveries.ts';

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
export const MONTH_START =
  "(date_trunc('month', internal.now() at time zone 'America/Guayaquil') at time zone 'America/Guayaquil')";

/**
 * Ten flats for sale in a province, with no price change yet: the listings a test moves to a town
 * of their own and gives the times on the market it writes.
 */
export const TEN_PLAIN_FLATS = `select l.id::text as id from internal.listings l
  where l.country_code = 'EC' and l.operation = 'sale' and l.property_type = 'apartment' and coalesce(l.state_slug, '') <> ''
    and not exists (select 1 from internal.listing_price_changes c where c.listing_id = l.id)
  order by l.id limit 10`;

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
  -- (materialized: each row's price worked out once; inlined, its two look-ups stood in six places)
), valued as materialized (
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

/**
 * Called in a describe block after useDeliveries: `ours`, the figures the written rule gives;
 * `index`, what public.market_index answers; `monthsAgo`, the first day of a month before this one
 * as the clock the test set reads it (tests/support/suite-clock.mjs), in Ecuador.
 */
export function useMarketRule(d: Deliveries) {
  let rowsOf: string | undefined;
  const ours = async (place: string, group: string, month: string) => {
    const [sources] = await d.server.sql<{ v: string }>(RULE_SOURCES);
    if (sources?.v !== rowsOf) {
      await d.server.sql('drop table if exists internal.test_rule_rows');
      await d.server.sql(`create table internal.test_rule_rows as ${RULE_ROWS}`);
      rowsOf = sources?.v;
    }
    const [row] = await d.server.sql<{ listings: number; median: string | null; median_days: number | null }>(RULE, [
      place,
      group,
      month,
    ]);
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
  return { ours, index, monthsAgo };
}
