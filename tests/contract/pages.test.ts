/**
 * The site's pages as crawlers and link previews read them (docs/decisions.md #18): plain HTTP with
 * the user agents of WhatsApp, Facebook's preview crawler and Googlebot, no JavaScript. Every page
 * in the language of its address; every listing page with its text, Open Graph tags, Twitter card
 * and JSON-LD; the preview image a 1200x630 JPEG under 250 KB; 301, 404 and 410 where they belong;
 * sitemaps whose every address answers, also past 50,000 addresses a file on PostgreSQL; pages that read
 * their data from another server's REST API (a hosted project) and are published under SITE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Window } from 'happy-dom';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/server.ts';
import { hasText, translate, type Dict } from '../../core/translate.ts';
import { formatPrice } from '../../core/protocol/format.ts';
import { listingPath } from '../../core/routes.ts';
import en from '../../core/locales/en.json' with { type: 'json' };
import es from '../../core/locales/es.json' with { type: 'json' };
import { patientFetch } from '../support/patient-fetch.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { migratedDatabase } from '../support/postgres.ts';

const CRAWLERS = {
  whatsapp: 'WhatsApp/2.23.20.0 A',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  google:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

// an active listing with a page of its own (a new development's listing is its project's page: docs/projects.md)
const ACTIVE = "status = '1' and country_code = 'EC' and operation <> 'project'";

interface Fetched {
  status: number;
  headers: Headers;
  html: string;
  doc: Document;
}

/** The page as a crawler gets it: no redirects followed, no script run. */
async function crawl(url: string, ua: string = CRAWLERS.google): Promise<Fetched> {
  const res = await fetch(url, { headers: { 'User-Agent': ua, Accept: 'text/html' }, redirect: 'manual' });
  const html = await res.text();
  const window = new Window({
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true },
  });
  const doc = new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
  return { status: res.status, headers: res.headers, html, doc };
}

const meta = (doc: Document, key: string) => doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
const link = (doc: Document, rel: string, hreflang?: string) =>
  doc.querySelector(`link[rel="${rel}"]${hreflang ? `[hreflang="${hreflang}"]` : ''}`)?.getAttribute('href') ?? null;
const jsonLd = (doc: Document) =>
  [...doc.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? 'null') as Record<string, unknown>);
const text = (doc: Document) => (doc.body?.textContent ?? '').replace(/\s+/g, ' ');

/** A text of a locale file as written (placeholders unfilled); undefined when it has none. */
const lookup = (dict: Dict, key: string): string | undefined => (hasText(dict, key) ? translate(dict, key) : undefined);

/** Every element whose static text is still the English one where Spanish differs. */
function englishLeft(doc: Document): string[] {
  const left: string[] = [];
  for (const el of doc.querySelectorAll('[data-i18n]')) {
    const key = el.getAttribute('data-i18n') ?? '';
    const english = lookup(en as Dict, key);
    const spanish = lookup(es as Dict, key);
    if (english && spanish && english !== spanish && !english.includes('{{') && el.textContent?.trim() === english.trim()) left.push(key);
  }
  return left;
}

