/**
 * What the server writes inside an element from its first answer (server/pages/listed-pages.ts), as a
 * crawler reads it. A search page's first results (search-results.tsx): the listings, the count and the way on are the ones the search element shows first for that
 * address (its own calls, widgets/lib/data/listings.ts, and SQL written apart), in the page's
 * language, with their JSON-LD and the answer the element starts from; the address's search over a place's preset as the element reads
 * it; a visitor's text never reaches the markup; a page whose data is away still answers, without
 * the list. The agents' directory (agent-list.tsx): every agent the element lists first, as links to
 * their pages, and the rows it starts from. The home page's featured block (featured-list.tsx): the
 * newest listings the element shows, and the answer it starts from.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../core/locales/en.json' with { type: 'json' };
import es from '../../core/locales/es.json' with { type: 'json' };
import { translatorFor } from '../../core/translate.ts';
import { formatCount } from '../../core/protocol/format.ts';
import {
  getListingsCount,
  getListingsPage,
  type SearchFilters,
  type SortKey,
} from '../../widgets/lib/data/listings.ts';
import { crawl, jsonLd } from '../support/crawled-pages.ts';
import { htmlProblems } from '../support/html-validate.ts';
import { getAgents } from '../../widgets/lib/data/agents.ts';
import { AGENTS_ANSWER_MARK } from '../../core/protocol/agent.ts';
import { FEATURED_ANSWER_MARK, FEATURED_LIMIT } from '../../core/protocol/featured.ts';
import { agentPath } from '../../core/routes.ts';
import { parseSearchAnswer, SEARCH_ANSWER_MARK, searchFiltersKey } from '../../core/protocol/search-state.ts';
import { FOR_SALE, PUBLIC } from '../support/independent-sql.ts';
import { startDataApi } from '../support/rest-clients.ts';
import type { TestServer } from '../support/servers.ts';

describe("the elements' first answers in their pages, as a crawler reads them: the search's results, the directory's agents", () => {
  let server: TestServer, rest: PostgrestClient;
  beforeAll(async () => ({ server, rest } = await startDataApi('postgres')));
  afterAll(() => server?.close());

  const tiles = (doc: Document) =>
    [...doc.querySelectorAll('exp-property-search .listing-tiles a')].map((a) => a.getAttribute('href') ?? '');
  const idsOf = (hrefs: string[]) => hrefs.map((h) => Number(/\/properties\/(\d+)-/.exec(h)?.[1]));
  /** what the element shows first for a search: its own two calls */
  const elementShows = async (filters: SearchFilters, sort: SortKey, page: number) => ({
    ids: (await getListingsPage(rest, filters, sort, page)).map((r) => Number(r.id)),
    total: await getListingsCount(rest, filters),
  });

  it("a place's page lists the element's first page of that place, as SQL written apart finds it, with the count", async () => {
    const page = await crawl(`${server.url}/search-properties/quito`);
    expect(page.status).toBe(200);
    const shown = await elementShows({ city: 'Quito' }, 'featured', 1);
    expect(shown.ids).toHaveLength(24);
    expect(idsOf(tiles(page.doc))).toEqual(shown.ids);
    const sql = await server.sql<{ id: number }>(
      `select id from internal.listings where ${PUBLIC} and ${FOR_SALE} and city = 'Quito' order by created_at desc, id desc limit 24`,
    );
    expect(idsOf(tiles(page.doc))).toEqual(sql.map((r) => Number(r.id)));
    const t = translatorFor(en, 'en');
    expect(page.doc.querySelector('exp-property-search h2')?.textContent).toBe(
      t('results.count', { count: shown.total, formatted: formatCount(shown.total) }),
    );
    expect(page.doc.querySelector('exp-property-search .search-list__showing')?.textContent).toBe(
      t('results.showing', { from: '1', to: '24', total: formatCount(shown.total) }),
    );
    // the answer itself, for the element to start from: its own two calls' answers, to the letter
    const embedded = parseSearchAnswer(
      JSON.parse(
        page.doc.querySelector(`exp-property-search > script[type="application/json"][${SEARCH_ANSWER_MARK}]`)
          ?.textContent ?? 'null',
      ),
    );
    expect(embedded).toEqual({
      filtersKey: searchFiltersKey({ city: 'Quito' }),
      sort: 'featured',
      page: 1,
      total: shown.total,
      rows: await getListingsPage(rest, { city: 'Quito' }, 'featured', 1),
    });
    // the tiles' photos are for readers without JavaScript (the element's cards bring their own, in their size)
    const list = page.html.slice(page.html.indexOf('<section class="search-list"'));
    const inList = list.slice(0, list.indexOf('</section>'));
    expect(inList.match(/<img /g)?.length).toBeGreaterThan(0);
    expect(inList.match(/<img /g)?.length).toBe(inList.match(/<noscript><(?:img|picture)\b/g)?.length);
    // the way on, and none back from the first page
    expect(page.doc.querySelector('a[rel="prev"]')).toBeNull();
    expect(page.doc.querySelector('a[rel="next"]')?.getAttribute('href')).toBe(
      '/search-properties/quito?city=Quito&page=2',
    );
  });

  it("an address's order and page, in Spanish: the element's page of them, its links in Spanish, the pages before and after", async () => {
    const page = await crawl(`${server.url}/es/search-properties?sort=price_asc&page=3`);
    expect(page.status).toBe(200);
    const shown = await elementShows({}, 'price_asc', 3);
    expect(idsOf(tiles(page.doc))).toEqual(shown.ids);
    for (const href of tiles(page.doc)) expect(href).toMatch(/^\/es\/properties\/\d+-/);
    const t = translatorFor(es, 'es');
    expect(page.doc.querySelector('exp-property-search h2')?.textContent).toBe(
      t('results.count', { count: shown.total, formatted: formatCount(shown.total) }),
    );
    expect(page.doc.querySelector('exp-property-search .search-list__showing')?.textContent).toBe(
      t('results.showing', { from: '49', to: '72', total: formatCount(shown.total) }),
    );
    const nav = page.doc.querySelector('nav.search-list__pages');
    expect(nav?.getAttribute('aria-label')).toBe(t('pagination.label'));
    expect(page.doc.querySelector('a[rel="prev"]')?.getAttribute('href')).toBe(
      '/es/search-properties?sort=price_asc&page=2',
    );
    expect(page.doc.querySelector('a[rel="prev"]')?.textContent).toBe(t('pagination.previous'));
    expect(page.doc.querySelector('a[rel="next"]')?.getAttribute('href')).toBe(
      '/es/search-properties?sort=price_asc&page=4',
    );
    // the page before the first leads back without a page
    const second = await crawl(`${server.url}/es/search-properties?sort=price_asc&page=2`);
    expect(second.doc.querySelector('a[rel="prev"]')?.getAttribute('href')).toBe(
      '/es/search-properties?sort=price_asc',
    );
  });

  it("each page of a place's list is its own canonical, with its twins; a search with filters or an order has its page's", async () => {
    const head = async (path: string) => {
      const { doc } = await crawl(`${server.url}${path}`);
      const href = (selector: string) => doc.querySelector(selector)?.getAttribute('href') ?? null;
      return {
        canonical: href('link[rel="canonical"]'),
        en: href('link[rel="alternate"][hreflang="en"]'),
        es: href('link[rel="alternate"][hreflang="es"]'),
        og: doc.querySelector('meta[property="og:url"]')?.getAttribute('content') ?? null,
      };
    };
    // the second page as the first page's "next" leads to it (the place's city in the address)
    expect(await head('/search-properties/quito?city=Quito&page=2')).toEqual({
      canonical: `${server.url}/search-properties/quito?page=2`,
      en: `${server.url}/search-properties/quito?page=2`,
      es: `${server.url}/es/search-properties/quito?page=2`,
      og: `${server.url}/search-properties/quito?page=2`,
    });
    expect((await head('/es/search-properties?page=3')).canonical).toBe(`${server.url}/es/search-properties?page=3`);
    // the first page, another search and an order keep the page's route
    expect((await head('/search-properties/quito')).canonical).toBe(`${server.url}/search-properties/quito`);
    expect((await head('/search-properties/quito?city=Cuenca&page=2')).canonical).toBe(
      `${server.url}/search-properties/quito`,
    );
    expect((await head('/es/search-properties?sort=price_asc&page=3')).canonical).toBe(
      `${server.url}/es/search-properties`,
    );
    // and the page the server keeps for the route is not the later page's
    expect((await head('/search-properties/quito')).og).toBe(`${server.url}/search-properties/quito`);
  });

  it("the address's filters over the place's own, as the element reads them; a page past the last leads back to the last", async () => {
    const cuenca = await crawl(`${server.url}/search-properties/quito?city=Cuenca&beds=2`);
    expect(idsOf(tiles(cuenca.doc))).toEqual((await elementShows({ city: 'Cuenca', beds: 2 }, 'featured', 1)).ids);
    expect(tiles(cuenca.doc).length).toBeGreaterThan(0);
    const { total } = await elementShows({}, 'featured', 1);
    const last = Math.ceil(total / 24);
    const past = await crawl(`${server.url}/search-properties?page=${last + 5}`);
    expect(past.status).toBe(200);
    expect(tiles(past.doc)).toEqual([]);
    expect(past.doc.querySelector('a[rel="prev"]')?.getAttribute('href')).toBe(`/search-properties?page=${last}`);
    expect(past.doc.querySelector('a[rel="next"]')).toBeNull();
  });

  it("the list's JSON-LD is the element's own script (which it keeps), its items the tiles, numbered from the page's first", async () => {
    const page = await crawl(`${server.url}/search-properties?page=2`);
    const scripts = page.doc.querySelectorAll(
      'exp-property-search > script[type="application/ld+json"][data-exp-structured-data]',
    );
    expect(scripts).toHaveLength(1);
    const [list] = jsonLd(page.doc).filter((d) => d['@type'] === 'ItemList');
    const items = list?.itemListElement as Array<{ position: number; item: { url: string } }>;
    expect(items.map((i) => i.position)).toEqual(Array.from({ length: 24 }, (_, i) => 25 + i));
    expect(items.map((i) => new URL(i.item.url).pathname)).toEqual(tiles(page.doc));
  });

  it("a visitor's text in the address reaches the page only as escaped text, and a search that finds nothing says so", async () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(1)>';
    const res = await fetch(
      `${server.url}/search-properties?city=${encodeURIComponent(hostile)}&keywords=${encodeURIComponent(hostile)}`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    const page = await crawl(`${server.url}/search-properties?city=${encodeURIComponent(hostile)}`);
    const t = translatorFor(en, 'en');
    expect(page.doc.querySelector('exp-property-search h2')?.textContent).toBe(
      t('results.count', { count: 0, formatted: '0' }),
    );
    expect(page.doc.querySelector('exp-property-search .search-list__showing')?.textContent).toBe(
      t('results.empty.text'),
    );
    expect(tiles(page.doc)).toEqual([]);
  });

  it('when the search cannot be read, the page still answers, without the list (the element reads it itself)', async () => {
    await server.sql('revoke execute on function public.search_listings_count(jsonb) from anon');
    try {
      const page = await crawl(`${server.url}/search-properties/quito`);
      expect(page.status).toBe(200);
      expect(page.doc.querySelector('exp-property-search')?.getAttribute('city')).toBe('Quito');
      expect(page.doc.querySelector('exp-property-search .search-list')).toBeNull();
      expect(page.doc.querySelector('h1')?.textContent).toContain('Quito');
    } finally {
      await server.sql('grant execute on function public.search_listings_count(jsonb) to anon');
    }
    expect(tiles((await crawl(`${server.url}/search-properties/quito`)).doc)).toHaveLength(24);
  });

  it("the directory lists every agent the element lists first, as links to their pages, in the page's language, with the rows it starts from", async () => {
    const sql = await server.sql<{ id: number; first_name: string | null; last_name: string | null }>(
      "select id, first_name, last_name from public.agents where country_code = 'EC' order by id",
    );
    const fromElement = await getAgents(rest, '');
    expect(fromElement.map((a) => Number(a.id))).toEqual(sql.map((r) => Number(r.id)));
    for (const [path, dict, lang] of [
      ['/findanagent', en, 'en'],
      ['/es/findanagent', es, 'es'],
    ] as const) {
      const page = await crawl(`${server.url}${path}`);
      expect(page.status).toBe(200);
      const links = [...page.doc.querySelectorAll('exp-agent-directory .agent-tiles a')];
      expect(links.map((a) => a.getAttribute('href'))).toEqual(sql.map((r) => agentPath(r.id, lang)));
      const t = translatorFor(dict, lang);
      // her name as the seed's own rows write it (blanks around, a missing half), else the default
      const named = (r: { first_name: string | null; last_name: string | null }) =>
        [r.first_name, r.last_name]
          .map((n) => n?.trim())
          .filter(Boolean)
          .join(' ') || t('agent.defaultName');
      expect(links.map((a) => a.textContent)).toEqual(sql.map(named));
      // their photos are for readers without JavaScript (the element's cards bring their own)
      const tiles = page.html.slice(page.html.indexOf('<ul class="listing-tiles agent-tiles"'));
      const inTiles = tiles.slice(0, tiles.indexOf('</ul>'));
      expect(inTiles.match(/<img /g)?.length).toBeGreaterThan(0);
      expect(inTiles.match(/<img /g)?.length).toBe(inTiles.match(/<noscript><img\b/g)?.length);
      expect(page.doc.querySelector('exp-agent-directory h1')?.textContent).toBe(t('agents.title'));
      expect(page.doc.querySelector('exp-agent-directory h2')?.textContent).toBe(
        t('agents.count', { count: sql.length, formatted: formatCount(sql.length) }),
      );
      const rows = JSON.parse(
        page.doc.querySelector(`exp-agent-directory > script[type="application/json"][${AGENTS_ANSWER_MARK}]`)
          ?.textContent ?? 'null',
      );
      expect(rows).toEqual(fromElement);
    }
  });

  it("an agent's name is written as it is, escaped; when the agents cannot be read the directory still answers, without them", async () => {
    const nasty = '</script><img src=x onerror=alert(1)> Ana "$&"';
    const [row] = await server.sql<{ id: number }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ($1, 'Ruiz', 'ana.nasty@example.org', 'EC') returning id",
      [nasty],
    );
    try {
      const res = await fetch(`${server.url}/findanagent`);
      const html = await res.text();
      expect(html).not.toContain('<img src=x');
      const page = await crawl(`${server.url}/findanagent`);
      const link = page.doc.querySelector(`exp-agent-directory a[href="${agentPath(Number(row?.id))}"]`);
      expect(link?.textContent).toBe(`${nasty} Ruiz`);
      const rows = JSON.parse(
        page.doc.querySelector(`exp-agent-directory > script[${AGENTS_ANSWER_MARK}]`)?.textContent ?? '[]',
      ) as Array<{ first_name: string }>;
      expect(rows.some((r) => r.first_name === nasty)).toBe(true);
      expect(await htmlProblems(html, 'directory with a nasty name')).toEqual([]);
    } finally {
      await server.sql('delete from public.agents where id = $1', [row?.id]);
    }
    // one column the directory reads, kept from the public key: its call fails as a data API away would
    await server.sql('revoke select (picture) on public.agents from anon');
    try {
      const page = await crawl(`${server.url}/findanagent`);
      expect(page.status).toBe(200);
      expect(page.doc.querySelector('exp-agent-directory')).not.toBeNull();
      expect(page.doc.querySelector('exp-agent-directory .agent-list')).toBeNull();
    } finally {
      await server.sql('grant select (picture) on public.agents to anon');
    }
  });

  it("the home page's featured block lists the element's newest listings, in the page's language, with the answer it starts from", async () => {
    const fromElement = await getListingsPage(rest, {}, 'newest', 1, undefined, FEATURED_LIMIT);
    const sql = await server.sql<{ id: number }>(
      `select id from internal.listings where ${PUBLIC} and ${FOR_SALE} order by created_at desc, id desc limit ${FEATURED_LIMIT}`,
    );
    expect(fromElement.map((r) => Number(r.id))).toEqual(sql.map((r) => Number(r.id)));
    for (const [path, dict, lang] of [
      ['/', en, 'en'],
      ['/es', es, 'es'],
    ] as const) {
      const page = await crawl(`${server.url}${path}`);
      expect(page.status).toBe(200);
      const hrefs = [...page.doc.querySelectorAll('exp-featured-listings .listing-tiles a')].map(
        (a) => a.getAttribute('href') ?? '',
      );
      expect(idsOf(hrefs)).toEqual(sql.map((r) => Number(r.id)));
      for (const href of hrefs) expect(href.startsWith(lang === 'es' ? '/es/properties/' : '/properties/')).toBe(true);
      const t = translatorFor(dict, lang);
      expect(page.doc.querySelector('exp-featured-listings h2')?.textContent).toBe(t('featured.heading'));
      expect(page.doc.querySelector('exp-featured-listings a.btn')?.getAttribute('href')).toBe(
        lang === 'es' ? '/es/search-properties' : '/search-properties',
      );
      const answer = JSON.parse(
        page.doc.querySelector(`exp-featured-listings > script[type="application/json"][${FEATURED_ANSWER_MARK}]`)
          ?.textContent ?? 'null',
      );
      expect(answer).toEqual({ community: '', operation: 'sale', limit: FEATURED_LIMIT, rows: fromElement });
    }
    await server.sql('revoke execute on function public.search_listings(jsonb, text, integer, integer) from anon');
    try {
      const page = await crawl(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(page.doc.querySelector('exp-featured-listings')).not.toBeNull();
      expect(page.doc.querySelector('exp-featured-listings .featured-list')).toBeNull();
    } finally {
      await server.sql('grant execute on function public.search_listings(jsonb, text, integer, integer) to anon');
    }
  });
});
