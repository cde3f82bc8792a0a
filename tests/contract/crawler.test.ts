/**
 * Every page as a crawler and a link preview read it (docs/decisions.md #24), no JavaScript run:
 *  - every indexable page, in English and in Spanish, has Open Graph (title, description, locale,
 *    an image that is a 1200x630 JPEG under 250 KB and answers 200) and a Twitter card;
 *  - every JSON-LD block the site writes (the listing and agent pages, the search's list) is what
 *    schema.org allows, as the TypeScript compiler checks it against schema-dts;
 *  - every kind of page the server renders conforms to HTML (html-validate, recommended rules), and
 *    every text key it writes is among the texts its script downloads to translate it (site/lib/texts.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingPath, localizedPath } from '../../core/routes.ts';
import { pageTextsIn } from '../../site/lib/texts.ts';
import { crawl as crawlAs, CRAWLERS, jsonLd, lookup, meta } from '../support/crawled-pages.ts';
import { htmlProblems } from '../support/html-validate.ts';
import { jsonLdTypeErrorsByBlock } from '../support/json-ld-types.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

const crawl = (url: string) => crawlAs(url, CRAWLERS.whatsapp);

/** The text keys a page's static texts are written from: `data-i18n`, and each of `data-i18n-attr`'s `attribute:key`. */
const i18nKeys = (doc: Document) => [
  ...[...doc.querySelectorAll('[data-i18n]')].map((el) => el.getAttribute('data-i18n') ?? ''),
  ...[...doc.querySelectorAll('[data-i18n-attr]')].flatMap((el) =>
    (el.getAttribute('data-i18n-attr') ?? '').split(';').map((pair) => pair.split(':')[1]?.trim() ?? ''),
  ),
];