describe('pages as crawlers read them', () => {
  let server: TestServer;
  let cacheDir: string;
  let listing: {
    id: string;
    title: string;
    price: string;
    address: string;
    city: string;
    description: string;
    bedrooms: number;
    bathrooms: string;
    square_feet: string;
    agent_first_name: string;
    agent_last_name: string;
  };

  beforeAll(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'exp-og-'));
    server = await startTestServer('postgres', { site: { imageCacheDir: cacheDir, sitemapUrlsPerFile: 400 } });
    const [row] = await server.sql<typeof listing>(
      `select id::text as id, title, price::text as price, address, city, description, bedrooms, bathrooms::text as bathrooms, square_feet::text as square_feet, agent_first_name, agent_last_name
         from internal.listings where ${ACTIVE} and title is not null and description is not null and agent_first_name is not null and bedrooms > 0 and title !~ '[<>&"]' order by id limit 1`,
    );
    if (!row) throw new Error('the seed has no complete listing');
    listing = row;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  for (const [name, ua] of Object.entries(CRAWLERS)) {
    it(`${name}: the Spanish address of a page is Spanish HTML, the English one English`, async () => {
      const page = await crawl(`${server.url}/es/about`, ua);
      expect(page.status).toBe(200);
      expect(page.doc.documentElement.getAttribute('lang')).toBe('es');
      expect(page.doc.title).toBe(lookup(es as Dict, 'site.meta.about.title'));
      expect(meta(page.doc, 'description')).toBe(lookup(es as Dict, 'site.meta.about.description'));
      expect(page.doc.querySelector('h1')?.textContent?.trim()).toBe('Acerca de eXp Realty Ecuador');
      expect(meta(page.doc, 'og:locale')).toBe('es_EC');
      expect(englishLeft(page.doc)).toEqual([]);
      expect(link(page.doc, 'canonical')).toBe(`${server.url}/es/about`);
      expect(link(page.doc, 'alternate', 'en')).toBe(`${server.url}/about`);
      expect(link(page.doc, 'alternate', 'es')).toBe(`${server.url}/es/about`);
      expect(link(page.doc, 'alternate', 'x-default')).toBe(`${server.url}/about`);

      const english = await crawl(`${server.url}/about`, ua);
      expect(english.doc.documentElement.getAttribute('lang')).toBe('en');
      expect(english.doc.title).toBe(lookup(en as Dict, 'site.meta.about.title'));
      expect(meta(english.doc, 'og:locale')).toBe('en_US');
      expect(link(english.doc, 'canonical')).toBe(`${server.url}/about`);
    });
  }

  it('every page has a Spanish twin with no English left; ?lang=es answers 301 to it', async () => {
    for (const path of ['/', '/search-properties', '/findanagent', '/join', '/about', '/search-properties/cumbaya']) {
      const es = await crawl(`${server.url}/es${path === '/' ? '' : path}`);
      expect(es.status, path).toBe(200);
      expect(es.doc.documentElement.getAttribute('lang'), path).toBe('es');
      expect(englishLeft(es.doc), path).toEqual([]);
      const redirect = await crawl(`${server.url}${path}?lang=es&city=Quito`);
      expect(redirect.status, path).toBe(301);
      expect(redirect.headers.get('location'), path).toBe(`/es${path === '/' ? '' : path}?city=Quito`);
    }
    // the elements' Spanish texts are preloaded by the Spanish pages only
    const preloads = (doc: Document) =>
      [...doc.querySelectorAll('link[rel="modulepreload"][data-exp-lang]')].map((l) => `${l.getAttribute('data-exp-lang')} ${l.getAttribute('href')}`);
    const [spanish] = preloads((await crawl(`${server.url}/es/findanagent`)).doc);
    expect(spanish).toMatch(/^es \/widgets\/chunks\/es-[\w-]+\.js$/);
    expect(preloads((await crawl(`${server.url}/findanagent`)).doc)).toEqual([]);
    // the unknown page is a 404 in both languages
    const missing = await crawl(`${server.url}/es/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.doc.documentElement.getAttribute('lang')).toBe('es');
    expect(meta(missing.doc, 'robots')).toBe('noindex');
  });

  for (const [name, ua] of Object.entries(CRAWLERS)) {
    for (const lang of ['en', 'es'] as const) {
      it(`${name}: a listing's ${lang} page holds its text, Open Graph, Twitter card and JSON-LD`, async () => {
        const path = listingPath(listing.id, listing.title, lang);
        const url = `${server.url}${path}`;
        const page = await crawl(url, ua);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('cache-control')).toMatch(/s-maxage=\d+/);
        expect(page.headers.get('cache-control')).toMatch(/stale-while-revalidate=\d+/);
        expect(page.doc.documentElement.getAttribute('lang')).toBe(lang);
        // the head
        const price = formatPrice(Number(listing.price));
        // the title fits a search result (70 characters); the preview's title says it all
        expect(page.doc.title.length).toBeLessThanOrEqual(70);
        expect(page.doc.title).toContain(listing.title.slice(0, 15));
        expect(page.doc.title).toContain(price);
        expect(meta(page.doc, 'og:title')).toContain(listing.title);
        expect(meta(page.doc, 'og:title')).toContain(price);
        expect(meta(page.doc, 'description')?.length).toBeGreaterThan(60);
        expect(link(page.doc, 'canonical')).toBe(url);
        expect(link(page.doc, 'alternate', 'en')).toBe(`${server.url}${listingPath(listing.id, listing.title, 'en')}`);
        expect(link(page.doc, 'alternate', 'es')).toBe(`${server.url}${listingPath(listing.id, listing.title, 'es')}`);
        expect(link(page.doc, 'alternate', 'x-default')).toBe(`${server.url}${listingPath(listing.id, listing.title, 'en')}`);
        expect(meta(page.doc, 'twitter:title')).toBe(meta(page.doc, 'og:title'));
        expect(meta(page.doc, 'og:description')).toBe(meta(page.doc, 'description'));
        expect(meta(page.doc, 'og:url')).toBe(url);
        expect(meta(page.doc, 'og:type')).toBe('website');
        expect(meta(page.doc, 'og:locale')).toBe(lang === 'es' ? 'es_EC' : 'en_US');
        expect(meta(page.doc, 'og:image')).toMatch(new RegExp(`^${server.url}/og/listings/${listing.id}\\.jpg\\?v=[0-9a-f]+$`));
        expect(meta(page.doc, 'og:image:width')).toBe('1200');
        expect(meta(page.doc, 'og:image:height')).toBe('630');
        expect(meta(page.doc, 'og:image:type')).toBe('image/jpeg');
        expect(meta(page.doc, 'og:image:alt')).toContain(listing.title);
        expect(meta(page.doc, 'twitter:card')).toBe('summary_large_image');
        expect(meta(page.doc, 'twitter:image')).toBe(meta(page.doc, 'og:image'));
        // the listing itself, readable without JavaScript
        expect(page.doc.querySelector('h1')?.textContent).toBe(listing.title);
        const body = text(page.doc);
        expect(body).toContain(price);
        expect(body).toContain(listing.address);
        expect(body).toContain(listing.description.replace(/\s+/g, ' '));
        expect(body).toContain(`${listing.agent_first_name} ${listing.agent_last_name}`);
        expect(body).toContain(`${Number(listing.square_feet).toLocaleString('en-US')} m²`);
        const facts = Object.fromEntries(
          [...page.doc.querySelectorAll('.listing__facts div')].map((d) => [d.querySelector('dt')?.textContent, d.querySelector('dd')?.textContent]),
        );
        expect(facts[lookup((lang === 'es' ? es : en) as Dict, 'facts.bedrooms') as string]).toBe(String(listing.bedrooms));
        // the same row, for the element that enhances the page
        const embedded = JSON.parse(page.doc.querySelector('script[data-exp-listing]')?.textContent ?? 'null') as { id: number };
        expect(String(embedded.id)).toBe(listing.id);
        // the structured data
        const data = jsonLd(page.doc);
        const item = data.find((d) => d['@type'] === 'RealEstateListing') as { about: unknown };
        expect(item).toMatchObject({
          '@context': 'https://schema.org',
          name: listing.title,
          url,
          offers: { '@type': 'Offer', price: Number(listing.price), priceCurrency: 'USD' },
        });
        expect(item.about).toMatchObject({
          numberOfBedrooms: listing.bedrooms,
          numberOfBathroomsTotal: Number(listing.bathrooms),
          floorSize: { value: Number(listing.square_feet), unitCode: 'MTK' },
          address: { addressLocality: listing.city, addressCountry: 'EC' },
        });
        expect(data.find((d) => d['@type'] === 'BreadcrumbList')).toBeTruthy();
        // Spanish labels on the Spanish page
        if (lang === 'es') expect(body).toContain('Habitaciones');
      });
    }
  }

  it('og:image: a JPEG of exactly 1200x630 under 250 KB, made once and then served from the disk cache for a year', async () => {
    const page = await crawl(`${server.url}${listingPath(listing.id, listing.title, 'en')}`, CRAWLERS.facebook);
    const imageUrl = meta(page.doc, 'og:image') as string;
    const first = await fetch(imageUrl, { headers: { 'User-Agent': CRAWLERS.facebook } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.headers.get('x-image-cache')).toBe('miss');
    const body = Buffer.from(await first.arrayBuffer());
    expect(body.length).toBeLessThan(250 * 1024);
    expect(body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const info = await sharp(body).metadata();
    expect({ format: info.format, width: info.width, height: info.height }).toEqual({ format: 'jpeg', width: 1200, height: 630 });
    // a photo, not a blank: the image has detail
    const stats = await sharp(body).stats();
    expect(stats.channels.some((c) => c.stdev > 10)).toBe(true);
    const again = await fetch(imageUrl, { headers: { 'User-Agent': CRAWLERS.whatsapp } });
    expect(again.headers.get('x-image-cache')).toBe('hit');
    expect(Buffer.from(await again.arrayBuffer()).equals(body)).toBe(true);
    // without the version: cached for an hour only (the photo may change)
    const unversioned = await fetch(imageUrl.replace(/\?.*$/, ''));
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=3600, s-maxage=3600');
    // an unknown listing has no preview
    expect((await fetch(`${server.url}/og/listings/987654321.jpg`)).status).toBe(404);
  });

  it("a Spanish page's own links and forms go to Spanish addresses (a visitor who came in Spanish stays in Spanish); files and the English twin's are left as they are", async () => {
    let seen = 0;
    for (const path of ['/es', '/es/about', '/es/search-properties', '/es/join', '/es/findanagent']) {
      const page = await crawl(`${server.url}${path}`);
      const targets = [...page.doc.querySelectorAll('a[href^="/"], form[action^="/"]')].map((e) => e.getAttribute('href') ?? e.getAttribute('action') ?? '');
      const pages = targets.filter((t) => !/^\/(widgets|media|assets|og|demo)\/|\.[a-z]+$/.test(t.split(/[?#]/)[0] as string));
      seen += pages.length;
      expect(
        pages.filter((t) => t !== '/es' && !t.startsWith('/es/') && !t.startsWith('/es?')),
        path,
      ).toEqual([]);
    }
    expect(seen).toBeGreaterThan(10);
    const english = await crawl(`${server.url}/about`);
    expect([...english.doc.querySelectorAll('a[href^="/es"]')].map((a) => a.getAttribute('href'))).toEqual([]);
  });

  it("the home page's search works without a script: a place's name leads to its search, a number to its listing, anything else to the words; Buy or Rent goes along", async () => {
    // the form, as the HTML has it (both languages)
    for (const [home, dict, action] of [
      ['/', en, '/search-properties'],
      ['/es', es, '/es/search-properties'],
    ] as const) {
      const page = await crawl(`${server.url}${home}`);
      const form = page.doc.querySelector('form.hero-search');
      expect(form?.getAttribute('action'), home).toBe(action);
      expect(form?.getAttribute('method')).toBe('get');
      expect([...(form?.querySelectorAll('input[name="operation"]') ?? [])].map((i) => i.getAttribute('value'))).toEqual(['sale', 'rent', 'project']);
      const box = form?.querySelector('input[name="q"]');
      expect(box?.getAttribute('placeholder')).toBe(lookup(dict as Dict, 'site.home.hero.search.placeholder'));
      expect(form?.querySelector(`label[for="${box?.id}"]`)?.textContent).toBe(lookup(dict as Dict, 'site.home.hero.search.label'));
    }
    const go = async (q: string, operation = 'sale', base = '/search-properties', more: Record<string, string> = {}) => {
      const res = await fetch(`${server.url}${base}?${new URLSearchParams({ operation, q, ...more })}`, { redirect: 'manual' });
      expect(res.status, q).toBe(302);
      return res.headers.get('location');
    };
    // a place by its name as people write it, a sector under its city, the one rule of the location box
    const [sector] = await server.sql<{ path: string; name: string }>(
      "select path, name from internal.places where kind = 'sector' order by listings desc, path limit 1",
    );
    expect(await go('cumbaya', 'rent')).toBe('/search-properties?operation=rent&place=cumbaya');
    expect(await go('cumbaya', 'project')).toBe('/search-properties?operation=project&place=cumbaya');
    expect(await go(`  ${sector!.name.toUpperCase()} `)).toBe(`/search-properties?${new URLSearchParams({ place: sector!.path })}`);
    expect(await go(`  ${sector!.name.toUpperCase()} `, 'sale', '/es/search-properties')).toBe(
      `/es/search-properties?${new URLSearchParams({ place: sector!.path })}`,
    );
    // a listing's number: its page, at its one address
    expect(await go(`#${listing.id}`)).toBe(listingPath(listing.id, listing.title, 'en'));
    expect(await go(listing.id, 'sale', '/es/search-properties')).toBe(listingPath(listing.id, listing.title, 'es'));
    // a street that names no place is searched as a location (as the box searches its text), not one listing of it
    const [street] = await server.sql<{ street: string }>(
      `select s.street from (select distinct split_part(address, ',', 1) as street from internal.listings where ${ACTIVE} and address is not null) s
        where length(s.street) >= 6 and (select p.kind from public.place_suggestions(s.street, 1) p) = 'listing' order by s.street limit 1`,
    );
    expect(street, 'a street the location box answers with listings').toBeDefined();
    expect(await go(street!.street)).toBe(`/search-properties?${new URLSearchParams({ city: street!.street })}`);
    // no place: the text as a location; a hostile text is only a text
    expect(await go('zzqxw', 'rent')).toBe('/search-properties?operation=rent&city=zzqxw');
    expect(await go('<script>x</script>')).toBe(`/search-properties?${new URLSearchParams({ city: '<script>x</script>' })}`);
    // the campaign's keys go along; nothing else of the address does
    expect(await go('cumbaya', 'rent', '/search-properties', { utm_campaign: 'hero', page: '7', property: '12', placeName: 'x', city: 'Quito' })).toBe(
      '/search-properties?operation=rent&utm_campaign=hero&place=cumbaya',
    );
    // nothing typed: the whole search
    expect(await go('   ')).toBe('/search-properties');
    // and the search page itself, without q, is the page
    expect((await fetch(`${server.url}/search-properties?operation=rent`, { redirect: 'manual' })).status).toBe(200);
  });

  it('a listing has one address: another slug, or none, answers 301 to it', async () => {
    for (const wrong of [`/properties/${listing.id}`, `/properties/${listing.id}-old-title`, `/es/properties/${listing.id}-x`]) {
      const r = await crawl(`${server.url}${wrong}`);
      expect(r.status, wrong).toBe(301);
      expect(r.headers.get('location'), wrong).toBe(listingPath(listing.id, listing.title, wrong.startsWith('/es/') ? 'es' : 'en'));
    }
  });

  it('an unknown listing answers 404, one that is gone 410, each in the site style with similar active listings', async () => {
    const unknown = await crawl(`${server.url}/properties/99999999-casa-en-quito`);
    expect(unknown.status).toBe(404);
    expect(unknown.doc.documentElement.getAttribute('lang')).toBe('en');
    expect(unknown.doc.querySelector('h1')?.textContent).toBe(lookup(en as Dict, 'site.listing.notFound.title'));
    expect(meta(unknown.doc, 'robots')).toBe('noindex');
    expect(unknown.doc.querySelector('exp-site-header')).toBeTruthy();
    const similar = [...unknown.doc.querySelectorAll('.similar a.listing-tile__link')].map((a) => a.getAttribute('href') ?? '');
    expect(similar.length).toBe(4);
    for (const href of similar) expect((await crawl(`${server.url}${href}`)).status, href).toBe(200);

    const [gone] = await server.sql<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where status <> '1' and country_code = 'EC' limit 1",
    );
    const goneEs = await crawl(`${server.url}${listingPath(String(gone?.id), gone?.title, 'es')}`);
    expect(goneEs.status).toBe(410);
    expect(goneEs.doc.documentElement.getAttribute('lang')).toBe('es');
    expect(goneEs.doc.querySelector('h1')?.textContent).toBe(lookup(es as Dict, 'site.listing.gone.title'));
    // the listings most like the one that was there (public.similar_listings), in their order
    const like = await server.sql<{ id: string; title: string }>('select id::text as id, title from public.similar_listings($1, 8)', [gone?.id]);
    expect(like.length).toBeGreaterThan(0);
    expect([...goneEs.doc.querySelectorAll('.similar a.listing-tile__link')].map((a) => a.getAttribute('href'))).toEqual(
      like.map((l) => listingPath(l.id, l.title, 'es')),
    );
    // a listing taken off the market goes from 200 to 410
    await server.sql("update internal.listings set status = '0' where id = $1", [listing.id]);
    try {
      expect((await crawl(`${server.url}${listingPath(listing.id, listing.title, 'en')}`)).status).toBe(410);
    } finally {
      await server.sql("update internal.listings set status = '1' where id = $1", [listing.id]);
    }
    expect((await crawl(`${server.url}${listingPath(listing.id, listing.title, 'en')}`)).status).toBe(200);
  });

  it('what a listing says is text: markup in its title and description is escaped in the HTML, the head and the JSON', async () => {
    const hostile = `Casa "bonita" </script><script>alert(1)</script> & <img src=x onerror=alert(2)>`;
    const [row] = await server.sql<{ id: string }>(
      `insert into internal.listings (title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon, description, agent_first_name)
       values ($1, 'Av. <b>Amazonas</b>', 100000, 2, 1, 80, 'house', 'Quito', 'Pichincha', '["/media/listings/house-1.svg"]', '-0.18', '-78.48', $2, '<i>Ana</i>') returning id::text as id`,
      [hostile, `${hostile}\u2028line`],
    );
    const page = await crawl(`${server.url}${listingPath(String(row?.id), hostile, 'en')}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).not.toContain('<b>Amazonas');
    expect(page.html).not.toContain('<i>Ana');
    expect(page.doc.querySelector('h1')?.textContent).toBe(hostile);
    expect(meta(page.doc, 'og:title')).toContain(hostile);
    expect((jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing') as { name: string }).name).toBe(hostile);
    expect((JSON.parse(page.doc.querySelector('script[data-exp-listing]')?.textContent ?? '{}') as { title: string }).title).toBe(hostile);
    await server.sql('delete from internal.listings where id = $1', [row?.id]);
  });

  it("a flat's page says what an Ecuadorian asks first, in words and in its JSON-LD: the alícuota a month, the parking, the storage unit, furnished", async () => {
    const [flat] = await server.sql<{ id: string; title: string; fee: number; parking: number; storage: boolean; furnished: string }>(
      `select id::text as id, title, hoa_fee::float8 as fee, parking_spaces as parking, storage_unit as storage, furnished from internal.listings
        where status = '1' and country_code = 'EC' and property_type = 'apartment' and hoa_fee is not null and storage_unit and furnished = 'partly' order by id limit 1`,
    );
    expect(flat).toBeTruthy();
    const fee = `$${Number(flat?.fee).toLocaleString('en-US')}`;
    const en = await crawl(`${server.url}${listingPath(String(flat?.id), flat?.title, 'en')}`);
    expect(text(en.doc)).toContain(`HOA fee (alícuota)${fee}/month`);
    expect(text(en.doc)).toContain(`Parking spaces${flat?.parking}`);
    expect(text(en.doc)).toContain('Storage unitYes');
    expect(text(en.doc)).toContain('FurniturePartly');
    const es = await crawl(`${server.url}${listingPath(String(flat?.id), flat?.title, 'es')}`);
    expect(text(es.doc)).toContain(`Alícuota${fee}/mes`);
    expect(text(es.doc)).toContain('BodegaSí');
    expect(text(es.doc)).toContain('AmobladoSemiamoblado');
    const data = jsonLd(en.doc).find((d) => d['@type'] === 'RealEstateListing') as { about: Record<string, unknown> };
    expect(data.about.additionalProperty).toEqual({ '@type': 'PropertyValue', name: 'HOA fee (alícuota)', value: flat?.fee, unitText: 'USD per month' });
    expect(data.about.amenityFeature).toEqual([
      { '@type': 'LocationFeatureSpecification', name: 'Parking spaces', value: flat?.parking },
      { '@type': 'LocationFeatureSpecification', name: 'Storage unit', value: true },
      { '@type': 'LocationFeatureSpecification', name: 'Furnished', value: true },
    ]);
  });

  it("a rental's page says its price a month in its text, its description and its JSON-LD (an offer for lease, by the month), in both languages", async () => {
    const [rent] = await server.sql<{ id: string; title: string; price: number }>(
      "select id::text as id, title, price::float8 as price from internal.listings where status = '1' and country_code = 'EC' and operation = 'rent' order by id limit 1",
    );
    expect(rent).toBeTruthy();
    const price = formatPrice(rent?.price);
    for (const [lang, unit] of [
      ['es', '/mes'],
      ['en', '/month'],
    ] as const) {
      const page = await crawl(`${server.url}${listingPath(String(rent?.id), rent?.title, lang)}`, CRAWLERS.whatsapp);
      expect(page.status).toBe(200);
      expect(text(page.doc)).toContain(`${price}${unit}`);
      expect(meta(page.doc, 'description')).toContain(`${price}${unit}`);
      const data = jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing') as { offers: Record<string, unknown> };
      expect(data.offers).toMatchObject({
        '@type': 'OfferForLease',
        price: rent?.price,
        priceCurrency: 'USD',
        priceSpecification: { '@type': 'UnitPriceSpecification', price: rent?.price, priceCurrency: 'USD', unitCode: 'MON', unitText: unit },
      });
    }
    // a sale's page says no month
    const [sale] = await server.sql<{ id: string; title: string }>(
      `select id::text as id, title from internal.listings where ${ACTIVE} and operation = 'sale' and price > 0 order by id limit 1`,
    );
    const page = await crawl(`${server.url}${listingPath(String(sale?.id), sale?.title, 'es')}`);
    const data = jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing') as { offers: Record<string, unknown> };
    expect(data.offers['@type']).toBe('Offer');
  });

  it('an agent page holds the name, photo, about, Open Graph and JSON-LD (a Person who works for the brokerage); an unknown agent is a 404', async () => {
    const [agent] = await server.sql<{ id: string; first_name: string; last_name: string; about: string; email: string }>(
      "select id::text as id, first_name, last_name, about, email from public.agents where country_code = 'EC' and about is not null order by id limit 1",
    );
    for (const lang of ['en', 'es'] as const) {
      const path = `${lang === 'es' ? '/es' : ''}/findanagent/${agent?.id}`;
      const page = await crawl(`${server.url}${path}`, CRAWLERS.whatsapp);
      expect(page.status).toBe(200);
      expect(page.doc.documentElement.getAttribute('lang')).toBe(lang);
      const name = `${agent?.first_name} ${agent?.last_name}`;
      expect(page.doc.querySelector('h1')?.textContent).toBe(name);
      expect(page.doc.title).toContain(name);
      expect(text(page.doc)).toContain(String(agent?.about).replace(/\s+/g, ' ').slice(0, 80));
      expect(page.doc.querySelector('img.agent-page__photo')?.getAttribute('src')).toMatch(new RegExp(`^${server.url}/media/`));
      expect(meta(page.doc, 'og:url')).toBe(`${server.url}${path}`);
      expect(meta(page.doc, 'og:image')).toMatch(new RegExp(`/og/agents/${agent?.id}\\.jpg`));
      expect(meta(page.doc, 'og:image:width')).toBe('1200');
      expect(jsonLd(page.doc).find((d) => d['@type'] === 'Person')).toMatchObject({
        name,
        email: agent?.email,
        url: `${server.url}${path}`,
        worksFor: { '@type': 'RealEstateAgent' },
      });
      const image = await fetch(meta(page.doc, 'og:image') as string);
      const info = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect([info.format, info.width, info.height]).toEqual(['jpeg', 1200, 630]);
    }
    for (const id of ['99999', '0']) {
      const missing = await crawl(`${server.url}/findanagent/${id}`);
      expect(missing.status, id).toBe(404);
      expect(meta(missing.doc, 'robots'), id).toBe('noindex');
    }
  });

  it('pages and sitemaps are compressed by Accept-Encoding (brotli, else gzip), and the same once decompressed', async () => {
    const url = `${server.url}${listingPath(listing.id, listing.title, 'es')}`;
    const raw = (accept: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>((resolve, reject) => {
        get(url, { headers: { 'Accept-Encoding': accept } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const plain = await raw('identity');
    expect(plain.encoding).toBeUndefined();
    expect(plain.vary).toBe('Accept-Encoding');
    const br = await raw('gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const gz = await raw('gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });

  it('pages revalidate: the ETag answers 304 when nothing changed', async () => {
    const url = `${server.url}${listingPath(listing.id, listing.title, 'es')}`;
    const first = await fetch(url);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const second = await fetch(url, { headers: { 'If-None-Match': String(etag) } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });

  it('the sitemaps: an index of files of at most 400 addresses (set for the test), both languages as alternates, and every address answers 200', async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${server.url}/sitemap.xml`);
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(index).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    const [{ n: active } = { n: 0 }] = await server.sql<{ n: number }>(`select count(*)::int as n from internal.listings where ${ACTIVE}`);
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
    // listing's, and one listing address in seven in each language (both ends of every file
    // included), since the listing pages and the sitemaps read the same rule (internal.listings.is_public)
    const failures: string[] = [];
    const checked = urls.filter((url, i) => !url.includes('/properties/') || i % 7 === 0 || ends.has(url));
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
        `[pages.test] the crawler was asked to wait ${waits.length} times: ${waits.filter((w) => w.startsWith('429')).length} × 429, ${waits.filter((w) => w.startsWith('503')).length} × 503 (${waits.slice(0, 5).join(', ')})`,
      );
    expect(failures).toEqual([]);
    expect(checked.filter((url) => url.includes('/properties/')).length).toBeGreaterThan((active * 2) / 7);
    expect(urls.length).toBeGreaterThan(active * 2);
  }, 240_000);
});

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
      site: { url: 'https://expecuador.example', apiUrl: api.url, apiKey: 'public-anon-key', imageCacheDir: cacheDir, mapTiles: TILES },
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
    const [row] = await api.sql<{ id: string; title: string }>(`select id::text as id, title from internal.listings where ${ACTIVE} order by id desc limit 1`);
    const path = listingPath(String(row?.id), row?.title, 'es');
    const page = await crawl(`${site.url}${path}`);
    expect(page.status).toBe(200);
    expect(page.doc.querySelector('h1')?.textContent).toBe(row?.title);
    expect(link(page.doc, 'canonical')).toBe(`https://expecuador.example${path}`);
    expect(meta(page.doc, 'og:url')).toBe(`https://expecuador.example${path}`);
    expect(meta(page.doc, 'og:image')).toMatch(/^https:\/\/expecuador\.example\/og\/listings\/\d+\.jpg\?v=/);
    // photos are the API's media
    expect(page.doc.querySelector('.listing__photo img')?.getAttribute('src')).toMatch(new RegExp(`^${api.url}/media/`));
    expect((jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing') as { url: string }).url).toBe(`https://expecuador.example${path}`);
    const image = await fetch(`${site.url}${new URL(meta(page.doc, 'og:image') as string).pathname}`);
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(1200);
    expect(await (await fetch(`${site.url}/robots.txt`)).text()).toContain('Sitemap: https://expecuador.example/sitemap.xml');
    const index = await (await fetch(`${site.url}/sitemap.xml`)).text();
    expect(index).toContain('<loc>https://expecuador.example/sitemaps/listings-1.xml</loc>');
    const listings = await (await fetch(`${site.url}/sitemaps/listings-1.xml`)).text();
    expect(listings).toContain(`<loc>https://expecuador.example${path}</loc>`);
    expect((await crawl(`${site.url}/es/about`)).doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe('https://expecuador.example/es/about');
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
    const [row] = await api.sql<{ id: string; title: string }>(`select id::text as id, title from internal.listings where ${ACTIVE} order by id limit 1`);
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

describe('sitemaps at 26,000 listings, 52,000 addresses (PostgreSQL)', () => {
  let server: TestServer;
  let active = 0;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    const [{ n } = { n: 0 }] = await server.sql<{ n: number }>(`select count(*)::int as n from internal.listings where ${ACTIVE}`);
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
    active = (await server.sql<{ n: number }>(`select count(*)::int as n from internal.listings where ${ACTIVE}`))[0]?.n ?? 0;
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
      const sample = [...new Set([0, locs.length - 1, ...Array.from({ length: 20 }, (_, i) => Math.floor(((i + 1) * locs.length) / 22))])].map(
        (i) => locs[i] as string,
      );
      for (const url of sample) expect((await fetch(url, { method: 'HEAD', redirect: 'manual' })).status, url).toBe(200);
    }
    expect(listingUrls).toBe(52_000);
  }, 300_000);
});
