/**
 * What a RESO Web API listing brings with it (docs/import.md), once a first run has imported the
 * feed (tests/support/importer.ts: the RESO stand-in, our real server over PostgreSQL, a real SMTP
 * server): open houses from the OpenHouse resource, on the listing, its page and its calendar file,
 * and gone when the feed drops them or when over; an Ecuadorian listing's facts (the alícuota,
 * parking, storage, furnished, pets); a lease as a rental at its monthly rent, a holiday let
 * quarantined; and an instant alert that takes a listing as new when it appeared here.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now as clockNow } from '../../core/clock.ts';
import type { ResoStandIn } from '../support/feed-stand-ins.ts';
import { at, HOUR, importer } from '../support/importer.ts';
import type { TestServer } from '../support/servers.ts';
import type { TestSmtp } from '../support/smtp.ts';
import { until } from '../support/until.ts';

describe.each(['postgres'] as const)("imports on %s: a RESO listing's open houses, facts and lease", (kind) => {
  const feed = importer();
  let server: TestServer, smtp: TestSmtp, reso: ResoStandIn;
  beforeAll(async () => {
    ({ server, smtp, reso } = await feed.start(kind));
    // the feed's twenty listings imported, as a first run does
    expect((await feed.run(feed.resoSource())).outcome).toBe('done');
  }, 240_000);
  afterAll(() => feed.stop());
  const { record, resoSource, run, row, page, confirmedAlert } = feed;

  it('open houses from the OpenHouse resource: the public ones on the listing, its page (an Event each) and its calendar file, found by "open house this week"; the others left out by reason; gone when the feed drops them or when over; a service without the resource keeps them', async () => {
    const DAY = 24 * HOUR;
    const soon = Math.ceil((clockNow() + 2 * DAY) / HOUR) * HOUR;
    const iso = (t: number) => new Date(t).toISOString();
    const feed = new Map<string, Record<string, unknown>>();
    reso.openHouses = feed;
    const oh = (key: string, listing: string, startsAt: number, hours: number, over: Record<string, unknown> = {}) =>
      feed.set(key, {
        OpenHouseKey: key,
        ListingKey: listing,
        OpenHouseStartTime: iso(startsAt),
        OpenHouseEndTime: iso(startsAt + hours * HOUR),
        OpenHouseType: 'Public',
        OpenHouseStatus: 'Active',
        ...over,
      });
    oh('OH-1', 'RX-7', soon, 2, {
      OpenHouseRemarks: '<b>Café</b> y recorrido <script>x()</script>',
      LivestreamOpenHouseURL: 'https://live.example.org/rx7',
    });
    oh('OH-2', 'RX-7', soon + 10 * DAY, 2, {
      LivestreamOpenHouseURL: 'javascript:alert(1)',
      AppointmentRequiredYN: true,
    });
    oh('OH-3', 'RX-8', soon, 2, { OpenHouseType: 'Broker' });
    oh('OH-4', 'RX-8', soon, 2, { OpenHouseStatus: 'Cancelled' });
    oh('OH-5', 'RX-15', soon, 30);
    oh('OH-6', 'RX-15', soon, 2, { OpenHouseStartTime: iso(soon).replace(/\.000Z$/, '') });
    oh('OH-7', 'RX-999', soon, 2);
    const report = await run(resoSource());
    expect(report.outcome).toBe('done');
    expect(report.openHouses).toEqual({
      kept: 2,
      removed: 0,
      unknownListings: 1,
      skipped: {
        'not public (broker)': 1,
        'status cancelled': 1,
        'an end not after the start, or more than 12 hours after': 1,
        'a start or an end that is not an instant with its offset': 1,
      },
    });
    // it asks the service only for those not over
    expect(
      reso.requests.some(
        (r) => r.startsWith('/odata/OpenHouse?') && decodeURIComponent(r).includes('$filter=OpenHouseEndTime gt '),
      ),
    ).toBe(true);

    const rx7 = await row('RX-7');
    const rx8 = await row('RX-8');
    const rpc = async (fn: string, body: Record<string, unknown>) =>
      (await (
        await fetch(`${server.url}/rest/v1/rpc/${fn}`, {
          method: 'POST',
          headers: { apikey: 'anon-key', 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Array<Record<string, unknown>>;
    const openHouses = await rpc('listing_open_houses', { listing_id: Number(rx7?.id) });
    expect(openHouses.map((o) => new Date(String(o.starts_at)).toISOString())).toEqual([
      iso(soon),
      iso(soon + 10 * DAY),
    ]);
    expect(openHouses[0]).toMatchObject({
      remarks: 'Café y recorrido',
      livestream_url: 'https://live.example.org/rx7',
      appointment_required: false,
    });
    expect(openHouses[1]).toMatchObject({ livestream_url: null, appointment_required: true });
    expect(await rpc('listing_open_houses', { listing_id: Number(rx8?.id) })).toEqual([]);
    // "open house this week": RX-7 (its next is in two days), not RX-8
    const thisWeek = async () =>
      (await rpc('search_listings', { filters: { city: 'Pueblo Importado', open_house: true }, page_size: 100 })).map(
        (r) => String(r.id),
      );
    expect(await thisWeek()).toEqual([rx7?.id]);

    // its page: the open houses, an Event each, and the calendar file of each
    const shown = await page('RX-7');
    expect(shown.html).toContain('<h2 id="open-houses-heading">Open houses</h2>');
    const events = [...shown.html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)]
      .map((m) => JSON.parse(m[1] as string) as Record<string, unknown>)
      .filter((x) => x['@type'] === 'Event');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      startDate: iso(soon),
      endDate: iso(soon + 2 * HOUR),
      eventAttendanceMode: 'https://schema.org/MixedEventAttendanceMode',
      description: 'Café y recorrido',
    });
    const href = /href="(\/open-houses\/\d+\/\d+\.ics)"/.exec(shown.html)?.[1];
    const file = await fetch(`${server.url}${href}`);
    expect(file.headers.get('content-type')).toMatch(/^text\/calendar/);
    const calendar = new ICAL.Component(ICAL.parse(await file.text()));
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(
      new ICAL.Event(calendar.getFirstSubcomponent('vevent') as ICAL.Component).startDate.toJSDate().toISOString(),
    ).toBe(iso(soon));
    expect((await fetch(`${server.url}/open-houses/${rx8?.id}/1.ics`)).status).toBe(404);

    // the feed drops one: gone
    feed.delete('OH-2');
    expect((await run(resoSource())).openHouses).toMatchObject({ kept: 1, removed: 1 });
    // a service without the resource: the listings' run stands, the open houses stay
    reso.openHouses = null;
    const without = await run(resoSource());
    expect(without.outcome).toBe('done');
    expect(without.openHouses?.error).toMatch(/404/);
    expect(await rpc('listing_open_houses', { listing_id: Number(rx7?.id) })).toHaveLength(1);

    // time passes (as if two days had: the open house and its copy on the listing both over, nothing run since): gone from all the public reads, by itself
    await server.sql(`do $$ begin
      set local session_replication_role = replica;
      update internal.open_houses set starts_at = internal.now() - interval '3 hours', ends_at = internal.now() - interval '1 hour' where source = 'reso:test';
      update internal.listings set open_houses = tstzmultirange(tstzrange(internal.now() - interval '3 hours', internal.now() - interval '1 hour')) where source = 'reso:test' and open_houses <> '{}';
    end $$`);
    expect(
      (
        await server.sql<{ copy: string }>('select open_houses::text as copy from internal.listings where id = $1', [
          rx7?.id,
        ])
      )[0]?.copy,
    ).not.toBe('{}');
    expect(await rpc('listing_open_houses', { listing_id: Number(rx7?.id) })).toEqual([]);
    expect(await thisWeek()).toEqual([]);
    expect((await page('RX-7')).html).not.toContain('open-houses-heading');
    // and the hourly tidying empties the copy
    await server.sql('select internal.forget_past_open_houses()');
    expect(
      (
        await server.sql<{ copy: string }>('select open_houses::text as copy from internal.listings where id = $1', [
          rx7?.id,
        ])
      )[0]?.copy,
    ).toBe('{}');
  });

  it("an Ecuadorian listing's facts come with it: the alícuota by the month, parking, storage, furnished, pets; in the public view; a change of one is an update", async () => {
    reso.listings.set(
      'RX-16',
      record(16, {
        AssociationFee: 360,
        AssociationFeeFrequency: 'Quarterly',
        ParkingTotal: 2,
        StorageYN: 'Y',
        Furnished: 'Partially',
        PetsAllowed: ['Dogs OK'],
        ModificationTimestamp: at(60),
      }),
    );
    expect(await run(resoSource())).toMatchObject({ outcome: 'done', updated: 1 });
    const rx16 = await row('RX-16');
    const [stored] = await server.sql<Record<string, unknown>>(
      'select hoa_fee::float8 as hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed from internal.listings where id = $1',
      [rx16?.id],
    );
    expect(stored).toEqual({
      hoa_fee: 120,
      parking_spaces: 2,
      storage_unit: true,
      furnished: 'partly',
      pets_allowed: true,
    });
    const res = await fetch(
      `${server.url}/rest/v1/listings?select=hoa_fee,parking_spaces,storage_unit,furnished,pets_allowed&id=eq.${rx16?.id}`,
      {
        headers: { apikey: 'anon-key' },
      },
    );
    expect(await res.json()).toEqual([
      { hoa_fee: 120, parking_spaces: 2, storage_unit: true, furnished: 'partly', pets_allowed: true },
    ]);
    // the same again: unchanged; the alícuota changed: an update
    expect(await run(resoSource())).toMatchObject({ updated: 0 });
    reso.listings.set(
      'RX-16',
      record(16, {
        AssociationFee: 150,
        ParkingTotal: 2,
        StorageYN: 'Y',
        Furnished: 'Partially',
        PetsAllowed: ['Dogs OK'],
        ModificationTimestamp: at(61),
      }),
    );
    expect(await run(resoSource())).toMatchObject({ updated: 1 });
    expect(
      (
        await server.sql<{ fee: number }>('select hoa_fee::float8 as fee from internal.listings where id = $1', [
          rx16?.id,
        ])
      )[0]?.fee,
    ).toBe(150);
  });

  it('a lease is a rental at its monthly rent with its alícuota, found by a rent search and not by a sale one; a holiday let is quarantined with its reason', async () => {
    reso.listings.set(
      'RX-117',
      record(117, {
        PropertyType: 'Residential Lease',
        PropertySubType: 'Apartment',
        ListPrice: 1,
        LeaseAmount: 10_200,
        LeaseAmountFrequency: 'Annually',
        AssociationFee: 95,
        ModificationTimestamp: at(70),
      }),
    );
    reso.listings.set(
      'RX-118',
      record(118, {
        PropertyType: 'Residential Lease',
        LeaseAmount: 75,
        LeaseAmountFrequency: 'Nightly',
        ModificationTimestamp: at(71),
      }),
    );
    const report = await run(resoSource());
    expect(report).toMatchObject({ outcome: 'done', new: 1 });
    expect(report.quarantined).toContainEqual({
      key: 'RX-118',
      reasons: ['a holiday let (rent Nightly): this site lists homes to live in'],
    });
    expect(report.unknownValues['rent 10200 Annually made 850 a month']).toBe(1);
    const [stored] = await server.sql<Record<string, unknown>>(
      "select id::text as id, operation, price::float8 as price, hoa_fee::float8 as hoa_fee, property_type from internal.listings where source = 'reso:test' and source_key = 'RX-117'",
    );
    expect(stored).toMatchObject({ operation: 'rent', price: 850, hoa_fee: 95, property_type: 'apartment' });
    const ids = async (filters: Record<string, unknown>) =>
      (
        (await (
          await fetch(`${server.url}/rest/v1/rpc/search_listings`, {
            method: 'POST',
            headers: { apikey: 'anon-key', 'content-type': 'application/json' },
            body: JSON.stringify({ filters, page_size: 100 }),
          })
        ).json()) as Array<{ id: number }>
      ).map((r) => String(r.id));
    const city = { city: 'pueblo importado' };
    expect(await ids({ ...city, operation: 'rent' })).toEqual([stored?.id]);
    expect(await ids({ ...city, operation: 'rent', hoa_max: 90 })).toEqual([]);
    expect(await ids(city)).not.toContain(stored?.id);
    expect((await ids(city)).length).toBeGreaterThan(0);
  });
  it('an instant alert mails a listing imported now that its feed says came on the market yesterday, once: new is when it appeared here', async () => {
    const email = `appeared-${kind}@example.org`;
    await confirmedAlert(email, '10.9.0.3');
    // its mark is now; the feed's market date a day before it (midnight, as feeds write dates)
    const yesterday = new Date(clockNow() - 24 * HOUR).toISOString().slice(0, 10);
    reso.listings.set(
      'RX-30',
      record(30, { OnMarketDate: yesterday, ModificationTimestamp: new Date(clockNow()).toISOString() }),
    );
    expect(await run(resoSource())).toMatchObject({ outcome: 'done', new: 1 });
    const imported = await server.sql<{ id: string; listed: string; appeared: string }>(
      "select id::text as id, listed_at::text as listed, appeared_at::text as appeared from internal.listings where source = 'reso:test' and source_key = 'RX-30'",
    );
    expect(Date.parse(String(imported[0]?.listed))).toBeLessThan(clockNow() - 12 * HOUR);
    expect(clockNow() - Date.parse(String(imported[0]?.appeared))).toBeLessThan(5 * 60_000);
    const mailsFor = () =>
      smtp.mails.filter((m) => m.envelopeTo.includes(email) && m.text.includes(`/properties/${imported[0]?.id}-`));
    await server.runAlerts();
    await server.drainOutbox();
    await until(() => mailsFor().length === 1, 15_000, 'the alert with the imported listing');
    // once: the next runs find nothing new
    await server.runAlerts();
    // every delivery ended (a mail is recorded before SMTP's answer): a second copy would be here
    await server.drainOutbox();
    expect(mailsFor()).toHaveLength(1);
  });
});
