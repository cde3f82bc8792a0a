/**
 * Imports (docs/import.md) against stand-ins of the servers they talk to (a RESO Web API written
 * here, a photo host), files written here (RESO JSON, the CSV template, Kyero XML), our real server
 * over PostgreSQL, and a real SMTP server for the alerts: a first run (paging, a 429
 * with Retry-After, a 500 once, photos made), a re-run that changes nothing, an incremental run (a
 * price drop mailed by the alerts, a withdrawal answering 410, a relisting under the same id), runs
 * that break (a 500 midway, an empty answer, HTML for JSON, broken XML) and change nothing, a run
 * that would withdraw too much, and hostile feeds (a photo on 127.0.0.1, a 50 MB "photo", a page
 * called a photo, script in the remarks).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingPath } from '../../core/routes.ts';
import { runImport, type ImportReport, type RunOptions } from '../../server/import/run.ts';
import { sourceFrom, type SourceSettings } from '../../server/import/sources.ts';
import { startPhotoHost, startResoStandIn, type PhotoHost, type ResoStandIn } from '../support/feed-stand-ins.ts';
import { clientHeaders, startTestServer, type TestServer } from '../support/servers.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';
import { now as clockNow } from '../../core/clock.ts';

const SITE = 'https://expecuador.example';
const HOUR = 3_600_000;

describe.each(['postgres'] as const)('imports on %s', (kind) => {
  let server: TestServer;
  let smtp: TestSmtp;
  let reso: ResoStandIn;
  let photos: PhotoHost;
  let agentEmail = '';
  const waits: number[] = [];
  const logs: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'exp-import-'));
  // every listing changed at a different hour in the past; the test moves them on
  const start = clockNow() - 200 * HOUR;
  const at = (i: number) => new Date(start + i * HOUR).toISOString();

  const record = (i: number, over: Record<string, unknown> = {}) => ({
    ListingKey: `RX-${i}`,
    ListingId: `MLS-${1000 + i}`,
    StandardStatus: 'Active',
    ListPrice: 150_000 + i * 1000,
    BedroomsTotal: 3,
    BathroomsTotalInteger: 2,
    LivingArea: 1500,
    LivingAreaUnits: 'Square Feet',
    PropertyType: 'Residential',
    PropertySubType: i % 3 ? 'Single Family Residence' : 'Condominium',
    Latitude: -0.2 - i * 0.001,
    Longitude: -78.43,
    UnparsedAddress: `Calle de Prueba ${i}`,
    City: 'Pueblo Importado',
    SubdivisionName: 'Sector Feed',
    StateOrProvince: 'Pichincha',
    Country: 'EC',
    PublicRemarks: 'Casa con jardín en el valle, cerca del parque.',
    ListAgentEmail: agentEmail,
    ModificationTimestamp: at(i),
    // four listings have photos; the others none (the photos are made once each)
    Media: i <= 4 ? [{ MediaKey: `m-${i}`, MediaURL: photos.photo(i), Order: 1, MediaCategory: 'Photo' }] : [],
    ...over,
  });

  const resoSource = (over: Partial<SourceSettings> = {}) =>
    sourceFrom({ kind: 'reso', location: reso.url, token: reso.token, name: 'reso:test', photoHosts: [photos.origin], pageSize: 8, ...over });
  const run = (source: ReturnType<typeof sourceFrom>, options: RunOptions = {}): Promise<ImportReport> =>
    // the stand-in's faults count its calls from this run's first
    (reso.reset(), runImport)(
      server.db,
      source,
      { resoTiming: { backoffMs: 1, sleep: async (ms) => void waits.push(ms) }, log: (l) => void logs.push(l), cwd: dir, ...options },
      server.photos,
    );
  const row = async (key: string, source = 'reso:test') =>
    (
      await server.sql<{
        id: string;
        status: string;
        price: number;
        title: string;
        images: Array<{ url: string }>;
        square_feet: number;
        property_type: string;
        agent_id: string | null;
        description: string | null;
        listing_ref: string;
      }>(
        'select id::text as id, status, price::float8 as price, title, images, square_feet::float8 as square_feet, property_type, agent_id::text as agent_id, description, listing_ref from internal.listings where source = $1 and source_key = $2',
        [source, key],
      )
    )[0];
  const publicCount = async (source = 'reso:test') =>
    Number(
      (await server.sql<{ n: string }>("select count(*) as n from internal.listings where source = $1 and status = '1' and country_code = 'EC'", [source]))[0]
        ?.n,
    );
  const page = async (key: string) => {
    const r = await row(key);
    const res = await fetch(`${server.url}${listingPath(String(r?.id), r?.title, 'en')}`, { redirect: 'manual' });
    return { status: res.status, html: await res.text(), id: r?.id };
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(kind, {
      trustProxy: { hops: 1 },
      photosDir: join(dir, 'photos'),
      mail: { smtpUrl: smtp.url, intervalMs: 200, probeMs: 200, siteUrl: SITE, baseDelaySeconds: 0.2, maxDelaySeconds: 1 },
      alerts: { intervalSeconds: 0, settleSeconds: 0, teamInbox: 'equipo@expecuador.example' },
    });
    reso = await startResoStandIn();
    photos = await startPhotoHost({ width: 640, height: 427 });
    agentEmail = String((await server.sql<{ email: string }>("select email from public.agents where country_code = 'EC' order by id limit 1"))[0]?.email);
    for (let i = 1; i <= 20; i++) reso.listings.set(`RX-${i}`, record(i));
  }, 240_000);
  afterAll(() => stopAll(reso, photos, server, smtp));

  it('a first run reads every page (nextLink), waits as a 429 asks, retries a 500, maps, matches the agent and makes the photos', async () => {
    reso.faults.push({ page: 2, status: 429, headers: { 'Retry-After': '3' }, once: true }, { page: 3, status: 500, body: 'oops', once: true });
    const report = await run(resoSource());
    expect(report).toMatchObject({ outcome: 'done', mode: 'full', read: 20, new: 20, updated: 0, withdrawn: 0, quarantinedCount: 0 });
    expect(report.photos).toMatchObject({ fetched: 4, failed: 0 });
    // 20 listings at 8 a page: 3 pages, the 2nd asked twice (429) and the 3rd twice (500); then the keys
    expect(reso.requests.filter((r) => r.startsWith('/odata/Property?') && !r.includes('%24select=ListingKey'))).toHaveLength(5);
    expect(reso.requests[0]).toContain('%24expand=Media');
    expect(waits).toEqual([3000, 1]);
    expect(logs.some((l) => l.includes('429 Too Many Requests: waiting 3 s'))).toBe(true);
    expect(await publicCount()).toBe(20);

    const house = await row('RX-1');
    expect(house).toMatchObject({
      status: '1',
      price: 151000,
      square_feet: 139.4,
      property_type: 'house',
      title: 'Casa de 3 dormitorios en Sector Feed',
      listing_ref: 'MLS-1001',
    });
    expect(house?.agent_id).not.toBeNull();
    expect((await row('RX-3'))?.property_type).toBe('apartment');
    // the photo, re-hosted in every size and format, each served for a year
    const [photo] = house?.images ?? [];
    expect(photo?.url).toMatch(/^\/media\/photos\/[0-9a-f]{32}\/1024\.jpg$/);
    for (const file of ['320.avif', '640.webp', '1600.jpg']) {
      const res = await fetch(`${server.url}${photo?.url.replace('1024.jpg', () => file)}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe(file.endsWith('avif') ? 'image/avif' : file.endsWith('webp') ? 'image/webp' : 'image/jpeg');
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
    // the JPEGs were made at once; an AVIF or WebP size when first asked for, then kept
    const stored = join(dir, 'photos', photo?.url.split('/')[3] ?? '');
    expect(existsSync(join(stored, '320.jpg')) && existsSync(join(stored, '320.avif')) && existsSync(join(stored, '640.webp'))).toBe(true);
    expect(existsSync(join(stored, '1024.avif'))).toBe(false);
    // a size that is not ours is not made
    expect((await fetch(`${server.url}${photo?.url.replace('1024.jpg', () => '999.avif')}`)).status).toBe(404);
    // the listing page offers them as <picture>
    const { html } = await page('RX-1');
    expect(html).toMatch(/<picture><source type="image\/avif" srcset="[^"]*\/media\/photos\/[0-9a-f]{32}\/320\.avif 320w/i);
    const [{ high_water: mark } = { high_water: '' }] = await server.sql<{ high_water: string }>(
      "select high_water from internal.import_sources where name = 'reso:test'",
    );
    expect(new Date(mark).toISOString()).toBe(at(20));
    const [kept] = await server.sql<{ outcome: string; new: number; report: ImportReport }>(
      'select outcome, new, report from internal.import_runs where id = $1',
      [report.run],
    );
    expect(kept).toMatchObject({ outcome: 'done', new: 20 });
    expect(kept?.report.read).toBe(20);
  });

  it('a re-run changes nothing and fetches no photo again, incremental or full', async () => {
    const before = await server.sql('select id, updated_at from internal.listings where source = $1 order by id', ['reso:test']);
    const hits = photos.hits.get('/photos/1.jpg');
    const incremental = await run(resoSource());
    expect(incremental.mode).toBe('incremental');
    // the overlap reads the last changed listing again: unchanged
    expect(incremental).toMatchObject({ outcome: 'done', new: 0, updated: 0, withdrawn: 0, unchanged: 1 });
    expect(reso.requests.filter((r) => r.startsWith('/odata/Property?')).at(-1)).toContain(
      `ModificationTimestamp%20gt%20${encodeURIComponent(new Date(Date.parse(at(20)) - 300_000).toISOString().replace(/\.\d{3}Z$/, 'Z'))}`,
    );
    const full = await run(resoSource(), { full: true });
    expect(full).toMatchObject({ outcome: 'done', mode: 'full', new: 0, updated: 0, withdrawn: 0, unchanged: 20 });
    expect(await server.sql('select id, updated_at from internal.listings where source = $1 order by id', ['reso:test'])).toEqual(before);
    expect(photos.hits.get('/photos/1.jpg')).toBe(hits);
  });

  it('an incremental run: a price drop is recorded and mailed to an alert, a closed listing answers 410, a new one arrives; relisted, it is back under its id', async () => {
    // an alert for the imported place, confirmed
    const email = `import-${kind}@example.org`;
    const sub = await fetch(`${server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders('10.9.0.2') },
      body: JSON.stringify({ action: 'subscribe', email, filters: { city: 'Pueblo Importado' }, frequency: 'instant', lang: 'en' }),
    });
    expect(sub.status).toBe(200);
    const confirm: ReceivedMail = await until(() => smtp.mails.find((m) => m.envelopeTo.includes(email)));
    const token = /\/alerts\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(confirm.text)?.[1];
    expect((await fetch(`${server.url}/alerts/confirm?token=${token}`, { method: 'POST' })).status).toBe(200);

    reso.listings.set('RX-5', record(5, { ListPrice: 140_000, ModificationTimestamp: at(30) }));
    reso.listings.set('RX-6', record(6, { StandardStatus: 'Closed', ModificationTimestamp: at(31) }));
    reso.listings.set('RX-21', record(21, { ModificationTimestamp: at(32) }));
    const before = await page('RX-6');
    expect(before.status).toBe(200);
    const report = await run(resoSource());
    expect(report).toMatchObject({ outcome: 'done', mode: 'incremental', new: 1, updated: 2, withdrawn: 1 });
    const cut = await row('RX-5');
    expect(cut?.price).toBe(140_000);
    expect(
      await server.sql('select old_price::float8 as old, new_price::float8 as new from internal.listing_price_changes where listing_id = $1', [cut?.id]),
    ).toEqual([{ old: 155_000, new: 140_000 }]);
    await server.runAlerts();
    const alert = await until(() => smtp.mails.find((m) => m.envelopeTo.includes(email) && /price drop/.test(m.subject)));
    expect(alert.text).toContain('$140,000 (was $155,000)');

    const gone = await page('RX-6');
    expect(gone.status).toBe(410);
    expect(await publicCount()).toBe(20);

    reso.listings.set('RX-6', record(6, { StandardStatus: 'Active', ModificationTimestamp: at(33) }));
    expect(await run(resoSource())).toMatchObject({ outcome: 'done', updated: 1, withdrawn: 0 });
    const back = await page('RX-6');
    expect(back.status).toBe(200);
    expect(back.id).toBe(before.id);
  });

  it('a run that breaks changes nothing: a 500 midway, an HTML page for JSON, a refused token; an empty feed withdraws nothing', async () => {
    const activeBefore = await publicCount();
    reso.listings.set('RX-7', record(7, { ListPrice: 99_000, ModificationTimestamp: at(40) }));
    reso.listings.set('RX-8', record(8, { ListPrice: 98_000, ModificationTimestamp: at(41) }));
    // page 1 (RX-7) comes, page 2 fails every time
    reso.faults.push({ from: 2, status: 500, body: 'down' });
    const midway = await run(resoSource({ pageSize: 1 }));
    reso.faults.length = 0;
    expect(midway.outcome).toBe('failed');
    expect(midway.message).toMatch(/HTTP 500 \(after 4 retries\): nothing was changed or withdrawn/);
    expect((await row('RX-7'))?.price).toBe(157_000);

    reso.faults.push({
      page: 1,
      status: 200,
      body: '<!doctype html><html><body>Please log in</body></html>',
      headers: { 'Content-Type': 'text/html' },
      once: true,
    });
    const html = await run(resoSource());
    expect(html.outcome).toBe('failed');
    expect(html.message).toContain('answered an HTML page, not JSON');

    const refused = await run(resoSource({ token: 'wrong' }));
    expect(refused).toMatchObject({ outcome: 'failed', message: expect.stringContaining('refused the token (HTTP 401)') });
    expect((await row('RX-7'))?.price).toBe(157_000);

    // the service answers no listings and no keys: nothing is withdrawn
    reso.faults.push({ page: 1, status: 200, body: '{"value":[]}', once: true }, { keys: true, page: 1, status: 200, body: '{"value":[]}', once: true });
    const empty = await run(resoSource(), { full: true });
    expect(empty.outcome).toBe('empty');
    expect(empty.message).toBe('the feed had no listings: nothing was changed or withdrawn');
    expect(await publicCount()).toBe(activeBefore);
    // once the service is back, the changes come
    expect(await run(resoSource())).toMatchObject({ outcome: 'done', updated: 2 });
    expect((await row('RX-7'))?.price).toBe(99_000);
  });

  it('a run that would withdraw too much withdraws nothing and says so; allowed, it does', async () => {
    const active = await publicCount();
    for (const i of [9, 10, 11, 12, 13, 14]) reso.listings.delete(`RX-${i}`);
    const held = await run(resoSource(), { full: true });
    expect(held.outcome).toBe('held');
    expect(held).toMatchObject({ withdrawn: 0, held: 6 });
    expect(held.message).toContain(`6 of the source's ${active} active listings would have left the market, more than 10%: none was withdrawn`);
    expect(await publicCount()).toBe(active);
    const allowed = await run(resoSource(), { full: true, allowWithdrawals: true });
    expect(allowed).toMatchObject({ outcome: 'done', withdrawn: 6 });
    expect(await publicCount()).toBe(active - 6);
    expect((await page('RX-9')).status).toBe(410);
  });

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
    writeFileSync(join(dir, 'private.csv'), `ListingKey,ListPrice,UnparsedAddress,City,Photos\nP-1,100000,Calle 9,Pueblo CSV,${photos.photo(12)}\n`);
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
    expect(await run(sourceFrom({ kind: 'reso-json', location: 'feed.json' }))).toMatchObject({ outcome: 'done', unchanged: 2, withdrawn: 1 });

    const property = (id: string, freq = 'sale', price = 185000) =>
      `<property><id>${id}</id><date>2026-11-20 10:00:00</date><ref>R-${id}</ref><price>${price}</price><currency>USD</currency><price_freq>${freq}</price_freq><type>Villa</type><town>Olón</town><province>Santa Elena</province><location_detail>Playa Bruja</location_detail><beds>3</beds><baths>2</baths><pool>1</pool><desc><es>Cerca de la playa</es></desc></property>`;
    const kyero = (...props: string[]) => `<?xml version="1.0" encoding="UTF-8"?>\n<root><kyero><feed_version>3</feed_version></kyero>${props.join('')}</root>`;
    // a rent by the month is a rental (issue 46); a let by the night stays out, with its reason
    writeFileSync(join(dir, 'kyero.xml'), kyero(property('K-1'), property('K-2'), property('K-3', 'month', 1450), property('K-4', 'night', 120)));
    const k = await run(sourceFrom({ kind: 'kyero', location: 'kyero.xml' }));
    expect(k).toMatchObject({
      outcome: 'done',
      new: 3,
      quarantinedCount: 1,
      quarantined: [{ key: 'K-4', reasons: ['a holiday let (rent Nightly): this site lists homes to live in'] }],
    });
    expect(await row('K-1', 'kyero:kyero.xml')).toMatchObject({ status: '1', property_type: 'house', title: 'Casa de 3 dormitorios en Playa Bruja' });
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
    expect(await run(sourceFrom({ kind: 'kyero', location: 'kyero.xml' }))).toMatchObject({ outcome: 'done', withdrawn: 2, unchanged: 1 });
    expect(await publicCount('kyero:kyero.xml')).toBe(1);
  });

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
    oh('OH-1', 'RX-7', soon, 2, { OpenHouseRemarks: '<b>Café</b> y recorrido <script>x()</script>', LivestreamOpenHouseURL: 'https://live.example.org/rx7' });
    oh('OH-2', 'RX-7', soon + 10 * DAY, 2, { LivestreamOpenHouseURL: 'javascript:alert(1)', AppointmentRequiredYN: true });
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
    expect(reso.requests.some((r) => r.startsWith('/odata/OpenHouse?') && decodeURIComponent(r).includes('$filter=OpenHouseEndTime gt '))).toBe(true);

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
    expect(openHouses.map((o) => new Date(String(o.starts_at)).toISOString())).toEqual([iso(soon), iso(soon + 10 * DAY)]);
    expect(openHouses[0]).toMatchObject({ remarks: 'Café y recorrido', livestream_url: 'https://live.example.org/rx7', appointment_required: false });
    expect(openHouses[1]).toMatchObject({ livestream_url: null, appointment_required: true });
    expect(await rpc('listing_open_houses', { listing_id: Number(rx8?.id) })).toEqual([]);
    // "open house this week": RX-7 (its next is in two days), not RX-8
    const thisWeek = async () =>
      (await rpc('search_listings', { filters: { city: 'Pueblo Importado', open_house: true }, page_size: 100 })).map((r) => String(r.id));
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
    expect(new ICAL.Event(calendar.getFirstSubcomponent('vevent') as ICAL.Component).startDate.toJSDate().toISOString()).toBe(iso(soon));
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
    expect((await server.sql<{ copy: string }>('select open_houses::text as copy from internal.listings where id = $1', [rx7?.id]))[0]?.copy).not.toBe('{}');
    expect(await rpc('listing_open_houses', { listing_id: Number(rx7?.id) })).toEqual([]);
    expect(await thisWeek()).toEqual([]);
    expect((await page('RX-7')).html).not.toContain('open-houses-heading');
    // and the hourly tidying empties the copy
    await server.sql('select internal.forget_past_open_houses()');
    expect((await server.sql<{ copy: string }>('select open_houses::text as copy from internal.listings where id = $1', [rx7?.id]))[0]?.copy).toBe('{}');
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
    expect(stored).toEqual({ hoa_fee: 120, parking_spaces: 2, storage_unit: true, furnished: 'partly', pets_allowed: true });
    const res = await fetch(`${server.url}/rest/v1/listings?select=hoa_fee,parking_spaces,storage_unit,furnished,pets_allowed&id=eq.${rx16?.id}`, {
      headers: { apikey: 'anon-key' },
    });
    expect(await res.json()).toEqual([{ hoa_fee: 120, parking_spaces: 2, storage_unit: true, furnished: 'partly', pets_allowed: true }]);
    // the same again: unchanged; the alícuota changed: an update
    expect(await run(resoSource())).toMatchObject({ updated: 0 });
    reso.listings.set(
      'RX-16',
      record(16, { AssociationFee: 150, ParkingTotal: 2, StorageYN: 'Y', Furnished: 'Partially', PetsAllowed: ['Dogs OK'], ModificationTimestamp: at(61) }),
    );
    expect(await run(resoSource())).toMatchObject({ updated: 1 });
    expect((await server.sql<{ fee: number }>('select hoa_fee::float8 as fee from internal.listings where id = $1', [rx16?.id]))[0]?.fee).toBe(150);
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
      record(118, { PropertyType: 'Residential Lease', LeaseAmount: 75, LeaseAmountFrequency: 'Nightly', ModificationTimestamp: at(71) }),
    );
    const report = await run(resoSource());
    expect(report).toMatchObject({ outcome: 'done', new: 1 });
    expect(report.quarantined).toContainEqual({ key: 'RX-118', reasons: ['a holiday let (rent Nightly): this site lists homes to live in'] });
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
    const sub = await fetch(`${server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders('10.9.0.3') },
      body: JSON.stringify({ action: 'subscribe', email, filters: { city: 'Pueblo Importado' }, frequency: 'instant', lang: 'en' }),
    });
    expect(sub.status).toBe(200);
    const confirm: ReceivedMail = await until(() => smtp.mails.find((m) => m.envelopeTo.includes(email)));
    const token = /\/alerts\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(confirm.text)?.[1];
    expect((await fetch(`${server.url}/alerts/confirm?token=${token}`, { method: 'POST' })).status).toBe(200);
    // its mark is now; the feed's market date a day before it (midnight, as feeds write dates)
    const yesterday = new Date(clockNow() - 24 * HOUR).toISOString().slice(0, 10);
    reso.listings.set('RX-30', record(30, { OnMarketDate: yesterday, ModificationTimestamp: new Date(clockNow()).toISOString() }));
    expect(await run(resoSource())).toMatchObject({ outcome: 'done', new: 1 });
    const imported = await server.sql<{ id: string; listed: string; appeared: string }>(
      "select id::text as id, listed_at::text as listed, appeared_at::text as appeared from internal.listings where source = 'reso:test' and source_key = 'RX-30'",
    );
    expect(Date.parse(String(imported[0]?.listed))).toBeLessThan(clockNow() - 12 * HOUR);
    expect(clockNow() - Date.parse(String(imported[0]?.appeared))).toBeLessThan(5 * 60_000);
    const mailsFor = () => smtp.mails.filter((m) => m.envelopeTo.includes(email) && m.text.includes(`/properties/${imported[0]?.id}-`));
    await server.runAlerts();
    await server.drainOutbox();
    await until(() => mailsFor().length === 1, 15_000, 'the alert with the imported listing');
    // once: the next runs find nothing new
    await server.runAlerts();
    await server.drainOutbox();
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsFor()).toHaveLength(1);
  });
});
