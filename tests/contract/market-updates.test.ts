/**
 * The market index (docs/market.md) kept up to date: a listing withdrawn ends its time on the
 * market and relisted starts another, and the next index counts it so; a listing counts in the
 * months its times on the market span, at their edges, as the rule written apart gives
 * (tests/support/market-rule.ts); no time on the market is 'infinity'; the hourly refresh of the
 * last two months writes what a whole rebuild writes.
 */
import { describe, expect, it } from 'vitest';
import { TEAM, useDeliveries } from '../support/deliveries.ts';
import { MONTH_START, TEN_PLAIN_FLATS, useMarketRule } from '../support/market-rule.ts';

describe('the market index (docs/market.md): kept up to date', () => {
  const d = useDeliveries([], { mail: { probeMs: 200 }, alerts: { teamInbox: TEAM } });
  const { ours, index, monthsAgo } = useMarketRule(d);

  it('follows the market: a listing withdrawn ends its time on the market, relisted it starts another; the next index counts it so', async () => {
    const [l] = await d.server.sql<{ id: string }>(
      "select id::text as id from internal.listings where country_code = 'EC' and status = '1' order by id limit 1",
    );
    await d.server.sql("update internal.listings set status = '0' where id = $1", [l!.id]);
    let spells = await d.server.sql<{ off_at: string | null }>(
      'select off_at from internal.listing_spells where listing_id = $1 order by on_at',
      [l!.id],
    );
    expect(spells.at(-1)?.off_at).not.toBeNull();
    await d.server.sql("update internal.listings set status = '1' where id = $1", [l!.id]);
    spells = await d.server.sql<{ off_at: string | null }>(
      'select off_at from internal.listing_spells where listing_id = $1 order by on_at',
      [l!.id],
    );
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

  it('counts a listing in the months its times on the market span, at their edges: on or off at a month’s first instant, relisted within a month, listed for later', async () => {
    // ten flats of one price and size in a city of their own, their times on the market written here
    const ids = (await d.server.sql<{ id: string }>(TEN_PLAIN_FLATS)).map((r) => r.id);
    expect(ids).toHaveLength(10);
    await d.server.sql(
      "update internal.listings set city = 'Borde', sector = null, price = 100000, square_feet = 100 where id = any($1::bigint[])",
      [ids],
    );
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
    const [listing] = await d.server.sql<{ id: string }>(
      "select id::text as id from internal.listings where country_code = 'EC' order by id limit 1",
    );
    for (const at of ['infinity', '-infinity']) {
      await expect(
        d.server.sql('update internal.listings set listed_at = $2::timestamptz where id = $1', [listing?.id, at]),
        at,
      ).rejects.toThrow(/listings_listed_at_check/);
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
});
