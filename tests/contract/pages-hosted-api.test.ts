/**
 * Pages that read their data from another server's REST API (a hosted project: SITE_API_URL,
 * SITE_API_KEY) and are published under SITE_URL (docs/decisions.md #18), as crawlers read them
 * (tests/support/crawled-pages.ts): their canonical, Open Graph, JSON-LD, robots.txt and sitemaps
 * name the public address; the deployment's map tiles reach every element with a map; a page says
 * 503 while the API is away and comes back with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/server.ts';
import { type Dict } from '../../core/translate.ts';
import { listingPath } from '../../core/routes.ts';
import en from '../../core/locales/en.json' with { type: 'json' };
import { ACTIVE, crawl, jsonLd, link, lookup, meta } from '../support/crawled-pages.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { migratedDatabase } from '../support/postgres.ts';

/** a deployment's tile provider (MAP_TILES_URL, MAP_TILES_ATTRIBUTION), its credit as providers write it */
const TILES = {
  url: 'https://tiles.example.com/streets/{z}/{x}/{y}.png?key=k"1&v=2',
  attribution:
    '&copy; <a href="https://tiles.example.com/terms">Example Tiles</a> &copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};

describe('pages published under SITE_URL that read a hosted REST API (SITE_API_URL, SITE_API_KEY)', () => {
  let api: TestServer;
  let site: RunningServer;
  let own: Awaited<ReturnType<typeof migratedDatabase>> | undefined;
  let cacheDir: string;

  beforeAll(async () => {
    api = await startTestServer('postgres');
    cacheDir = mkdtempSync(join(tmpdir(), 'exp-og-'));
    // the site's own database holds one listing; its pages show the API's data
    own = await migratedDatabase();
    site = await startServer({
      db: own.db,
      port: 0,
      seedListings: 1,
      // (its mails to a throwaway outbox: never the repository's .data)
      mail: { outboxDir: mkdtempSync(join(tmpdir(), 'exp-outbox-')) },
      site: {
        url: 'https://expecuador.example',
        apiUrl: api.url,
        apiKey: 'public-anon-key',
        imageCacheDir: cacheDir,
        mapTiles: TILES,
      },
    });
    await site.ready;
  });
  afterAll(async () => {
    await site?.close();
    await own?.close();
    await api?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('canonical, Open Graph, JSON-LD, robots.txt and the sitemaps name the public address; the data is the API', async () => {
    const [row] = await api.sql<{ id: string; title: string }>(
      `select id::text as id, title from internal.listings where ${ACTIVE} order by id desc limit 1`,
    );
    const path = listingPath(String(row?.id), row?.title, 'es');
    const page = await crawl(`${site.url}${path}`);
    expect(page.status).toBe(200);
    expect(page.doc.querySelector('h1')?.textContent).toBe(row?.title);
    expect(link(page.doc, 'canonical')).toBe(`https://expecuador.example${path}`);
    expect(meta(page.doc, 'og:url')).toBe(`https://expecuador.example${path}`);
    expect(meta(page.doc, 'og:image')).toMatch(/^https:\/\/expecuador\.example\/og\/listings\/\d+\.jpg\?v=/);
    // photos are the API's media
    expect(page.doc.querySelector('.listing__photo img')?.getAttribute('src')).toMatch(
      new RegExp(`^${api.url}/media/`),
    );
    expect((jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing') as { url: string }).url).toBe(
      `https://expecuador.example${path}`,
    );
    const image = await fetch(`${site.url}${new URL(meta(page.doc, 'og:image') as string).pathname}`);
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(1200);
    expect(await (await fetch(`${site.url}/robots.txt`)).text()).toContain(
      'Sitemap: https://expecuador.example/sitemap.xml',
    );
    const index = await (await fetch(`${site.url}/sitemap.xml`)).text();
    expect(index).toContain('<loc>https://expecuador.example/sitemaps/listings-1.xml</loc>');
    const listings = await (await fetch(`${site.url}/sitemaps/listings-1.xml`)).text();
    expect(listings).toContain(`<loc>https://expecuador.example${path}</loc>`);
    expect((await crawl(`${site.url}/es/about`)).doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      'https://expecuador.example/es/about',
    );
  });

  it("every element that shows a map takes the deployment's tile provider and its credit, in both languages; the pages without a map have none", async () => {
    const [row] = await api.sql<{ id: string; title: string; agent_id: string }>(
      `select id::text as id, title, agent_id::text as agent_id from internal.listings where ${ACTIVE} order by id desc limit 1`,
    );
    const pages: Array<[string, string]> = [
      ['/search-properties', 'exp-property-search'],
      ['/es/search-properties/cumbaya', 'exp-property-search'],
      [listingPath(String(row?.id), row?.title, 'en'), 'exp-property-detail'],
      ['/sell', 'exp-home-valuation'],
      ['/es', 'exp-featured-listings'],
      ['/saved', 'exp-saved-listings'],
      [`/findanagent/${row?.agent_id}`, 'exp-agent-profile'],
    ];
    for (const [path, tag] of pages) {
      const page = await crawl(`${site.url}${path}`);
      expect(page.status, path).toBe(200);
      const el = page.doc.querySelector(tag);
      expect(el?.getAttribute('tile-url'), path).toBe(TILES.url);
      expect(el?.getAttribute('tile-attribution'), path).toBe(TILES.attribution);
    }
    const about = await crawl(`${site.url}/about`);
    expect(about.html).not.toContain('tile-url');
  });

  it('when the API is away, a page says so with 503 and Retry-After, and comes back with it', async () => {
    const [row] = await api.sql<{ id: string; title: string }>(
      `select id::text as id, title from internal.listings where ${ACTIVE} order by id limit 1`,
    );
    const path = listingPath(String(row?.id), row?.title, 'en');
    await api.sql('revoke select on public.listings from anon');
    try {
      const down = await crawl(`${site.url}${path}`);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('10');
      expect(down.headers.get('cache-control')).toBe('no-store');
      expect(down.doc.querySelector('h1')?.textContent).toBe(lookup(en as Dict, 'errors.somethingWentWrong'));
    } finally {
      await api.sql('grant select on public.listings to anon');
    }
    // the home page's search does not need the API to go on: its text is searched as it is (the search reads its data itself)
    await api.sql('revoke execute on function public.place_suggestions(text, integer) from anon');
    try {
      const res = await fetch(`${site.url}/search-properties?q=Cumbay%C3%A1&operation=rent`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/search-properties?operation=rent&city=Cumbay%C3%A1');
      expect(res.headers.get('cache-control')).toBe('no-store');
    } finally {
      await api.sql('grant execute on function public.place_suggestions(text, integer) to anon');
    }
    expect((await crawl(`${site.url}${path}`)).status).toBe(200);
  });
});
