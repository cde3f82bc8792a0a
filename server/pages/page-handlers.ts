/**
 * The pages of the site's addresses, each in a language: a built page (kept rendered, bounded, with
 * its link preview when it is indexed), a place's search page, a listing's page and an agent's page
 * from the data. Cache headers fit a CDN in front (send.ts).
 */
import type { Lang } from '../../core/lang.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { AgentProfile } from '../../core/protocol/agent.ts';
import type { Property } from '../../core/protocol/listing.ts';
import { listingPath, localizedPath, marketPath, placePath, projectPath, slugify } from '../../core/routes.ts';
import { LRUCache } from 'lru-cache';
import { matchPage } from './page-match.ts';
import { renderAgent } from './agent-page.tsx';
import { renderMarket } from './market-page.tsx';
import { renderProject, renderProjects } from './project-page.tsx';
import { parseListedUnit, parseProject, parseUnitType } from '../../core/protocol/projects.ts';
import type { MarketData } from '../../core/view/market-report.tsx';
import { lastFullMonth, placeKind } from '../../core/protocol/market.ts';
import type { HeadInfo, OgImage } from './head.tsx';
import { renderListing, renderMissingListing, toProperty, type ListingPageContext } from './listing-page.tsx';
import { visitCalendar } from '../../core/protocol/ical.ts';
import type { OpenHouse } from '../../core/protocol/open-house-details.ts';
import type { PageKit } from './page-kit.ts';
import { createPlaces, placeHero } from './places.ts';
import { SiteDataError, type SiteData } from './site-data.ts';
import { MISSING_CACHE, PAGE_CACHE, redirect, type PageResponse } from './send.ts';
import { nowDate } from '../../core/clock.ts';
import { privacyNotice } from './privacy-notice.tsx';
import { createListedPages } from './listed-pages.ts';
import { defaultPrivacy } from '../config.ts';
import type { NearbyPlace } from '../../core/protocol/nearby.ts';

export interface PageImages {
  /** an indexable page's link preview, made from the page as rendered */
  pageImage(route: string, lang: Lang, rendered: string): OgImage;
  /** a listing's or an agent's preview image, at an address that changes with its photo */
  ogUrl(kind: 'listings' | 'agents', id: string, source: string | undefined): string;
}

/** What is near a point (docs/projects.md "What is near"), for a project's or a listing's page: a page without it rather than no page. */
const nearbyOf = (d: SiteData, at: { lat: number | null; lng: number | null }): Promise<NearbyPlace[]> =>
  at.lat !== null && at.lng !== null ? d.nearby(at.lat, at.lng).catch(() => []) : Promise.resolve([]);

/** how long a market report stays rendered (the index is made again hourly) */
const MARKET_PAGE_TTL_MS = 5 * 60_000;

/** similar listings a listing page shows, and how many make the section "Similar properties" */
const SIMILAR_SHOWN = 8;
const SIMILAR_ENOUGH = 4;

