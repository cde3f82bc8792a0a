/**
 * One clock (docs/decisions.md #33), as PostgreSQL's rules read it: the suite runs at its stated
 * instant whatever the machine's date, and the rules that read the date are run at the calendar's
 * edges on purpose, each with a case that fails if the edge is off by one: a month's first and last
 * instant in Ecuador, New Year's Eve at 23:50 in Guayaquil (already the next day and year in UTC),
 * 29 February, and a visitor in Madrid on the night the clocks change there (Ecuador has no
 * daylight saving time). SQL runs in transactions whose clock reads the instant exactly
 * (tests/support/clock-at.ts); what needs the server (mails, links) runs on a server started with
 * the clock pinned. The TypeScript side of the same edges: core/protocol/calendar.test.ts.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { now as clockNow } from '../../core/clock.ts';
import { formatPrice } from '../../core/protocol/format.ts';
import { atInstant, useClockAt } from '../support/clock-at.ts';
import { useDeliveries } from '../support/deliveries.ts';
import { FROM_MADRID, inquiryBody } from '../support/inquiry.ts';
import { clientHeaders } from '../support/servers.ts';
import { type ReceivedMail } from '../support/smtp.ts';
import { SUITE_INSTANT } from '../support/suite-clock.mjs';
import { searchesDue } from '../support/alerts.ts';
import { TEN_PLAIN_FLATS } from '../support/market-rule.ts';
import { until } from '../support/until.ts';

/** New Year's Eve, 23:50 in Guayaquil: 2027-01-01 04:50 in UTC. */
const NEW_YEARS_EVE = '2026-12-31T23:50:00-05:00';

