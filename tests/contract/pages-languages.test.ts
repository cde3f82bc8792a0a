/**
 * The site's pages in the language of their address, as crawlers read them (docs/decisions.md #18,
 * tests/support/crawled-pages.ts): a Spanish address is Spanish HTML with no English left and an
 * English one English, each naming its twin; ?lang=es answers 301 to the Spanish address; a Spanish
 * page's links and forms stay in Spanish; and the home page's search works without a script.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dict } from '../../core/translate.ts';
import { listingPath } from '../../core/routes.ts';
import en from '../../core/locales/en.json' with { type: 'json' };
import es from '../../core/locales/es.json' with { type: 'json' };
import {
  ACTIVE,
  crawl,
  CRAWLERS,
  link,
  lookup,
  meta,
  startCrawledSite,
  type CompleteListing,
} from '../support/crawled-pages.ts';
import type { TestServer } from '../support/servers.ts';

/** Every element whose static text is still the English one where Spanish differs. */
function englishLeft(doc: Document): string[] {
  const left: string[] = [];
  for (const el of doc.querySelectorAll('[data-i18n]')) {
    const key = el.getAttribute('data-i18n') ?? '';
    const english = lookup(en as Dict, key);
    const spanish = lookup(es as Dict, key);
    if (
      english &&
      spanish &&
      english !== spanish &&
      !english.includes('{{') &&
      el.textContent?.trim() === english.trim()
    )
      left.push(key);
  }
  return left;
}

describe('pages in the language of their address, as crawlers read them', () => {
  let server: TestServer, listing: CompleteListing, close: (() => Promise<void>) | undefined;
  beforeAll(async () => ({ server, listing, close } = await startCrawledSite()));
  afterAll(() => close?.());

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
      [...doc.querySelectorAll('link[rel="modulepreload"][data-exp-lang]')].map(
        (l) => `${l.getAttribute('data-exp-lang')} ${l.getAttribute('href')}`,
      );
    // (those of its own elements and their runtime: scripts/site-html.ts languagePreloads)
    const spanish = preloads((await crawl(`${server.url}/es/findanagent`)).doc);
    for (const line of spanish) expect(line).toMatch(/^es \/widgets\/chunks\/es-[\w-]+\.js$/);
    const named = spanish.map((line) => /chunks\/es-(.+)-[\w-]{8}\.js$/.exec(line)?.[1]).sort();
    expect(named).toEqual(['agent-directory', 'base', 'site-header']);
    expect(preloads((await crawl(`${server.url}/findanagent`)).doc)).toEqual([]);
    // the unknown page is a 404 in both languages
    const missing = await crawl(`${server.url}/es/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.doc.documentElement.getAttribute('lang')).toBe('es');
    expect(meta(missing.doc, 'robots')).toBe('noindex');
  });

  it("an agent's Spanish page says her about in Spanish where she wrote one, and her languages by their Spanish names; her English page, in English", async () => {
    const [agent] = await server.sql<{ id: string; about_es: string; languages: string[] }>(
      'select id::text as id, about_es, languages from public.agents where about_es is not null order by id limit 1',
    );
    expect(agent?.languages).toEqual(expect.arrayContaining(['English', 'Spanish']));
    const es = (await crawl(`${server.url}/es/findanagent/${agent?.id}`)).doc;
    const text = (doc: Document) => doc.body.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text(es)).toContain(agent?.about_es.slice(0, 60));
    expect(es.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(
      new RegExp(`^${agent?.about_es.slice(0, 30)}`),
    );
    expect(text(es)).toMatch(/Inglés|Español/);
    expect(text(es)).not.toMatch(/\bEnglish\b|\bSpanish\b/);
    const en = (await crawl(`${server.url}/findanagent/${agent?.id}`)).doc;
    expect(text(en)).toMatch(/English, Spanish|Spanish, English/);
    expect(text(en)).not.toContain(agent?.about_es.slice(0, 60));
  });

  it("a Spanish page's own links and forms go to Spanish addresses (a visitor who came in Spanish stays in Spanish); files and the English twin's are left as they are", async () => {
    let seen = 0;
    for (const path of ['/es', '/es/about', '/es/search-properties', '/es/join', '/es/findanagent']) {
      const page = await crawl(`${server.url}${path}`);
      const targets = [...page.doc.querySelectorAll('a[href^="/"], form[action^="/"]')].map(
        (e) => e.getAttribute('href') ?? e.getAttribute('action') ?? '',
      );
      const pages = targets.filter(
        (t) => !/^\/(widgets|media|assets|og|demo)\/|\.[a-z]+$/.test(t.split(/[?#]/)[0] as string),
      );
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
      expect(
        [...(form?.querySelectorAll('input[name="operation"]') ?? [])].map((i) => i.getAttribute('value')),
      ).toEqual(['sale', 'rent', 'project']);
      const box = form?.querySelector('input[name="q"]');
      expect(box?.getAttribute('placeholder')).toBe(lookup(dict as Dict, 'site.home.hero.search.placeholder'));
      expect(form?.querySelector(`label[for="${box?.id}"]`)?.textContent).toBe(
        lookup(dict as Dict, 'site.home.hero.search.label'),
      );
    }
    const go = async (
      q: string,
      operation = 'sale',
      base = '/search-properties',
      more: Record<string, string> = {},
    ) => {
      const res = await fetch(`${server.url}${base}?${new URLSearchParams({ operation, q, ...more })}`, {
        redirect: 'manual',
      });
      expect(res.status, q).toBe(302);
      return res.headers.get('location');
    };
    // a place by its name as people write it, a sector under its city, the one rule of the location box
    const [sector] = await server.sql<{ path: string; name: string }>(
      "select path, name from internal.places where kind = 'sector' order by listings desc, path limit 1",
    );
    expect(await go('cumbaya', 'rent')).toBe('/search-properties?operation=rent&place=cumbaya');
    expect(await go('cumbaya', 'project')).toBe('/search-properties?operation=project&place=cumbaya');
    expect(await go(`  ${sector!.name.toUpperCase()} `)).toBe(
      `/search-properties?${new URLSearchParams({ place: sector!.path })}`,
    );
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
    expect(await go('<script>x</script>')).toBe(
      `/search-properties?${new URLSearchParams({ city: '<script>x</script>' })}`,
    );
    // the campaign's keys go along; nothing else of the address does
    expect(
      await go('cumbaya', 'rent', '/search-properties', {
        utm_campaign: 'hero',
        page: '7',
        property: '12',
        placeName: 'x',
        city: 'Quito',
      }),
    ).toBe('/search-properties?operation=rent&utm_campaign=hero&place=cumbaya');
    // nothing typed: the whole search
    expect(await go('   ')).toBe('/search-properties');
    // and the search page itself, without q, is the page
    expect((await fetch(`${server.url}/search-properties?operation=rent`, { redirect: 'manual' })).status).toBe(200);
  });
});