export function createPageHandlers(kit: PageKit, images: () => PageImages) {
  const { options, origin, siteTexts, siteData, html, brand, outline } = kit;
  // a made-up address is never something the server remembers (docs/decisions.md #24)
  const rendered = new LRUCache<string, string>({
    max: 400,
    maxSize: 24 * 1024 * 1024,
    sizeCalculation: (page) => Math.max(1, page.length),
  });
  const places = createPlaces((request) => siteData(request));
  const listed = createListedPages(
    kit,
    (page, route, lang, path, given, query, variant) => staticPage(page, 200, route, lang, path, given, query, variant),
    places,
  );

  async function listingPage(
    id: string,
    slug: string,
    lang: Lang,
    path: string,
    request?: RequestContext,
  ): Promise<PageResponse> {
    const d = siteData(request);
    const t = siteTexts().t(lang);
    const ctx: ListingPageContext = {
      lang,
      t,
      origin: origin(),
      mediaBase: options.mediaBase(),
      imageUrl: (p: Property) => images().ogUrl('listings', p.id, p.images[0]),
    };
    // the listing, the ones most like it and its history at once: one wait instead of two (the
    // listings like it serve a gone listing's page too; a failure of the two extras waits for the row)
    const extras = Promise.all([
      d.like(id, SIMILAR_SHOWN),
      d.priceHistory(id),
      d.listingMarket(id).then(
        (f) => lastFullMonth(f),
        () => undefined,
      ),
      // its open houses (docs/visits.md): a page without them rather than no page
      d.openHouses(id).catch((): OpenHouse[] => []),
    ]);
    extras.catch(() => {});
    const row = await d.listing(id);
    if (!row) {
      const available = await d.availability(id);
      // a listing that is gone: the ones most like it; one that never was: the newest
      const like = available === false ? (await extras)[0] : [];
      const similar = like.length ? like : await d.similar(null, null, 4);
      const missing = renderMissingListing(available === false ? 'gone' : 'notFound', similar, ctx);
      return {
        status: available === false ? 410 : 404,
        type: 'text/html',
        body: html('listing.html', path, lang, missing.head, missing.body),
        headers: { 'Cache-Control': MISSING_CACHE },
      };
    }
    // a new development's listing is its project's page (docs/projects.md "In the search")
    const project = (row.project as { slug?: unknown } | null)?.slug;
    if (row.operation === 'project' && typeof project === 'string')
      return redirect(projectPath(project, lang), { 'Cache-Control': PAGE_CACHE });
    // one address per listing: another slug (an edited title, a shortened link) is sent to it
    if (slug !== slugify(String(row.title ?? '')))
      return redirect(listingPath(id, String(row.title ?? ''), lang), { 'Cache-Control': PAGE_CACHE });
    // what is near it, asked beside its extras (a listing placed at its city's centre has nothing near it to say)
    const here = toProperty(row, ctx);
    const nearby = here.approximate ? Promise.resolve([]) : nearbyOf(d, here);
    // with the listing beside its market: its sector's (or nearest place's) figure for its type, last month
    const [like, history, market, openHouses] = await extras;
    // the listings most like it when there are enough of them, else more of its city
    const similar =
      like.length >= SIMILAR_ENOUGH
        ? { rows: like, like: true }
        : { rows: await d.similar(typeof row.city === 'string' ? row.city : null, id, 4), like: false };
    const page = renderListing({ row, property: here }, similar, history, ctx, market, openHouses, await nearby);
    return {
      status: 200,
      type: 'text/html',
      body: html('listing.html', path, lang, page.head, page.body),
      headers: { 'Cache-Control': PAGE_CACHE },
    };
  }

  /** An open house's "Add to calendar" file (docs/visits.md "Open houses"): undefined when the listing or the open house is not there. */
  async function openHouseCalendar(
    listingId: string,
    openHouseId: string,
    lang: Lang,
    request?: RequestContext,
  ): Promise<PageResponse | undefined> {
    const d = siteData(request);
    const [row, list] = await Promise.all([d.listing(listingId), d.openHouses(listingId)]);
    const o = list.find((x) => x.id === openHouseId);
    if (!row || !o) return undefined;
    const t = siteTexts().t(lang);
    const p = toProperty(row, { t, mediaBase: options.mediaBase() });
    const url = new URL(listingPath(p.id, p.title, lang), origin()).href;
    const body = visitCalendar({
      method: 'PUBLISH',
      uid: `open-house-${o.id}@${new URL(origin()).hostname}`,
      sequence: 0,
      start: new Date(o.start),
      end: new Date(o.end),
      stamp: nowDate(),
      summary: t('openHouse.eventName', { title: p.title }),
      description: [o.remarks, o.livestream, url].filter(Boolean).join('\n'),
      location: [p.address, p.city, p.state].filter(Boolean).join(', '),
      url,
    });
    return {
      status: 200,
      type: 'text/calendar',
      body,
      headers: {
        'Content-Disposition': `attachment; filename="open-house-${o.id}.ics"`,
        'Cache-Control': 'public, max-age=300',
        'X-Robots-Tag': 'noindex',
      },
    };
  }

  async function agentPage(id: string, lang: Lang, path: string, request?: RequestContext): Promise<PageResponse> {
    const record = await siteData(request).agent(id);
    const t = siteTexts().t(lang);
    const page = renderAgent(record, id, {
      lang,
      t,
      origin: origin(),
      mediaBase: options.mediaBase(),
      imageUrl: (a: AgentProfile) => images().ogUrl('agents', a.id, a.photo),
      brand: brand(),
    });
    return {
      status: page.status,
      type: 'text/html',
      body: html('agent.html', path, lang, page.head, page.body),
      headers: { 'Cache-Control': page.status === 200 ? PAGE_CACHE : MISSING_CACHE },
    };
  }

  /** A rendered page of a route with its link preview, whose text is the page's own heading (made from the page once rendered). */
  function withPreview(template: string, path: string, lang: Lang, page: { head: HeadInfo; body: string }): string {
    const first = html(template, path, lang, page.head, page.body);
    return html(
      template,
      path,
      lang,
      { ...page.head, image: images().pageImage(page.head.route as string, lang, first) },
      page.body,
    );
  }

  // the reports change when the index is made again (hourly, docs/market.md "Freshness"): kept for minutes
  const reports = new LRUCache<string, string>({
    max: 300,
    maxSize: 24 * 1024 * 1024,
    sizeCalculation: (page) => Math.max(1, page.length),
    ttl: MARKET_PAGE_TTL_MS,
  });

  /** /market/{place}: a place's market report (docs/market.md), or the 404 where the index has none of its own. */
  async function marketPage(place: string, lang: Lang, path: string, request?: RequestContext): Promise<PageResponse> {
    const kept = reports.get(`${place}|${lang}`);
    if (kept !== undefined)
      return { status: 200, type: 'text/html', body: kept, headers: { 'Cache-Control': PAGE_CACHE } };
    const report = await siteData(request).marketReport(place);
    const data: MarketData = { ...report, ...(report.cities ? { outline: outline() ?? [] } : {}) };
    const all = report.all;
    // a sector's city by the name its listings give it (the report has figures of the sector and its peers)
    const cityName =
      placeKind(place) === 'sector'
        ? (await places.cities(request).catch(() => undefined))?.get(place.split('/')[0] as string)?.city
        : undefined;
    const page = renderMarket(place, data, {
      lang,
      t: siteTexts().t(lang),
      origin: origin(),
      now: nowDate(),
      cityName,
    });
    if (page.status !== 200) {
      // a place too thin for a report of its own: the nearest place that has one
      const offered = lastFullMonth(all);
      if (offered && offered.path !== place)
        return redirect(marketPath(offered.path, lang), { 'Cache-Control': PAGE_CACHE });
      options.log?.(`404 page for ${JSON.stringify(path)}`);
      return staticPage('404.html', 404, null, lang, path);
    }
    const body = withPreview('market.html', path, lang, page);
    reports.set(`${place}|${lang}`, body);
    return { status: 200, type: 'text/html', body, headers: { 'Cache-Control': PAGE_CACHE } };
  }

  /**
   * /projects and /projects/{slug} (docs/projects.md): the list, or a project with the payment plan
   * of the unit and lender its address picks (`?unit=&lender=`, the page's own form); an unknown
   * slug is the 404. Rendered at each request: the plan starts from today's month.
   */
  async function projectPage(
    slug: string,
    lang: Lang,
    path: string,
    params: URLSearchParams,
    request?: RequestContext,
  ): Promise<PageResponse> {
    const d = siteData(request);
    const ctx = { lang, t: siteTexts().t(lang), origin: origin(), now: nowDate() };
    const media = options.mediaBase();
    if (!slug) {
      const page = renderProjects(
        (await d.projects()).map((r) => parseProject(r, media)),
        ctx,
      );
      return {
        status: 200,
        type: 'text/html',
        body: withPreview('project.html', path, lang, page),
        headers: { 'Cache-Control': PAGE_CACHE },
      };
    }
    const found = await d.project(slug);
    if (!found) {
      options.log?.(`404 page for ${JSON.stringify(path)}`);
      return staticPage('404.html', 404, null, lang, path);
    }
    const project = parseProject(found.project, media);
    const units = found.units.map((u) => parseUnitType(u, media));
    // its sector's figure of last month, else its city's (a sector the index does not know); a page without it rather than no page
    const lastMonth = (place: string) =>
      d.marketIndex(place, 'all', 2).then(
        (f) => lastFullMonth(f),
        () => undefined,
      );
    const city = slugify(project.city);
    const nearby = nearbyOf(d, project);
    const figure =
      (project.sector ? await lastMonth(`${city}/${slugify(project.sector)}`) : undefined) ?? (await lastMonth(city));
    const choice = { unit: params.get('unit')?.slice(0, 20), lender: params.get('lender')?.slice(0, 20) };
    const page = renderProject(project, units, figure, choice, ctx, {
      listed: found.listed.map(parseListedUnit),
      nearby: await nearby,
    });
    return {
      status: 200,
      type: 'text/html',
      body: withPreview('project.html', path, lang, page),
      headers: { 'Cache-Control': PAGE_CACHE },
    };
  }

  /**
   * A page of the built site. An indexable one (a route) gets its link preview, whose text is the
   * page's own heading; kept rendered (bounded) per page, language and route.
   */
  function staticPage(
    page: string,
    status: number,
    route: string | null,
    lang: Lang,
    path: string,
    given?: (html: string) => string,
    /** what of the address its canonical keeps (head.tsx HeadInfo.query) */
    query = '',
    /** what else makes it another page at the same route (a search of homes for rent: its hero) */
    variant = '',
  ): PageResponse {
    // a built page whose content the server writes (the privacy notice, with the operator's details)
    const transform =
      given ??
      (page === 'privacy.html'
        ? (html: string) =>
            html.replace('<!--exp:content-->', () =>
              privacyNotice(siteTexts().t(lang), lang, options.privacy ?? defaultPrivacy()),
            )
        : undefined);
    // the 404 page is the same for every made-up address: kept once per language (and without a
    // twin to go to), so no address a visitor makes up is ever something the server remembers
    const notFound = status === 404;
    const key = `${page}|${lang}|${notFound ? '-' : (route ?? path)}|${variant}`;
    // a later page of a list is made each time: its number is the visitor's to make up
    let body = query ? undefined : rendered.get(key);
    if (body === undefined) {
      const twin = notFound ? undefined : path;
      body = html(page, twin, lang, route ? { route } : { robots: 'noindex' }, undefined, transform);
      if (route)
        body = html(
          page,
          twin,
          lang,
          { route, query, image: images().pageImage(route, lang, body) },
          undefined,
          transform,
        );
      if (!query) rendered.set(key, body);
    }
    return {
      status,
      type: 'text/html',
      body,
      headers: { 'Cache-Control': status === 200 ? PAGE_CACHE : MISSING_CACHE },
    };
  }

  /** /search-properties/{place}: the place's page (its search's results unless `results` is false), its one slug (301), or the 404. */
  async function placePage(
    segment: string,
    lang: Lang,
    path: string,
    params: URLSearchParams,
    request?: RequestContext,
    results = true,
  ): Promise<PageResponse> {
    const found = await places.find(segment, request);
    if (!found) {
      options.log?.(`404 page for ${JSON.stringify(path)}`);
      return staticPage('404.html', 404, null, lang, path);
    }
    const route = placePath(found.place.slug);
    if (!found.canonical) {
      const query = params.toString();
      return redirect(localizedPath(route, lang) + (query ? `?${query}` : ''), { 'Cache-Control': PAGE_CACHE });
    }
    return results
      ? listed.search(lang, path, params, route, request, found.place)
      : staticPage('search-properties.html', 200, route, lang, path, placeHero(found.place));
  }

  /**
   * The home page's search form (docs/product.md "The home page's search"): `q` a place, a street or
   * a listing's number. A number is its listing's page; a place (public.place_suggestions' first
   * answer, as the location box reads it) is that place's search; any other text is searched as a
   * location, as the box searches text it has no place for (`city`: cities, sectors, streets). Rent
   * and the campaign's utm_ keys go along, nothing else. A redirect, so each search keeps its one
   * address; when the data is away, the text is searched as it is (the search page reads its data
   * itself).
   */
  async function searchText(params: URLSearchParams, lang: Lang, request?: RequestContext): Promise<PageResponse> {
    const text = (params.get('q') ?? '').replace(/\s+/g, ' ').trim().slice(0, 100);
    const query = new URLSearchParams();
    const operation = params.get('operation');
    if (operation === 'rent' || operation === 'project') query.set('operation', operation);
    for (const [key, value] of params)
      if (/^utm_[a-z]{1,20}$/.test(key) && !query.has(key)) query.set(key, value.slice(0, 100));
    // where this text leads today (places come and go with the listings): found again after minutes
    const moved = (target: string, cache = PAGE_CACHE): PageResponse => ({
      ...redirect(target, { 'Cache-Control': cache }),
      status: 302,
    });
    const search = (cache?: string) => {
      const rest = query.toString();
      return moved(`${localizedPath('/search-properties', lang)}${rest ? `?${rest}` : ''}`, cache);
    };
    if (!text) return search();
    const found = await siteData(request)
      .placeFor(text)
      .catch((error: unknown) => {
        if (error instanceof SiteDataError) return undefined;
        throw error;
      });
    if (found === undefined) {
      query.set('city', text);
      return search('no-store');
    }
    // a listing's number, as public.place_suggestions reads one (its other listings are a street's)
    if (found?.kind === 'listing' && /^#?\d{1,15}$/.test(text)) return moved(listingPath(found.path, found.name, lang));
    if (found && found.kind !== 'listing') query.set('place', found.path);
    else query.set('city', text);
    return search();
  }

  /** The indexable page at a route (no language prefix), as the router renders it; undefined for any other. */
  async function indexedPage(route: string, lang: Lang): Promise<PageResponse | undefined> {
    const match = matchPage(route);
    const path = localizedPath(route, lang);
    if (match.kind === 'static')
      return match.route ? staticPage(match.page, match.status, match.route, lang, path) : undefined;
    if (match.kind === 'place') return placePage(match.segment, lang, path, new URLSearchParams(), undefined, false);
    if (match.kind === 'market') return marketPage(match.place, lang, path);
    if (match.kind === 'project') return projectPage(match.slug, lang, path, new URLSearchParams());
    return undefined;
  }

  return {
    listingPage,
    openHouseCalendar,
    agentPage,
    marketPage,
    projectPage,
    staticPage,
    placePage,
    searchPage: listed.searchAddress,
    directoryPage: listed.directory,
    homePage: listed.home,
    searchText,
    indexedPage,
  };
}