describe('the clock the suite set, as PostgreSQL reads it', () => {
  const d = useDeliveries([]);

  it('the suite runs at its stated instant: internal.now() and core/clock.ts agree, whatever the machine says', async () => {
    const [row] = await d.server.sql<{ at: string; wall: string }>(
      'select internal.now()::text as at, now()::text as wall',
    );
    const at = Date.parse(String(row?.at));
    // the same instant, give or take the time the test has run since the suite began
    expect(Math.abs(at - clockNow())).toBeLessThan(5_000);
    expect(at - Date.parse(SUITE_INSTANT)).toBeGreaterThanOrEqual(0);
    expect(at - Date.parse(SUITE_INSTANT)).toBeLessThan(3_600_000);
    // the offset is the tests' alone: a session that does not carry it reads PostgreSQL's own now()
    expect(Math.abs(Date.parse(String(row?.wall)) - Date.now())).toBeLessThan(5_000);
  });

  it("Ecuador's months: a month's first instant is midnight in Guayaquil (05:00 UTC), New Year's Eve at 23:50 is still December, 29 February is February", async () => {
    const month = (instant: string) =>
      atInstant(
        d.server.db,
        instant,
        async (tx) => (await tx.query<{ m: string }>('select internal.this_month()::text as m'))[0]?.m,
      );
    expect(await month('2026-12-01T05:00:00Z')).toBe('2026-12-01');
    expect(await month('2026-12-01T04:59:59.999Z')).toBe('2026-11-01');
    expect(await month(NEW_YEARS_EVE)).toBe('2026-12-01');
    expect(await month('2027-01-01T05:00:00Z')).toBe('2027-01-01');
    expect(await month('2028-02-29T12:00:00Z')).toBe('2028-02-01');
    expect(await month('2028-03-01T04:59:59.999Z')).toBe('2028-02-01');
    // and whatever zone the session is in
    expect(
      await atInstant(d.server.db, NEW_YEARS_EVE, async (tx) => {
        await tx.query("set local timezone = 'Asia/Tokyo'");
        return (await tx.query<{ m: string }>('select internal.this_month()::text as m'))[0]?.m;
      }),
    ).toBe('2026-12-01');
  });

  it("the market index on New Year's Eve at 23:50 in Guayaquil: a listing on or off at a month's edge counts in Ecuador's month; this month is December, last month November, no January yet", async () => {
    const result = await atInstant(d.server.db, NEW_YEARS_EVE, async (tx) => {
      // ten flats of one price and size in a town of their own, their times on the market written here
      const ids = (await tx.query<{ id: string }>(TEN_PLAIN_FLATS)).map((r) => r.id);
      expect(ids).toHaveLength(10);
      await tx.query(
        "update internal.listings set city = 'Borde de Año', sector = null, price = 100000, square_feet = 100 where id = any($1::bigint[])",
        [ids],
      );
      await tx.query('delete from internal.listing_spells where listing_id = any($1::bigint[])', [ids]);
      await tx.query(
        `insert into internal.listing_spells (listing_id, on_at, off_at)
         select ($1::bigint[])[s.n], s.on_at, s.off_at from (values
           -- off at 23:59:59 on 30 November in Ecuador (already 1 December in UTC): November only
           (1, timestamptz '2026-11-15T12:00:00Z', timestamptz '2026-12-01T04:59:59Z'),
           -- on at 23:40 on New Year's Eve in Ecuador (1 January in UTC): December, this month
           (2, timestamptz '2027-01-01T04:40:00Z', null::timestamptz),
           -- on at 23:00 on 30 November in Ecuador: November and December
           (3, timestamptz '2026-12-01T04:00:00Z', null::timestamptz)
         ) s(n, on_at, off_at)
         union all
         select id, timestamptz '2026-10-10T15:00:00Z', null from unnest(($1::bigint[])[4:10]) id`,
        [ids],
      );
      await tx.query('select internal.rebuild_market_index()');
      const counted = await tx.query<{ path: string; month: string; listings: number }>(
        `select i.path, i.month::text as month, i.listings from internal.market_index i
          where i.type_group = 'all' and i.path = (select l.city_slug from internal.listings l where l.id = $1) order by i.month`,
        [ids[0]],
      );
      const shown = await tx.query<{ month: string }>(
        "select m.month::text as month from public.market_index('ecuador', 'all', 2) m order by m.month",
      );
      const latest = await tx.query<{ month: string }>(
        "select max(i.month)::text as month from internal.market_index i where i.path = 'ecuador'",
      );
      return { counted, shown, latest };
    });
    const at = (month: string) => result.counted.find((r) => r.month === month)?.listings ?? 0;
    expect(at('2026-10-01')).toBe(7);
    expect(at('2026-11-01')).toBe(9);
    expect(at('2026-12-01')).toBe(9);
    expect(at('2027-01-01')).toBe(0);
    expect(result.latest[0]?.month).toBe('2026-12-01');
    expect(result.shown.map((r) => r.month)).toEqual(['2026-11-01', '2026-12-01']);
  });

  it("visiting hours at the edges: from 16:30 on 28 February 2028 the first time is 09:00 on the 29th, the last 14 days on; New Year's Eve offers nothing on Sunday the 3rd", async () => {
    const times = (instant: string) =>
      atInstant(d.server.db, instant, async (tx) =>
        (
          await tx.query<{ t: string }>(
            "select to_char(t at time zone 'utc', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') as t from internal.open_visit_times(null, internal.now(), internal.now() + interval '14 days') t",
          )
        ).map((r) => r.t),
      );
    const leap = await times('2028-02-28T16:30:00-05:00');
    expect(leap[0]).toBe('2028-02-29T14:00:00Z');
    // 09:00 to 17:00 every half hour on the 29th: 17 times
    expect(leap.filter((t) => t.startsWith('2028-02-29')).length).toBe(17);
    // the horizon's last instant, 16:30 on Monday 13 March, is a time still
    expect(leap.at(-1)).toBe('2028-03-13T21:30:00Z');
    const eve = await times(NEW_YEARS_EVE);
    expect(eve[0]).toBe('2027-01-01T14:00:00Z');
    // Sunday 3 January in Ecuador (09:00 to 17:00 there is 14:00 to 22:00 UTC): no hours
    expect(eve.filter((t) => t >= '2027-01-03T05:00:00Z' && t < '2027-01-04T05:00:00Z')).toEqual([]);
    expect(eve.filter((t) => t >= '2027-01-04T05:00:00Z' && t < '2027-01-05T05:00:00Z').length).toBe(17);
  });

  it('"open house this week": from this instant to seven days on, an open house ended at this instant or starting seven days on is not one', async () => {
    const found = (range: string) =>
      atInstant(d.server.db, NEW_YEARS_EVE, async (tx) => {
        const [l] = await tx.query<{ id: string }>(
          "select id::text as id from internal.listings where country_code = 'EC' and status = '1' order by id limit 1",
        );
        await tx.query("update internal.listings set open_houses = '{}' where open_houses <> '{}'");
        await tx.query(`update internal.listings set open_houses = tstzmultirange(${range}) where id = $1`, [l?.id]);
        const rows = await tx.query<{ id: string }>(
          "select s.id::text as id from public.search_listings('{\"open_house\": true}', 'featured', 24, 0) s",
        );
        return rows.map((r) => r.id).includes(String(l?.id)) && rows.length === 1;
      });
    expect(await found("tstzrange(internal.now() - interval '2 hours', internal.now())")).toBe(false);
    expect(await found("tstzrange(internal.now() - interval '2 hours', internal.now() + interval '1 second')")).toBe(
      true,
    );
    expect(
      await found("tstzrange(internal.now() + interval '7 days', internal.now() + interval '7 days 2 hours')"),
    ).toBe(false);
    expect(
      await found(
        "tstzrange(internal.now() + interval '7 days' - interval '1 second', internal.now() + interval '7 days 2 hours')",
      ),
    ).toBe(true);
  });

  it("what a home may ask: a year built up to three years ahead of Ecuador's year (2026 on New Year's Eve at 23:50, 2027 ten minutes later)", async () => {
    const estimate = (instant: string, year: number) =>
      atInstant(d.server.db, instant, async (tx) => {
        await tx.query('savepoint s');
        try {
          await tx.query(
            "select public.estimate_value(jsonb_build_object('property_type', 'house', 'area_m2', 180, 'place', 'quito', 'year_built', $1::int))",
            [year],
          );
          return 'ok';
        } catch (error) {
          await tx.query('rollback to savepoint s');
          return (error as Error).message;
        }
      });
    expect(await estimate(NEW_YEARS_EVE, 2029)).toBe('ok');
    expect(await estimate(NEW_YEARS_EVE, 2030)).toMatch(/year_built/);
    expect(await estimate('2027-01-01T00:00:00-05:00', 2030)).toBe('ok');
  });
});

