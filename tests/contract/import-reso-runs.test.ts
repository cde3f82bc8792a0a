/**
 * Runs of a RESO Web API import (docs/import.md) against stand-ins of the servers it talks to (a
 * RESO Web API written here, a photo host) and our real server over PostgreSQL, with a real SMTP
 * server for the alerts (tests/support/importer.ts): a first run (paging, a 429 with Retry-After,
 * a 500 once, photos made), a re-run that changes nothing, an incremental run (a price drop mailed
 * by the alerts, a withdrawal answering 410, a relisting under the same id), runs that break (a 500
 * midway, an empty answer, HTML for JSON, a refused token) and change nothing, and a run that would
 * withdraw too much.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../server/import/run.ts';
import type { PhotoHost, ResoStandIn } from '../support/feed-stand-ins.ts';
import { at, importer } from '../support/importer.ts';
import type { TestServer } from '../support/servers.ts';
import type { TestSmtp } from '../support/smtp.ts';
import { until } from '../support/until.ts';

describe.each(['postgres'] as const)('imports on %s: runs of a RESO Web API', (kind) => {
  const feed = importer();
  let server: TestServer, smtp: TestSmtp, reso: ResoStandIn, photos: PhotoHost;
  beforeAll(async () => ({ server, smtp, reso, photos } = await feed.start(kind)), 240_000);
  afterAll(() => feed.stop());
  const { dir, waits, logs, record, resoSource, run, row, publicCount, page, confirmedAlert } = feed;

  it('a first run reads every page (nextLink), waits as a 429 asks, retries a 500, maps, matches the agent and makes the photos', async () => {
    reso.faults.push(
      { page: 2, status: 429, headers: { 'Retry-After': '3' }, once: true },
      { page: 3, status: 500, body: 'oops', once: true },
    );
    const report = await run(resoSource());
    expect(report).toMatchObject({
      outcome: 'done',
      mode: 'full',
      read: 20,
      new: 20,
      updated: 0,
      withdrawn: 0,
      quarantinedCount: 0,
    });
    expect(report.photos).toMatchObject({ fetched: 4, failed: 0 });
    // 20 listings at 8 a page: 3 pages, the 2nd asked twice (429) and the 3rd twice (500); then the keys
    expect(
      reso.requests.filter((r) => r.startsWith('/odata/Property?') && !r.includes('%24select=ListingKey')),
    ).toHaveLength(5);
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
      expect(res.headers.get('content-type')).toBe(
        file.endsWith('avif') ? 'image/avif' : file.endsWith('webp') ? 'image/webp' : 'image/jpeg',
      );
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
    // the JPEGs were made at once; an AVIF or WebP size when first asked for, then kept
    const stored = join(dir, 'photos', photo?.url.split('/')[3] ?? '');
    expect(
      existsSync(join(stored, '320.jpg')) &&
        existsSync(join(stored, '320.avif')) &&
        existsSync(join(stored, '640.webp')),
    ).toBe(true);
    expect(existsSync(join(stored, '1024.avif'))).toBe(false);
    // a size that is not ours is not made
    expect((await fetch(`${server.url}${photo?.url.replace('1024.jpg', () => '999.avif')}`)).status).toBe(404);
    // the listing page offers them as <picture>
    const { html } = await page('RX-1');
    expect(html).toMatch(
      /<picture><source type="image\/avif" srcset="[^"]*\/media\/photos\/[0-9a-f]{32}\/320\.avif 320w/i,
    );
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
    const before = await server.sql('select id, updated_at from internal.listings where source = $1 order by id', [
      'reso:test',
    ]);
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
    expect(
      await server.sql('select id, updated_at from internal.listings where source = $1 order by id', ['reso:test']),
    ).toEqual(before);
    expect(photos.hits.get('/photos/1.jpg')).toBe(hits);
  });

  it('an incremental run: a price drop is recorded and mailed to an alert, a closed listing answers 410, a new one arrives; relisted, it is back under its id', async () => {
    // an alert for the imported place, confirmed
    const email = `import-${kind}@example.org`;
    await confirmedAlert(email, '10.9.0.2');

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
      await server.sql(
        'select old_price::float8 as old, new_price::float8 as new from internal.listing_price_changes where listing_id = $1',
        [cut?.id],
      ),
    ).toEqual([{ old: 155_000, new: 140_000 }]);
    await server.runAlerts();
    const alert = await until(() =>
      smtp.mails.find((m) => m.envelopeTo.includes(email) && /price drop/.test(m.subject)),
    );
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
    expect(refused).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining('refused the token (HTTP 401)'),
    });
    expect((await row('RX-7'))?.price).toBe(157_000);

    // the service answers no listings and no keys: nothing is withdrawn
    reso.faults.push(
      { page: 1, status: 200, body: '{"value":[]}', once: true },
      { keys: true, page: 1, status: 200, body: '{"value":[]}', once: true },
    );
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
    expect(held.message).toContain(
      `6 of the source's ${active} active listings would have left the market, more than 10%: none was withdrawn`,
    );
    expect(await publicCount()).toBe(active);
    const allowed = await run(resoSource(), { full: true, allowWithdrawals: true });
    expect(allowed).toMatchObject({ outcome: 'done', withdrawn: 6 });
    expect(await publicCount()).toBe(active - 6);
    expect((await page('RX-9')).status).toBe(410);
  });
});