describe('the site as crawlers and link previews read it', () => {
  let server: TestServer;
  let cacheDir: string;
  let listing: string;
  let gone: string;
  let agent: string;

  beforeAll(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'exp-crawler-'));
    server = await startTestServer('postgres', { site: { imageCacheDir: cacheDir } });
    const [row] = await server.sql<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where status = '1' and country_code = 'EC' and title is not null and agent_id is not null order by id limit 1",
    );
    const [old] = await server.sql<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where status <> '1' and country_code = 'EC' order by id limit 1",
    );
    const [person] = await server.sql<{ id: string }>(
      "select id::text as id from public.agents where country_code = 'EC' and about is not null and locations_served is not null order by id limit 1",
    );
    listing = listingPath(String(row?.id), row?.title);
    gone = listingPath(String(old?.id), old?.title);
    agent = `/findanagent/${person?.id}`;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const indexable = () => [
    '/',
    '/search-properties',
    '/search-properties/cumbaya',
    '/search-properties/guayaquil',
    '/findanagent',
    '/join',
    '/about',
    listing,
    agent,
    '/market',
    '/market/quito',
    '/market/provincia/guayas',
    '/privacy',
    '/projects',
    '/projects/altos-de-la-carolina',
  ];
  // (a page whose Spanish address says it in Spanish is crawled there: /es/privacidad)
  const inBoth = (paths: string[]) =>
    paths.flatMap((p) => [p, /^\/[a-z/-]*$/.test(p) ? localizedPath(p, 'es') : `/es${p}`]);

  it('every indexable page, en and es, has og:title, og:description, og:locale, og:image (a 1200x630 JPEG under 250 KB) and a Twitter card', async () => {
    const images = new Map<string, string>();
    for (const path of inBoth(indexable())) {
      const page = await crawl(`${server.url}${path}`);
      expect(page.status, path).toBe(200);
      const lang = path.startsWith('/es') ? 'es' : 'en';
      expect(meta(page.doc, 'og:title'), path).toBeTruthy();
      expect(meta(page.doc, 'og:description')?.length, path).toBeGreaterThan(30);
      expect(meta(page.doc, 'og:locale'), path).toBe(lang === 'es' ? 'es_EC' : 'en_US');
      expect(meta(page.doc, 'og:url'), path).toBe(`${server.url}${path}`);
      expect(meta(page.doc, 'twitter:card'), path).toBe('summary_large_image');
      expect(
        [meta(page.doc, 'og:image:width'), meta(page.doc, 'og:image:height'), meta(page.doc, 'og:image:type')],
        path,
      ).toEqual(['1200', '630', 'image/jpeg']);
      expect(meta(page.doc, 'og:image:alt')?.length, path).toBeGreaterThan(3);
      const image = meta(page.doc, 'og:image') as string;
      expect(image, path).toMatch(new RegExp(`^${server.url}/og/`));
      expect(meta(page.doc, 'twitter:image'), path).toBe(image);
      images.set(path, image);
      const res = await fetch(image, { headers: { 'User-Agent': 'facebookexternalhit/1.1' } });
      expect(res.status, image).toBe(200);
      expect(res.headers.get('content-type'), image).toBe('image/jpeg');
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length, image).toBeLessThan(250 * 1024);
      const info = await sharp(body).metadata();
      expect([info.format, info.width, info.height], image).toEqual(['jpeg', 1200, 630]);
    }
    // a page's preview is in its own language: the site's pages' images differ between en and es
    for (const path of ['/', '/about', '/search-properties/cumbaya'])
      expect(images.get(path), path).not.toBe(images.get(path === '/' ? '/es' : `/es${path}`));
    // and a place shows its own picture: the coast, not the capital
    const coast = await sharp(
      Buffer.from(await (await fetch(images.get('/search-properties/guayaquil') as string)).arrayBuffer()),
    ).stats();
    const capital = await sharp(
      Buffer.from(await (await fetch(images.get('/search-properties/cumbaya') as string)).arrayBuffer()),
    ).stats();
    expect(Math.abs((coast.channels[0]?.mean ?? 0) - (capital.channels[0]?.mean ?? 0))).toBeGreaterThan(5);
  }, 120_000);

  it("no two indexable pages of a language share a title or a description: a place's search page says its place, in the head and the link preview", async () => {
    const seen = new Map<string, string>();
    for (const path of inBoth(indexable())) {
      const page = await crawl(`${server.url}${path}`);
      const title = page.doc.querySelector('title')?.textContent?.trim() ?? '';
      for (const [what, text] of [
        ['title', title],
        ['description', meta(page.doc, 'description') ?? ''],
        ['preview title', meta(page.doc, 'og:title') ?? ''],
        ['preview description', meta(page.doc, 'og:description') ?? ''],
      ] as const) {
        expect(text.length, `${path} ${what}`).toBeGreaterThan(10);
        const key = `${path.startsWith('/es') ? 'es' : 'en'} ${what} ${text}`;
        expect(seen.get(key), `${path} has the ${what} of ${seen.get(key)}: "${text}"`).toBeUndefined();
        seen.set(key, path);
      }
    }
    for (const [path, place] of [
      ['/search-properties/cumbaya', 'Cumbayá'],
      ['/es/search-properties/cumbaya', 'Cumbayá'],
      ['/search-properties/guayaquil', 'Guayaquil'],
    ] as const) {
      const page = await crawl(`${server.url}${path}`);
      for (const text of [
        page.doc.querySelector('title')?.textContent,
        meta(page.doc, 'description'),
        meta(page.doc, 'og:title'),
        meta(page.doc, 'og:description'),
      ])
        expect(text, path).toContain(place);
    }
  }, 120_000);

  it("a search's shared address reads as what it searches: ?city= of a place with a page is that page (its title, hero and canonical), a search for rent says rent; the search's own page stays what it is", async () => {
    const read = async (path: string) => {
      const { doc } = await crawl(`${server.url}${path}`);
      return {
        title: doc.querySelector('title')?.textContent?.trim() ?? '',
        h1: doc.querySelector('h1')?.textContent?.trim() ?? '',
        canonical: doc.querySelector('link[rel="canonical"]')?.getAttribute('href')?.replace(server.url, '') ?? '',
        // the search's preset city: the place's own page starts at it; an address that names its city
        // does not need it (back to the address without filters is the whole search again)
        preset: doc.querySelector('exp-property-search')?.getAttribute('city') ?? null,
      };
    };
    const cuenca = await read('/search-properties?city=Cuenca&beds=2');
    const own = await read('/search-properties/cuenca');
    expect(own.preset).toBe('Cuenca');
    expect(cuenca).toEqual({ ...own, canonical: '/search-properties/cuenca', preset: null });
    expect(cuenca.title).toContain('Cuenca');
    expect((await read('/es/search-properties?city=cuenca')).title).toContain('en venta en Cuenca');
    // a city without a page of its own: the search's own page
    expect((await read('/search-properties?city=Nowhere')).canonical).toBe('/search-properties');
    const rent = await read('/search-properties?operation=rent');
    expect([rent.title, rent.h1]).toEqual([expect.stringContaining('for rent'), expect.stringContaining('for rent')]);
    expect((await read('/search-properties/cuenca?operation=rent')).h1).toBe('Homes for rent in Cuenca');
    // (each kept apart: the pages at the same route are not the rent ones)
    expect((await read('/search-properties')).title).toContain('for sale');
    expect(await read('/search-properties/cuenca')).toEqual(own);
  });

  it("a search for new developments links each to its project's page, in its tiles and its JSON-LD (a listing's address would answer 301)", async () => {
    for (const lang of ['en', 'es'] as const) {
      const { doc } = await crawl(`${server.url}${localizedPath('/search-properties', lang)}?operation=project`);
      const tiles = [...doc.querySelectorAll('a.listing-tile__link')].map((a) => a.getAttribute('href') ?? '');
      expect(tiles.length).toBeGreaterThan(0);
      const list = jsonLd(doc).find((block) => block['@type'] === 'ItemList') as
        { itemListElement: Array<{ url?: string; item?: { url?: string } }> } | undefined;
      const listed = (list?.itemListElement ?? []).map((e) => (e.url ?? e.item?.url ?? '').replace(server.url, ''));
      expect(listed).toEqual(tiles);
      for (const href of tiles) {
        expect(href).toMatch(lang === 'es' ? /^\/es\/proyectos\/[a-z0-9-]+$/ : /^\/projects\/[a-z0-9-]+$/);
        expect((await crawl(`${server.url}${href}`)).status, href).toBe(200);
      }
    }
  });

  it('every JSON-LD block the site writes is what schema.org allows (schema-dts, checked by the TypeScript compiler)', async () => {
    const blocks: Array<Record<string, unknown>> = [];
    // the search's list: the server writes it in the page, and the element keeps it with the same builders
    for (const path of inBoth([listing, agent, '/search-properties/quito']))
      blocks.push(...jsonLd((await crawl(`${server.url}${path}`)).doc));
    expect(blocks.map((b) => b['@type']).sort()).toEqual([
      'BreadcrumbList',
      'BreadcrumbList',
      'ItemList',
      'ItemList',
      'Person',
      'Person',
      'RealEstateListing',
      'RealEstateListing',
    ]);
    const person = blocks.find((b) => b['@type'] === 'Person') as Record<string, unknown>;
    expect(person).toMatchObject({
      jobTitle: 'Real estate agent',
      worksFor: { '@type': 'RealEstateAgent', name: 'eXp Realty Ecuador' },
    });
    expect((person.makesOffer as { areaServed: unknown[] }).areaServed.length).toBeGreaterThan(0);
    // the check can fail: what the agent page wrote before (worksFor on a RealEstateAgent) is refused,
    // as is a place served on a Person; checked in the same program as the site's blocks
    const refused = [
      {
        '@context': 'https://schema.org',
        '@type': 'RealEstateAgent',
        name: 'Ana',
        worksFor: { '@type': 'RealEstateAgent', name: 'eXp' },
      },
      { '@context': 'https://schema.org', '@type': 'Person', name: 'Ana', areaServed: 'Quito' },
    ];
    const errors = jsonLdTypeErrorsByBlock([...blocks, ...refused]);
    expect(errors.slice(0, blocks.length)).toEqual(blocks.map(() => []));
    expect(errors[blocks.length]?.join('\n')).toMatch(/worksFor/);
    expect(errors[blocks.length + 1]?.join('\n')).toMatch(/areaServed/);
  }, 120_000);

  it('every kind of page the server renders conforms to HTML (html-validate, recommended rules), in both languages', async () => {
    const paths = inBoth([
      ...indexable(),
      '/saved',
      '/buy',
      '/no/such/page',
      '/search-properties/atlantis',
      gone,
      '/properties/99999999-x',
      '/findanagent/99999',
      '/market/atlantis',
      '/alerts/confirm?token=not-a-token',
      '/alerts/unsubscribe?token=x',
      '/alerts/manage?token=x',
      '/privacy/my-data',
      '/privacy/my-data?token=not-a-token',
      `/privacy/my-data?token=${'x'.repeat(43)}`,
    ]);
    const problems: string[] = [];
    const texts = { en: await pageTextsIn.en(), es: await pageTextsIn.es() };
    const untranslatable: string[] = [];
    for (const path of paths) {
      const page = await crawl(`${server.url}${path}`);
      expect(page.status, path).toBeLessThan(500);
      problems.push(...(await htmlProblems(page.html, path)));
      // the page's script translates these when the language changes, with the texts it downloads (site/lib/texts.ts)
      const lang = page.doc.documentElement.getAttribute('lang') === 'es' ? 'es' : 'en';
      for (const key of i18nKeys(page.doc))
        if (lookup(texts[lang], key) === undefined) untranslatable.push(`${path}: ${key}`);
    }
    expect(problems).toEqual([]);
    expect(untranslatable).toEqual([]);
  }, 120_000);

  it('a listing whose every text carries replacement patterns and markup is written as it is, and stays valid HTML', async () => {
    const nasty = "US$$ 100 $& $` $' $$ $1 $<name> </script><!-- <b>";
    const [row] = await server.sql<{ id: string }>(
      `insert into internal.listings (title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon, description, agent_first_name, agent_last_name, agent_email, agent_phone)
       values ($1, $1, 100000, 2, 1, 80, $1, 'Quito', $1, '["/media/listings/house-1.svg"]', '-0.18', '-78.48', $1, $1, $1, 'ana@example.org', '099 123 4567') returning id::text as id`,
      [nasty],
    );
    // the newest of all, so that its city's search by the newest shows it first
    await server.sql(
      "update internal.listings set created_at = (select max(created_at) from internal.listings) + interval '1 minute' where id = $1",
      [row?.id],
    );
    for (const lang of ['en', 'es'] as const) {
      const page = await crawl(`${server.url}${listingPath(String(row?.id), nasty, lang)}`);
      expect(page.status).toBe(200);
      expect(page.doc.querySelector('h1')?.textContent).toBe(nasty);
      expect(page.doc.querySelector('.listing__description')?.textContent).toBe(nasty);
      expect(page.doc.querySelector('.listing__address')?.textContent).toContain(nasty);
      expect(page.doc.title).toContain(nasty.slice(0, 20));
      expect(meta(page.doc, 'og:title')).toContain(nasty);
      expect(meta(page.doc, 'description')).toContain(nasty.slice(0, 20));
      expect(jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing')).toMatchObject({
        name: nasty,
        description: nasty,
      });
      // the page around the data is whole: its head, its scripts and its footer
      expect(page.doc.querySelectorAll('script[type="application/ld+json"]').length).toBe(2);
      expect(page.doc.querySelector('exp-site-footer')).toBeTruthy();
      expect(page.html.match(/<\/html>/g)?.length).toBe(1);
      expect(await htmlProblems(page.html, `nasty listing (${lang})`)).toEqual([]);
      // the newest of Quito: first in its search's page, as it is
      const search = await crawl(`${server.url}${localizedPath('/search-properties/quito', lang)}?sort=newest`);
      expect(search.doc.querySelector('.listing-tile__title')?.textContent).toBe(nasty);
      const list = jsonLd(search.doc).find((d) => d['@type'] === 'ItemList') as {
        itemListElement: Array<{ item: { name: string } }>;
      };
      expect(list.itemListElement[0]?.item.name).toBe(nasty);
      expect(search.html.match(/<\/html>/g)?.length).toBe(1);
      expect(await htmlProblems(search.html, `nasty listing's search (${lang})`)).toEqual([]);
    }
    await server.sql('delete from internal.listings where id = $1', [row?.id]);
  });
});
