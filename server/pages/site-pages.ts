/**
 * The site's pages as the server renders them: every page at its English address and its Spanish
 * twin under /es, in that language in the HTML (docs/decisions.md #18; `?lang=` redirects to the
 * twin); listing, agent and place pages from the data (page-handlers.ts); sitemaps, robots.txt,
 * preview images (preview-images.ts) and the alert and visit links' pages (link-pages.ts). This file routes
 * an address to them; sending and caching are send.ts's. Cache headers fit a CDN in front: shared
 * caches keep pages for minutes and serve them stale while they revalidate; browsers revalidate.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_LANG, normaliseLang, type Lang } from '../../core/lang.ts';
import { requestContext, type RequestContext } from '../http/request-context.ts';
import { cleanPath, localizedPath, splitLangPath } from '../../core/routes.ts';
import { matchDemo, matchPage, redirectFor } from './page-match.ts';
import { unavailablePage } from './unavailable.tsx';
import { createLinkPages } from './link-pages.ts';
import { createPageHandlers } from './page-handlers.ts';
import { createPageKit, type PagesOptions } from './page-kit.ts';
import { createPreviewImages } from './preview-images.ts';
import { redirect, send, type PageResponse } from './send.ts';
import { SiteDataError, type SiteData } from './site-data.ts';
import { createSitemaps, robotsTxt } from './sitemaps.ts';

export type { PageResponse, PagesOptions };

export function createPages(options: PagesOptions) {
  const kit = createPageKit(options);
  const { origin, siteTexts, siteData, template } = kit;
  const pages = createPageHandlers(kit, () => previews.links);
  const previews = createPreviewImages(kit, pages.indexedPage);
  const links = createLinkPages(kit);
  // the sitemaps of the data client in use (made again when the backend changes)
  let sitemapsOf: { data: SiteData; sitemaps: ReturnType<typeof createSitemaps> } | undefined;
  const sitemaps = () => {
    const data = siteData();
    if (sitemapsOf?.data !== data)
      sitemapsOf = {
        data,
        sitemaps: createSitemaps({
          data: (request) => (request ? siteData(request) : data),
          origin: origin(),
          ...(options.sitemapUrlsPerFile ? { urlsPerFile: options.sitemapUrlsPerFile } : {}),
        }),
      };
    return sitemapsOf.sitemaps;
  };

  /** The page the server says while the data behind a page is away (the database restarting, a deadline) or the client must wait (429). */
  const unavailable = (lang: Lang, status: 429 | 503 = 503, retryAfterSeconds = 10): PageResponse => {
    const t = siteTexts().t(lang);
    const body = unavailablePage(t, lang);
    return {
      status,
      type: 'text/html',
      body,
      headers: { 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' },
    };
  };

  /** Answers the site's pages; undefined for anything else (assets, the API). */
  async function respond(url: URL, request?: RequestContext): Promise<PageResponse | undefined> {
    const path = url.pathname;
    // '//evil.com', '/es/\\evil.com', '/es///x': the one cleaned form first, so that no address we
    // answer with (a Location, a canonical link, a twin) can name another host
    const clean = cleanPath(path);
    if (clean !== path) return redirect(clean + url.search);
    const canonical = redirectFor(path, url.search);
    if (canonical) return redirect(canonical);
    // ?lang= (the old Spanish addresses, a language link) goes to the page's address in that language
    const asked = url.searchParams.get('lang');
    if (asked !== null && !path.startsWith('/demo')) {
      const lang = normaliseLang(asked) ?? DEFAULT_LANG;
      const rest = new URLSearchParams(url.search);
      rest.delete('lang');
      const query = rest.toString();
      return redirect(`${localizedPath(path, lang)}${query ? `?${query}` : ''}`);
    }
    if (path === '/robots.txt')
      return {
        status: 200,
        type: 'text/plain',
        body: robotsTxt(origin()),
        headers: { 'Cache-Control': 'public, max-age=3600' },
      };
    if (path === '/sitemap.xml' || /^\/sitemaps\/[a-z0-9-]{1,40}\.xml$/.test(path)) {
      const name = path === '/sitemap.xml' ? 'index' : path.slice('/sitemaps/'.length, -4);
      const body = await sitemaps().file(name, request);
      return body === null
        ? undefined
        : {
            status: 200,
            type: 'application/xml',
            body,
            headers: { 'Cache-Control': 'public, max-age=3600, s-maxage=3600' },
          };
    }
    const og = /^\/og\/(listings|agents)\/(\d{1,15})\.jpg$/.exec(path);
    if (og) return previews.photo(og[1] as 'listings' | 'agents', og[2] as string, url.searchParams.get('v'), request);
    const card = /^\/og\/pages(\/[a-z0-9/-]{1,200})\.(en|es)\.jpg$/.exec(path);
    if (card) return previews.pageCard(card[1] === '/index' ? '/' : (card[1] as string), card[2] as Lang);
    const demo = matchDemo(path);
    // the demos are for people embedding the elements, never for a search engine: one header says so for all of them
    if (demo)
      return template(demo) === undefined
        ? undefined
        : {
            status: 200,
            type: 'text/html',
            body: template(demo) as string,
            headers: { 'Cache-Control': 'no-cache', 'X-Robots-Tag': 'noindex' },
          };
    // an open house's "Add to calendar" (docs/visits.md "Open houses")
    const ics = /^(?:\/es)?\/open-houses\/(\d{1,15})\/(\d{1,15})\.ics$/.exec(path);
    if (ics) return pages.openHouseCalendar(ics[1] as string, ics[2] as string, splitLangPath(path).lang, request);
    if (path.includes('.') && !path.startsWith('/properties/')) return undefined;
    const { lang, path: plain } = splitLangPath(path);
    const match = matchPage(plain);
    if (match.kind === 'listing') return pages.listingPage(match.id, match.slug, lang, path, request);
    if (match.kind === 'agent') return pages.agentPage(match.id, lang, path, request);
    if (match.kind === 'market') return pages.marketPage(match.place, lang, path, request);
    if (match.kind === 'project') return pages.projectPage(match.slug, lang, path, url.searchParams, request);
    if (match.kind === 'place') return pages.placePage(match.segment, lang, path, url.searchParams, request);
    if (match.page === 'search-properties.html' && url.searchParams.has('q'))
      return pages.searchText(url.searchParams, lang, request);
    if (match.page === 'search-properties.html' && match.status === 200)
      return pages.searchPage(lang, path, url.searchParams, match.route, request);
    if (match.page === 'findanagent.html' && match.status === 200)
      return pages.directoryPage(lang, path, match.route, request);
    if (match.page === 'index.html' && match.status === 200) return pages.homePage(lang, path, match.route, request);
    if (match.status === 404) options.log?.(`404 page for ${JSON.stringify(path)}`);
    return pages.staticPage(match.page, match.status, match.route, lang, path);
  }

  return {
    respond,
    links,
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
      let answer: PageResponse | undefined;
      try {
        answer = await respond(url, requestContext(req));
      } catch (error) {
        // the data behind a page is away (the database restarting): say so, and when to come back
        if (!(error instanceof SiteDataError)) throw error;
        options.log?.(`[pages] ${url.pathname}: ${error.message}`);
        // the data API asked this visitor to wait (a hosted project's limits): so does the page
        answer = unavailable(splitLangPath(url.pathname).lang, error.status === 429 ? 429 : 503);
      }
      if (!answer) return false;
      send(req, res, answer, options.csp?.());
      return true;
    },
    /** the page of a request that cannot be served now (app.ts): over its client's share, or past its deadline */
    busy(req: IncomingMessage, res: ServerResponse, url: URL, status: 429 | 503, retryAfterSeconds: number): void {
      send(req, res, unavailable(splitLangPath(url.pathname).lang, status, retryAfterSeconds), options.csp?.());
    },
    /** the 404 page, for whatever no page, asset or API answered */
    async notFound(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
      options.log?.(`404 page for ${JSON.stringify(url.pathname)}`);
      send(
        req,
        res,
        pages.staticPage('404.html', 404, null, splitLangPath(url.pathname).lang, url.pathname),
        options.csp?.(),
      );
    },
  };
}
