/**
 * The sitemaps as crawlers read them (docs/decisions.md #18): robots.txt names the index, the
 * index lists files of at most so many addresses (400, set for the test), both languages stand as
 * alternates, and every address answers 200 to a crawler that waits as it is told; past 50,000
 * addresses a file (26,000 listings on PostgreSQL) the index splits them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE, startCrawledSite } from '../support/crawled-pages.ts';
import { patientFetch } from '../support/patient-fetch.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

describe('the sitemaps as crawlers read them', () => {
  let server: TestServer, close: (() => Promise<void>) | undefined;
  beforeAll(async () => ({ server, close } = await startCrawledSite()));
  afterAll(() => close?.());

  it('the sitemaps: an index of files of at most 400 addresses (set for the test), both languages as alternates, and every address answers 200', async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${server.url}/sitemap.xml`);
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(index).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    const [{ n: active } = { n: 0 }] = await server.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE}`,
    );
    expect(files.length).toBe(2 + Math.ceil((active * 2) / 400));
    const urls: string[] = [];
    const ends = new Set<string>();
    let listingUrls = 0;
    for (const file of files) {
      const res = await fetch(file);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const xml = await res.text();
      const entries = [...xml.matchAll(/<url>(.*?)<\/url>/g)].map((m) => m[1] as string);
      expect(entries.length, file).toBeLessThanOrEqual(400);
      for (const entry of [entries[0], entries.at(-1)]) ends.add(/<loc>([^<]+)<\/loc>/.exec(entry ?? '')?.[1] ?? '');
      for (const entry of entries) {
        const loc = /<loc>([^<]+)<\/loc>/.exec(entry)?.[1] as string;
        urls.push(loc);
        expect(entry).toContain('hreflang="en"');
        expect(entry).toContain('hreflang="es"');
        expect(entry).toContain('hreflang="x-default"');
        if (loc.includes('/properties/')) {
          listingUrls++;
          expect(entry).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
        }
      }
    }
    expect(listingUrls).toBe(active * 2);
    expect(new Set(urls).size).toBe(urls.length);
    // the addresses answer 200 (no redirect, no error), a few at a time: every page that is not a
    // listing's, and one listing address in 21 in each language (both ends of every file included),
    // since the listing pages and the sitemaps read the same rule (internal.listings.is_public)
    const failures: string[] = [];
    const checked = urls.filter((url, i) => !url.includes('/properties/') || i % 21 === 0 || ends.has(url));
    const queue = [...checked];
    // a crawler as search engines are: a few connections, and it waits as long as it is told to
    // (429 or 503 with Retry-After) before it asks again, a few times at most
    const waits: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let url = queue.shift(); url; url = queue.shift()) {
          const res = await patientFetch(url, { method: 'HEAD', redirect: 'manual' }, waits);
          if (res.status !== 200) failures.push(`${res.status} ${url}`);
        }
      }),
    );
    // said, so that a slow run shows how often (a 503 would be the server's fault: none is expected)
    if (waits.length)
      console.log(
        `[pages-sitemaps.test] the crawler was asked to wait ${waits.length} times: ${waits.filter((w) => w.startsWith('429')).length} × 429, ${waits.filter((w) => w.startsWith('503')).length} × 503 (${waits.slice(0, 5).join(', ')})`,
      );
    expect(failures).toEqual([]);
    expect(checked.filter((url) => url.includes('/properties/')).length).toBeGreaterThan((active * 2) / 21);
    expect(urls.length).toBeGreaterThan(active * 2);
  }, 240_000);
});

describe('sitemaps at 26,000 listings, 52,000 addresses (PostgreSQL)', () => {
  let server: TestServer;
  let active = 0;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    const [{ n } = { n: 0 }] = await server.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE}`,
    );
    // more addresses than one sitemap file may hold (50,000): the index splits them
    const more = 26_000 - n;
    // copies of the seed's active listings, each with a title of its own
    await server.sql(
      `insert into internal.listings (title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon, description, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone, agent_picture, created_at)
       select l.title || ' ' || g, l.address, l.price + g, l.bedrooms, l.bathrooms, l.square_feet, l.property_type, l.city, l.state, l.images, l.geo_lat, l.geo_lon, l.description, '1', 'EC', l.agent_id, l.agent_first_name, l.agent_last_name, l.agent_email, l.agent_phone, l.agent_picture, l.created_at
         from (select * from internal.listings where ${ACTIVE}) l cross join generate_series(1, $1::int / ${Math.max(1, n)} + 1) g
        limit $1`,
      [more],
    );
    active =
      (await server.sql<{ n: number }>(`select count(*)::int as n from internal.listings where ${ACTIVE}`))[0]?.n ?? 0;
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  it('the index lists enough files that none holds more than 50,000 addresses or 50 MB; sampled addresses of every file answer 200', async () => {
    expect(active).toBe(26_000);
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    expect(files.filter((f) => /listings-\d+\.xml$/.test(f))).toHaveLength(2);
    let listingUrls = 0;
    for (const file of files) {
      const res = await fetch(file);
      expect(res.status, file).toBe(200);
      const xml = Buffer.from(await res.arrayBuffer());
      expect(xml.length, file).toBeLessThanOrEqual(50 * 1024 * 1024);
      const locs = [...xml.toString('utf8').matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);
      expect(locs.length, file).toBeLessThanOrEqual(50_000);
      if (file.includes('/listings-')) listingUrls += locs.length;
      // the first, the last and 20 spread between
      const sample = [
        ...new Set([
          0,
          locs.length - 1,
          ...Array.from({ length: 20 }, (_, i) => Math.floor(((i + 1) * locs.length) / 22)),
        ]),
      ].map((i) => locs[i] as string);
      for (const url of sample)
        expect((await fetch(url, { method: 'HEAD', redirect: 'manual' })).status, url).toBe(200);
    }
    expect(listingUrls).toBe(52_000);
  }, 300_000);
});
