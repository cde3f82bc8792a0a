/**
 * Imports of files (docs/import.md), written here and read by our real server over PostgreSQL
 * (tests/support/importer.ts): the CSV template, with rows quarantined for their reasons, values
 * we do not know reported, a hostile photo list refused (a photo on 127.0.0.1, a 50 MB "photo", a
 * page called a photo) and script in the remarks kept as text; a photo whose host did not answer
 * tried again by the next run; whole RESO JSON and Kyero XML feeds, where a listing not in the next
 * feed leaves, and broken XML or a missing file change nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingPath } from '../../core/routes.ts';
import { sourceFrom } from '../../server/import/sources.ts';
import type { PhotoHost, ResoStandIn } from '../support/feed-stand-ins.ts';
import { importer } from '../support/importer.ts';
import type { TestServer } from '../support/servers.ts';

describe.each(['postgres'] as const)('imports on %s: files', (kind) => {
  const feed = importer();
  let server: TestServer, reso: ResoStandIn, photos: PhotoHost;
  beforeAll(async () => ({ server, reso, photos } = await feed.start(kind)), 240_000);
  afterAll(() => feed.stop());
  const { dir, record, run, row, publicCount } = feed;

  it('a CSV: quarantined rows with their reasons, values we do not know reported; a hostile photo list refused; text stays text', async () => {
    const csv = [
      'ListingKey,StandardStatus,ListPrice,BedroomsTotal,LivingArea,LivingAreaUnits,PropertySubType,Latitude,Longitude,UnparsedAddress,City,ListingTitle,PublicRemarks,Photos',
      `C-1,Active,"245,000",3,180,Square Meters,Single Family Residence,-0.2031,-78.4322,Calle 1,Pueblo CSV,,Casa con jardín,${photos.photo(11)}|${photos.huge}|${photos.html}|http://127.0.0.1:${new URL(reso.url).port}/odata/Property|http://169.254.169.254/latest/meta-data`,
      'C-2,Active,0,2,90,Square Meters,Condominium,-0.2,-78.5,Calle 2,Pueblo CSV,,,',
      'C-3,Active,99000,,,,Land,25.77,-80.19,Calle 3,Miami,,,',
      'C-4,Active,120000,2,90,Square Meters,Boat Slip,-0.2,-78.5,,Pueblo CSV,,,',
      'C-5,Vendida,130000,2,90,Square Meters,Condominium,-0.2,-78.5,Calle 5,Pueblo CSV,,,',
      `C-6,Active,135000,2,90,Square Meters,Condominium,-0.2,-78.5,Calle 6,Pueblo CSV,"<img src=x onerror=alert(1)>Casa",<p>Bonita</p><script>alert(1)</script>,`,
    ].join('\n');
    writeFileSync(join(dir, 'listings.csv'), csv);
    const report = await run(sourceFrom({ kind: 'csv', location: 'listings.csv', photoHosts: [photos.origin] }));
    expect(report).toMatchObject({ outcome: 'done', source: 'csv:listings.csv', read: 6, new: 3, quarantinedCount: 3 });
    expect(report.quarantined).toEqual([
      { key: 'C-2', reasons: ['no price'] },
      { key: 'C-3', reasons: ['coordinates 25.77, -80.19 are outside Ecuador'] },
      { key: 'C-4', reasons: ['no address'] },
    ]);
    expect(report.unknownValues).toEqual({ 'status "Vendida"': 1 });
    // one photo made; a 50 MB body cut off as it streams, a page called a photo, a private address and the metadata service refused
    expect(report.photos.fetched).toBe(1);
    // (two photos are made at once: the errors come in any order)
    const errors = report.photos.errors.map((e) => e.error);
    expect(errors).toHaveLength(4);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/more than 20971520 bytes/),
        'not an image',
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+ is not on the source's photo hosts$/),
        "http://169.254.169.254 is not on the source's photo hosts",
      ]),
    );
    expect((await row('C-1', 'csv:listings.csv'))?.images).toHaveLength(1);
    const hostile = await row('C-6', 'csv:listings.csv');
    expect(hostile?.description).toBe('Bonita');
    expect(hostile?.title).toBe('<img src=x onerror=alert(1)>Casa');
    const res = await fetch(`${server.url}${listingPath(String(hostile?.id), hostile?.title, 'en')}`);
    const body = await res.text();
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;Casa');
    expect(body).not.toContain('<img src=x');
    // any public host: a private address is still refused when the feed names it
    writeFileSync(
      join(dir, 'private.csv'),
      `ListingKey,ListPrice,UnparsedAddress,City,Photos\nP-1,100000,Calle 9,Pueblo CSV,${photos.photo(12)}\n`,
    );
    const anyHost = await run(sourceFrom({ kind: 'csv', location: 'private.csv' }));
    expect(anyHost.photos).toMatchObject({ fetched: 0, failed: 1 });
    expect(anyHost.photos.errors[0]?.error).toMatch(/127\.0\.0\.1 is not an address the server may fetch/);
  });

  it('a photo whose host did not answer is tried again by the next run; one that cannot be made is not', async () => {
    writeFileSync(
      join(dir, 'flaky.csv'),
      `ListingKey,ListPrice,UnparsedAddress,City,Photos\nF-1,100000,Calle 4,Pueblo CSV,${photos.flaky(41)}|${photos.html}?listing=F-1\n`,
    );
    const source = sourceFrom({ kind: 'csv', location: 'flaky.csv', photoHosts: [photos.origin] });
    const first = await run(source);
    expect(first.photos).toMatchObject({ fetched: 0, failed: 2 });
    expect(first.photos.errors.map((e) => e.error).sort()).toEqual(
      [expect.stringMatching(/HTTP 503$/), expect.stringMatching(/^not an image|^not a photo/)].sort(),
    );
    const htmlHits = photos.hits.get('/page.jpg');
    // the feed unchanged: the 503 is asked for again and made; the page called a photo is not fetched again
    const second = await run(source);
    expect(second).toMatchObject({ new: 0, updated: 0, unchanged: 1 });
    expect(second.photos).toMatchObject({ fetched: 1, failed: 0 });
    expect(photos.hits.get('/page.jpg')).toBe(htmlHits);
    expect((await row('F-1', 'csv:flaky.csv'))?.images).toHaveLength(1);
    // and then the listing is done: a third run fetches nothing
    const third = await run(source);
    expect(third.photos).toMatchObject({ fetched: 0, failed: 0, reused: 0 });
  });

  it('RESO JSON and Kyero: whole feeds (a listing not in the next one leaves); broken XML and a missing file change nothing', async () => {
    const json = { value: [1, 2, 3].map((i) => ({ ...record(100 + i), ListingKey: `J-${i}`, Media: [] })) };
    writeFileSync(join(dir, 'feed.json'), JSON.stringify(json));
    const first = await run(sourceFrom({ kind: 'reso-json', location: 'feed.json' }));
    expect(first).toMatchObject({ outcome: 'done', new: 3 });
    writeFileSync(join(dir, 'feed.json'), JSON.stringify({ value: json.value.slice(0, 2) }));
    expect(await run(sourceFrom({ kind: 'reso-json', location: 'feed.json' }))).toMatchObject({
      outcome: 'done',
      unchanged: 2,
      withdrawn: 1,
    });

    const property = (id: string, freq = 'sale', price = 185000) =>
      `<property><id>${id}</id><date>2026-11-20 10:00:00</date><ref>R-${id}</ref><price>${price}</price><currency>USD</currency><price_freq>${freq}</price_freq><type>Villa</type><town>Olón</town><province>Santa Elena</province><location_detail>Playa Bruja</location_detail><beds>3</beds><baths>2</baths><pool>1</pool><desc><es>Cerca de la playa</es></desc></property>`;
    const kyero = (...props: string[]) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<root><kyero><feed_version>3</feed_version></kyero>${props.join('')}</root>`;
    // a rent by the month is a rental (issue 46); a let by the night stays out, with its reason
    writeFileSync(
      join(dir, 'kyero.xml'),
      kyero(property('K-1'), property('K-2'), property('K-3', 'month', 1450), property('K-4', 'night', 120)),
    );
    const k = await run(sourceFrom({ kind: 'kyero', location: 'kyero.xml' }));
    expect(k).toMatchObject({
      outcome: 'done',
      new: 3,
      quarantinedCount: 1,
      quarantined: [{ key: 'K-4', reasons: ['a holiday let (rent Nightly): this site lists homes to live in'] }],
    });
    expect(await row('K-1', 'kyero:kyero.xml')).toMatchObject({
      status: '1',
      property_type: 'house',
      title: 'Casa de 3 dormitorios en Playa Bruja',
    });
    const [k3] = await server.sql<{ operation: string; price: number }>(
      "select operation, price::float8 as price from internal.listings where source = 'kyero:kyero.xml' and source_key = 'K-3'",
    );
    expect(k3).toEqual({ operation: 'rent', price: 1450 });
    writeFileSync(join(dir, 'kyero.xml'), kyero(property('K-1')).replace('</root>', '<property><id>K-9</root>'));
    const broken = await run(sourceFrom({ kind: 'kyero', location: 'kyero.xml' }));
    expect(broken.outcome).toBe('failed');
    expect(broken.message).toMatch(/the XML does not parse.*nothing was changed or withdrawn/);
    expect(await publicCount('kyero:kyero.xml')).toBe(3);
    const missing = await run(sourceFrom({ kind: 'kyero', location: 'nowhere.xml' }));
    expect(missing.message).toMatch(/nowhere\.xml: no such file: nothing was changed or withdrawn/);
    writeFileSync(join(dir, 'kyero.xml'), kyero(property('K-1')));
    expect(await run(sourceFrom({ kind: 'kyero', location: 'kyero.xml' }))).toMatchObject({
      outcome: 'done',
      withdrawn: 2,
      unchanged: 1,
    });
    expect(await publicCount('kyero:kyero.xml')).toBe(1);
  });
});