describe("the market report a seller follows, mailed on New Year's Eve at 23:50 in Guayaquil: November's, not December's", () => {
  useClockAt(NEW_YEARS_EVE);
  const d = useDeliveries([]);

  it("is the report of November 2026 with November's figure", async () => {
    // the server makes the index at its start (a month from the template's, made in June, ahead of it)
    await d.server.refreshMarket();
    const city = await until(
      async () =>
        (
          await d.server.sql<{ path: string; name: string; median: string; listings: number }>(
            "select i.path, i.name, i.median::text as median, i.listings from internal.market_index i where i.kind = 'city' and i.type_group = 'all' and i.month = '2026-11-01' order by i.listings desc, i.path limit 1",
          )
        )[0],
      60_000,
      "November's index",
    );
    const email = `fin-de-ano-${Date.now().toString(36)}@example.org`;
    const res = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'subscribe', email, market: { place: city?.path, typeGroup: 'all' }, lang: 'es' }),
    });
    expect(res.status).toBe(200);
    const confirm = await until(() => d.mailsTo(email)[0]);
    const token = /\/es\/alerts\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(confirm.text)?.[1];
    expect(
      (
        await fetch(`${d.server.url}/es/alerts/confirm?token=${token}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: '',
        })
      ).status,
    ).toBe(200);
    // its first report is due at 08:00 on 1 January in Ecuador: its time has come
    const [row] = await d.server.sql<{ next: string }>(
      'select to_char(next_run_at at time zone \'utc\', \'YYYY-MM-DD"T"HH24:MI"Z"\') as next from internal.saved_searches where email = $1',
      [email],
    );
    expect(row?.next).toBe('2027-01-01T13:00Z');
    await searchesDue(d.server, email);
    await d.server.runAlerts();
    await d.server.drainOutbox();
    const report: ReceivedMail = await until(() => d.mailsTo(email)[1]);
    expect(report.subject).toBe(`El informe de mercado de ${city?.name}, noviembre de 2026`);
    expect(report.text).toContain(`${formatPrice(Number(city?.median))}/m²`);
  });
});

describe('a visitor in Madrid on the night the clocks change there (28 March 2027, 02:00 CET becomes 03:00 CEST)', () => {
  // Saturday 20:30 in Ecuador: 02:30 on Sunday in Madrid, half an hour before the change
  useClockAt('2027-03-27T20:30:00-05:00');
  const d = useDeliveries([]);

  it('proposes Monday 09:00 in Ecuador, which her mail says is 16:00 in Madrid (CEST), and the invitation starts at 14:00 UTC', async () => {
    const [listing] = await d.server.sql<{ id: string; agent_email: string }>(
      `select l.id::text as id, a.email as agent_email from internal.listings l join public.agents a on a.id = l.agent_id
        where l.status = '1' and l.country_code = 'EC' and a.email is not null order by l.id limit 1`,
    );
    const { data } = await d.rest.rpc('visit_times', { listing_id: Number(listing?.id) });
    const open = (data as string[]).map((t) => new Date(t).toISOString());
    // no time on Sunday in Ecuador; Monday's first is 09:00 there
    const monday = '2027-03-29T14:00:00.000Z';
    expect(open[0]).toBe(monday);
    const email = `madrid.dst.${Date.now().toString(36)}@example.org`;
    const res = await fetch(`${d.server.url}/functions/v1/send-property-inquiry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders('10.46.0.1') },
      body: JSON.stringify({
        ...inquiryBody({ ...FROM_MADRID, email }),
        propertyId: listing?.id,
        lang: 'es',
        visit: { mode: 'video', times: [monday], timeZone: 'Europe/Madrid' },
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await d.server.drainOutbox();
    const agentMail = await until(() => d.mailsTo(String(listing?.agent_email)).find((m) => m.text.includes(email)));
    const confirm = new RegExp(`(?:/es)?/visits/confirm\\?token=[\\w-]{43}`).exec(agentMail.text)?.[0];
    expect(confirm).toBeTruthy();
    const done = await fetch(`${d.server.url}${confirm}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ location: 'https://meet.example.org/lucia' }).toString(),
    });
    expect(done.status).toBe(200);
    await d.server.drainOutbox();
    const confirmed = await until(() =>
      d.mailsTo(email).find((m) => m.subject.startsWith('Tu visita está confirmada')),
    );
    // her clock that Monday is UTC+2 (CEST), not the UTC+1 of the night she asked
    expect(confirmed.text).toContain('16:00');
    expect(confirmed.text).not.toContain('15:00');
    expect(confirmed.text).toContain('09:00 en Ecuador');
    const part = confirmed.calendars.find((c) => /^text\/calendar/i.test(c.contentType)) ?? confirmed.calendars[0];
    const root = new ICAL.Component(ICAL.parse(String(part?.content)));
    const event = new ICAL.Event(root.getFirstSubcomponent('vevent') as ICAL.Component);
    expect(event.startDate.toJSDate().toISOString()).toBe(monday);
  });
});
