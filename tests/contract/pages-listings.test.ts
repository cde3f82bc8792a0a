/**
 * A listing's page and an agent's as crawlers and link previews read them (docs/decisions.md #18,
 * tests/support/crawled-pages.ts): plain HTTP with the user agents of WhatsApp, Facebook's preview
 * crawler and Googlebot, no JavaScript. Every listing page with its text, Open Graph tags, Twitter
 * card and JSON-LD, in both languages; the preview image a 1200x630 JPEG under 250 KB; 301, 404
 * and 410 where they belong; a listing's words as text, never markup; a flat's fees and a rental's
 * month; the pages compressed and revalidated.
 */
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dict } from '../../core/translate.ts';
import { formatPrice } from '../../core/protocol/format.ts';
import { listingPath } from '../../core/routes.ts';
import en from '../../core/locales/en.json' with { type: 'json' };
import es from '../../core/locales/es.json' with { type: 'json' };
import {
  ACTIVE,
  crawl,
  CRAWLERS,
  jsonLd,
  link,
  lookup,
  meta,
  startCrawledSite,
  text,
  type CompleteListing,
} from '../support/crawled-pages.ts';
import type { TestServer } from '../support/servers.ts';

describe("listings' and agents' pages as crawlers read them", () => {
  let server: TestServer, listing: CompleteListing, close: (() => Promise<void>) | undefined;
  beforeAll(async () => ({ server, listing, close } = await startCrawledSite()));
  afterAll(() => close?.());

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
        expect(link(page.doc, 'alternate', 'x-default')).toBe(
          `${server.url}${listingPath(listing.id, listing.title, 'en')}`,
        );
        expect(meta(page.doc, 'twitter:title')).toBe(meta(page.doc, 'og:title'));
        expect(meta(page.doc, 'og:description')).toBe(meta(page.doc, 'description'));
        expect(meta(page.doc, 'og:url')).toBe(url);
        expect(meta(page.doc, 'og:type')).toBe('website');
        expect(meta(page.doc, 'og:locale')).toBe(lang === 'es' ? 'es_EC' : 'en_US');
        expect(meta(page.doc, 'og:image')).toMatch(
          new RegExp(`^${server.url}/og/listings/${listing.id}\\.jpg\\?v=[0-9a-f]+$`),
        );
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
          [...page.doc.querySelectorAll('.listing__facts div')].map((d) => [
            d.querySelector('dt')?.textContent,
            d.querySelector('dd')?.textContent,
          ]),
        );
        expect(facts[lookup((lang === 'es' ? es : en) as Dict, 'facts.bedrooms') as string]).toBe(
          String(listing.bedrooms),
        );
        // the same row, for the element that enhances the page
        const embedded = JSON.parse(page.doc.querySelector('script[data-exp-listing]')?.textContent ?? 'null') as {
          id: number;
        };
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
    expect({ format: info.format, width: info.width, height: info.height }).toEqual({
      format: 'jpeg',
      width: 1200,
      height: 630,
    });
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

  it("the seed's photos are WebP made from its drawings: served to any page, revalidated, kept a day; and read for the previews", async () => {
    const [row] = await server.sql<{ photo: string; picture: string }>(
      `select l.images->>0 as photo, a.picture from internal.listings l, public.agents a
        where l.id = $1 and a.picture is not null order by a.id limit 1`,
      [listing.id],
    );
    for (const path of [row?.photo, row?.picture?.trim()]) {
      expect(path).toMatch(/^\/media\/(listings|agents)\/[a-z0-9-]+\.webp$/);
      const first = await fetch(`${server.url}${path}`, { headers: { Origin: 'https://partner.example' } });
      expect(first.status, path).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/webp');
      expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(first.headers.get('access-control-allow-origin')).toBe('*');
      const body = Buffer.from(await first.arrayBuffer());
      expect((await sharp(body).metadata()).format).toBe('webp');
      expect((await sharp(body).stats()).channels.some((c) => c.stdev > 10)).toBe(true);
      const etag = first.headers.get('etag') as string;
      expect((await fetch(`${server.url}${path}`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    }
    // a photo named for a drawing the seed does not have is not found (the carousel shows the next)
    expect((await fetch(`${server.url}/media/listings/missing-photo.webp`)).status).toBe(404);
  });

  it('a listing has one address: another slug, or none, answers 301 to it', async () => {
    for (const wrong of [
      `/properties/${listing.id}`,
      `/properties/${listing.id}-old-title`,
      `/es/properties/${listing.id}-x`,
    ]) {
      const r = await crawl(`${server.url}${wrong}`);
      expect(r.status, wrong).toBe(301);
      expect(r.headers.get('location'), wrong).toBe(
        listingPath(listing.id, listing.title, wrong.startsWith('/es/') ? 'es' : 'en'),
      );
    }
  });

  it('an unknown listing answers 404, one that is gone 410, each in the site style with similar active listings', async () => {
    const unknown = await crawl(`${server.url}/properties/99999999-casa-en-quito`);
    expect(unknown.status).toBe(404);
    expect(unknown.doc.documentElement.getAttribute('lang')).toBe('en');
    expect(unknown.doc.querySelector('h1')?.textContent).toBe(lookup(en as Dict, 'site.listing.notFound.title'));
    expect(meta(unknown.doc, 'robots')).toBe('noindex');
    expect(unknown.doc.querySelector('exp-site-header')).toBeTruthy();
    const similar = [...unknown.doc.querySelectorAll('.similar a.listing-tile__link')].map(
      (a) => a.getAttribute('href') ?? '',
    );
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
    const like = await server.sql<{ id: string; title: string }>(
      'select id::text as id, title from public.similar_listings($1, 8)',
      [gone?.id],
    );
    expect(like.length).toBeGreaterThan(0);
    expect(
      [...goneEs.doc.querySelectorAll('.similar a.listing-tile__link')].map((a) => a.getAttribute('href')),
    ).toEqual(like.map((l) => listingPath(l.id, l.title, 'es')));
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
    expect(
      (JSON.parse(page.doc.querySelector('script[data-exp-listing]')?.textContent ?? '{}') as { title: string }).title,
    ).toBe(hostile);
    await server.sql('delete from internal.listings where id = $1', [row?.id]);
  });

  it("a flat's page says what an Ecuadorian asks first, in words and in its JSON-LD: the alícuota a month, the parking, the storage unit, furnished", async () => {
    const [flat] = await server.sql<{
      id: string;
      title: string;
      fee: number;
      parking: number;
      storage: boolean;
      furnished: string;
    }>(
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
    expect(data.about.additionalProperty).toEqual({
      '@type': 'PropertyValue',
      name: 'HOA fee (alícuota)',
      value: flat?.fee,
      unitText: 'USD per month',
    });
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
      const data = jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing') as {
        offers: Record<string, unknown>;
      };
      expect(data.offers).toMatchObject({
        '@type': 'OfferForLease',
        price: rent?.price,
        priceCurrency: 'USD',
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          price: rent?.price,
          priceCurrency: 'USD',
          unitCode: 'MON',
          unitText: unit,
        },
      });
    }
    // a sale's page says no month
    const [sale] = await server.sql<{ id: string; title: string }>(
      `select id::text as id, title from internal.listings where ${ACTIVE} and operation = 'sale' and price > 0 order by id limit 1`,
    );
    const page = await crawl(`${server.url}${listingPath(String(sale?.id), sale?.title, 'es')}`);
    const data = jsonLd(page.doc).find((d) => d['@type'] === 'RealEstateListing') as {
      offers: Record<string, unknown>;
    };
    expect(data.offers['@type']).toBe('Offer');
  });

  it('an agent page holds the name, photo, about, Open Graph and JSON-LD (a Person who works for the brokerage); an unknown agent is a 404', async () => {
    const [agent] = await server.sql<{
      id: string;
      first_name: string;
      last_name: string;
      about: string;
      about_es: string | null;
      email: string;
    }>(
      "select id::text as id, first_name, last_name, about, about_es, email from public.agents where country_code = 'EC' and about is not null order by id limit 1",
    );
    for (const lang of ['en', 'es'] as const) {
      const path = `${lang === 'es' ? '/es' : ''}/findanagent/${agent?.id}`;
      const page = await crawl(`${server.url}${path}`, CRAWLERS.whatsapp);
      expect(page.status).toBe(200);
      expect(page.doc.documentElement.getAttribute('lang')).toBe(lang);
      const name = `${agent?.first_name} ${agent?.last_name}`;
      expect(page.doc.querySelector('h1')?.textContent).toBe(name);
      expect(page.doc.title).toContain(name);
      // her about in the page's language where she wrote one
      const about = lang === 'es' ? (agent?.about_es ?? agent?.about) : agent?.about;
      expect(text(page.doc)).toContain(String(about).replace(/\s+/g, ' ').slice(0, 80));
      expect(page.doc.querySelector('img.agent-page__photo')?.getAttribute('src')).toMatch(
        new RegExp(`^${server.url}/media/`),
      );
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
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, body: Buffer.concat(chunks) }),
          );
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

  it('pages revalidate: the ETag answers 304 when nothing changed, each coding named by its own', async () => {
    const url = `${server.url}${listingPath(listing.id, listing.title, 'es')}`;
    const tagOf = async (headers: Record<string, string>) => {
      const answer = await fetch(url, { headers });
      await answer.arrayBuffer();
      return { status: answer.status, etag: String(answer.headers.get('etag')) };
    };
    const plain = await tagOf({ 'Accept-Encoding': 'identity' });
    expect(plain.etag).toMatch(/^"[\w-]+"$/);
    const gz = await tagOf({ 'Accept-Encoding': 'gzip' });
    expect(gz.etag).toBe(plain.etag.replace(/"$/, '.gz"'));
    const second = await fetch(url, { headers: { 'If-None-Match': gz.etag, 'Accept-Encoding': 'gzip' } });
    expect(second.status).toBe(304);
    expect(second.headers.get('etag')).toBe(gz.etag);
    expect(await second.text()).toBe('');
    // the copy a client kept in another coding is as good (RFC 9110's weak comparison)
    expect(await tagOf({ 'If-None-Match': `W/${plain.etag}`, 'Accept-Encoding': 'gzip' })).toEqual({
      status: 304,
      etag: gz.etag,
    });
    expect((await tagOf({ 'If-None-Match': '"changed"' })).status).toBe(200);
  });
});
