/**
 * The site's pages as the server renders them: every page at its English address and its Spanish
 * twin under /es, in that language in the HTML (docs/decisions.md #18; `?lang=` redirects to the
 * twin); listing and agent pages from the data; sitemaps, robots.txt and preview images. Cache
 * headers fit a CDN in front: shared caches keep pages for minutes and serve them stale while they
 * revalidate; browsers revalidate (ETag).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { normaliseImages, type Property } from '../../core/protocol/listing.ts';
import { cleanPath, listingPath, localizedPath, slugify, splitLangPath, twinPath } from '../../core/routes.ts';
import type { AgentProfile } from '../../core/protocol/agent.ts';
import { Lru } from '../http/lru.ts';
import { matchDemo, matchPage, redirectFor } from '../http/routes.ts';
import { renderAgent } from './agent-page.ts';
import { alertPageGet, alertPagePost, type AlertPageKind, type CallFunction } from './alerts-page.ts';
import { readBody } from '../http/body.ts';
import { renderHead, type HeadInfo, type OgImage } from './head.ts';
import { createImageCache, OG_SIZE, versionOf, type ImageSources } from './images.ts';
import { renderListing, renderMissingListing, type ListingPageContext } from './listing-page.ts';
import { escapeHtml } from '../../core/fill.ts';
import { createPlaces, type Place } from './places.ts';
import { cardOf, cardVersion, renderCard } from './previews.ts';
import { MISSING_CACHE, PAGE_CACHE, redirect, send, type PageResponse } from './send.ts';
import { createSiteData, SiteDataError, type SiteData } from './site-data.ts';
import { createSitemaps, robotsTxt } from './sitemaps.ts';
import { loadTexts, type SiteTexts } from './texts.ts';
import { DEFAULT_LANG, normaliseLang, type Lang } from '../../core/lang.ts';

export type { PageResponse };

export interface PagesOptions {
  /** dist/site: the built pages and the texts */
  siteDir: string;
  /** the public address of the site (canonical links, sitemaps): SITE_URL, known once the server listens */
  origin: () => string;
  /** where the pages read data: a Supabase project or our own server (set once it listens) */
  api: () => { url: string; key: string };
  /** what relative media paths of the data are relative to (the public API's origin) */
  mediaBase: () => string;
  /** disk cache of preview images */
  imageCacheDir: string;
  /** where images come from: our own media from disk, anything else through the safe fetcher */
  imageSources: ImageSources;
  /** sitemap file size, in addresses (tests use small files) */
  sitemapUrlsPerFile?: number;
  log?: (line: string) => void;
}

export function createPages(options: PagesOptions) {
  const origin = () => options.origin().replace(/\/+$/, '');
  let texts: SiteTexts | undefined;
  // every memory of the pages is bounded (docs/decisions.md #24): a made-up address is never one of them
  const templates = new Lru<string, string>({ maxEntries: 64 });
  const rendered = new Lru<string, string>({ maxEntries: 400, maxBytes: 24 * 1024 * 1024, sizeOf: (html) => html.length });
  let data: SiteData | undefined;
  let dataFor = '';
  const picture = (path: string) => readFileSync(resolve(options.siteDir, `.${cleanPath(path)}`));
  const DEFAULT_PICTURE = '/media/video/quito-poster.webp';
  const images = createImageCache({ dir: options.imageCacheDir, fallback: () => picture(DEFAULT_PICTURE), sources: options.imageSources, ...(options.log ? { log: options.log } : {}) });
  const places = createPlaces(() => siteData());
  const sitemaps = () => (sitemapsFor ??= createSitemaps({ data: siteData(), origin: origin(), ...(options.sitemapUrlsPerFile ? { urlsPerFile: options.sitemapUrlsPerFile } : {}) }));
  let sitemapsFor: ReturnType<typeof createSitemaps> | undefined;

  const siteTexts = () => (texts ??= loadTexts(options.siteDir));
  const siteData = (): SiteData => {
    const api = options.api();
    if (!data || dataFor !== `${api.url}\n${api.key}`) {
      data = createSiteData(api);
      dataFor = `${api.url}\n${api.key}`;
      sitemapsFor = undefined;
    }
    return data;
  };
  const template = (page: string): string | undefined => {
    let html = templates.get(page);
    if (html === undefined) {
      const file = resolve(options.siteDir, page);
      if (!existsSync(file)) return undefined;
      html = readFileSync(file, 'utf8');
      templates.set(page, html);
    }
    return html;
  };

  /**
   * A built page as the page of `path` in `lang`. Data goes in through function replacers only:
   * a text holding `$&`, `$'` or `$1` is written as it is, never read as a replacement pattern.
   */
  const html = (page: string, path: string | undefined, lang: Lang, head: HeadInfo, content?: string, transform: (html: string) => string = (h) => h): string => {
    const base = transform(template(page) ?? template('404.html') ?? '<!doctype html><html lang="en"><head></head><body></body></html>');
    const withContent = content === undefined ? base : base.replace('<!--exp:content-->', () => content);
    // no line ends in spaces (a template's empty optional block): the page is as tidy as it is valid
    return renderHead(withContent, lang, siteTexts().dict(lang), origin(), { ...(path ? { twin: twinPath(path) } : {}), ...head }).replace(/[ \t]+$/gm, '');
  };

  /** /search-properties/cumbaya: the hero names the place and shows its picture, the search is set to it, in the HTML */
  const placeHero = (place: Place) => (html: string) => {
    const known = place.known;
    const params = escapeHtml(JSON.stringify({ location: known ? { $t: `site.locations.${known.slug}.name` } : (place.city ?? place.slug) }));
    let out = html
      .replace(/(<h1 id="hero-title" data-hero-title) data-i18n="site\.search\.hero\.title"/, (_m, start: string) => `${start} data-i18n="site.search.hero.titleIn" data-i18n-params="${params}"`)
      .replace(/<exp-property-search\b/, (tag) => (place.city ? `${tag} city="${escapeHtml(place.city)}"` : tag));
    if (known) {
      out = out
        .replace(/(data-hero-subtitle) data-i18n="site\.search\.hero\.subtitle"/, (_m, start: string) => `${start} data-i18n="site.locations.${known.slug}.subtitle"`)
        .replace(/(<video class="hero__media" data-video=")quito(" poster="\/media\/video\/)quito(-poster\.webp")/, (_m, a: string, b: string, c: string) => `${a}${known.video}${b}${known.video}${c}`);
    }
    return out;
  };

  /** The brokerage's name, as the build wrote it into every page (og:site_name, from the site's configuration). */
  const brand = () => cardOf(template('agent.html') ?? '', DEFAULT_PICTURE).eyebrow;

  /** The page's link preview: its own card (previews.ts), at an address that changes with it. */
  const pageImage = (route: string, lang: Lang, rendered: string): OgImage => {
    const card = cardOf(rendered, DEFAULT_PICTURE);
    const name = route === '/' ? '/index' : route;
    return { url: new URL(`/og/pages${name}.${lang}.jpg?v=${cardVersion(card)}`, origin()).href, width: OG_SIZE.width, height: OG_SIZE.height, alt: card.title };
  };

  const ogUrl = (kind: 'listings' | 'agents', id: string, source: string | undefined) => new URL(`/og/${kind}/${encodeURIComponent(id)}.jpg${source ? `?v=${versionOf(source)}` : ''}`, origin()).href;

  async function listingPage(id: string, slug: string, lang: Lang, path: string): Promise<PageResponse> {
    const d = siteData();
    const t = siteTexts().t(lang);
    const ctx: ListingPageContext = { lang, t, origin: origin(), mediaBase: options.mediaBase(), imageUrl: (p: Property) => ogUrl('listings', p.id, p.images[0]) };
    const row = await d.listing(id);
    if (!row) {
      const available = await d.availability(id);
      const similar = await d.similar(null, null, 4);
      const missing = renderMissingListing(available === false ? 'gone' : 'notFound', similar, ctx);
      return { status: available === false ? 410 : 404, type: 'text/html', body: html('listing.html', path, lang, missing.head, missing.body), headers: { 'Cache-Control': MISSING_CACHE } };
    }
    // one address per listing: another slug (an edited title, a shortened link) is sent to it
    if (slug !== slugify(String(row.title ?? ''))) return redirect(listingPath(id, String(row.title ?? ''), lang), { 'Cache-Control': PAGE_CACHE });
    const similar = await d.similar(typeof row.city === 'string' ? row.city : null, id, 4);
    const page = renderListing(row, similar, ctx);
    return { status: 200, type: 'text/html', body: html('listing.html', path, lang, page.head, page.body), headers: { 'Cache-Control': PAGE_CACHE } };
  }

  async function agentPage(id: string, lang: Lang, path: string): Promise<PageResponse> {
    const record = await siteData().agent(id);
    const t = siteTexts().t(lang);
    const page = renderAgent(record, id, { lang, t, origin: origin(), mediaBase: options.mediaBase(), imageUrl: (a: AgentProfile) => ogUrl('agents', a.id, a.photo), brand: brand() });
    return { status: page.status, type: 'text/html', body: html('agent.html', path, lang, page.head, page.body), headers: { 'Cache-Control': page.status === 200 ? PAGE_CACHE : MISSING_CACHE } };
  }

  /**
   * A page of the built site. An indexable one (a route) gets its link preview, whose text is the
   * page's own heading; kept rendered (bounded) per page, language and route.
   */
  function staticPage(page: string, status: number, route: string | null, lang: Lang, path: string, transform?: (html: string) => string): PageResponse {
    // the 404 page is the same for every made-up address: kept once per language (and without a
    // twin to go to), so no address a visitor makes up is ever something the server remembers
    const notFound = status === 404;
    const key = `${page}|${lang}|${notFound ? '-' : (route ?? path)}`;
    let body = rendered.get(key);
    if (body === undefined) {
      const twin = notFound ? undefined : path;
      body = html(page, twin, lang, route ? { route } : { robots: 'noindex' }, undefined, transform);
      if (route) body = html(page, twin, lang, { route, image: pageImage(route, lang, body) }, undefined, transform);
      rendered.set(key, body);
    }
    return { status, type: 'text/html', body, headers: { 'Cache-Control': status === 200 ? PAGE_CACHE : MISSING_CACHE } };
  }

  /** /search-properties/{place}: the place's page, its one slug (301), or the 404. */
  async function placePage(segment: string, lang: Lang, path: string, search: string): Promise<PageResponse> {
    const found = await places.find(segment);
    if (!found) {
      options.log?.(`404 page for ${JSON.stringify(path)}`);
      return staticPage('404.html', 404, null, lang, path);
    }
    const route = `/search-properties/${found.place.slug}`;
    if (!found.canonical) return redirect(localizedPath(route, lang) + search, { 'Cache-Control': PAGE_CACHE });
    return staticPage('search-properties.html', 200, route, lang, path, placeHero(found.place));
  }

  /** /og/pages/about.es.jpg: the card of an indexable page, made from that page as it is rendered. */
  async function pageCard(route: string, lang: Lang): Promise<PageResponse | undefined> {
    const page = await resolvePage(route, lang);
    if (!page || page.status !== 200 || typeof page.body !== 'string') return undefined;
    const card = cardOf(page.body, DEFAULT_PICTURE);
    const image = await images.composed(`page\n${cardVersion(card)}`, OG_SIZE.width, OG_SIZE.height, async () => renderCard(card, picture(card.picture)));
    return { status: 200, type: 'image/jpeg', body: image.body, headers: { 'Cache-Control': 'public, max-age=86400, s-maxage=86400', 'X-Image-Cache': image.cached ? 'hit' : 'miss' } };
  }

  /** The indexable page at a route (no language prefix), as respond() renders it; undefined for any other. */
  async function resolvePage(route: string, lang: Lang): Promise<PageResponse | undefined> {
    const match = matchPage(route);
    const path = localizedPath(route, lang);
    if (match.kind === 'static') return match.route ? staticPage(match.page, match.status, match.route, lang, path) : undefined;
    if (match.kind === 'place') return placePage(match.segment, lang, path, '');
    return undefined;
  }

  async function ogImage(kind: 'listings' | 'agents', id: string, version: string | null): Promise<PageResponse> {
    const d = siteData();
    let source: string | undefined;
    if (kind === 'listings') {
      const row = await d.listing(id);
      if (!row) return { status: 404, type: 'text/plain', body: 'Not found' };
      source = normaliseImages(row.images, options.mediaBase())[0];
    } else {
      const agent = await d.agent(id);
      if (!agent) return { status: 404, type: 'text/plain', body: 'Not found' };
      source = normaliseImages(agent.picture, options.mediaBase())[0];
    }
    const image = await images.jpeg(source ?? 'about:blank', OG_SIZE.width, OG_SIZE.height);
    const current = source ? versionOf(source) : null;
    const immutable = version !== null && version === current;
    return {
      status: 200,
      type: 'image/jpeg',
      body: image.body,
      // the default picture in place of a photo that failed is not kept long: the photo may come back
      headers: { 'Cache-Control': image.fallback ? 'public, max-age=600, s-maxage=600' : immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600, s-maxage=3600', 'X-Image-Cache': image.cached ? 'hit' : 'miss' },
    };
  }

  /** Answers the site's pages; undefined for anything else (assets, the API). */
  async function respond(url: URL): Promise<PageResponse | undefined> {
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
    if (path === '/robots.txt') return { status: 200, type: 'text/plain', body: robotsTxt(origin()), headers: { 'Cache-Control': 'public, max-age=3600' } };
    if (path === '/sitemap.xml' || /^\/sitemaps\/[a-z0-9-]{1,40}\.xml$/.test(path)) {
      const name = path === '/sitemap.xml' ? 'index' : path.slice('/sitemaps/'.length, -4);
      const body = await sitemaps().file(name);
      return body === null ? undefined : { status: 200, type: 'application/xml', body, headers: { 'Cache-Control': 'public, max-age=3600, s-maxage=3600' } };
    }
    const og = /^\/og\/(listings|agents)\/(\d{1,15})\.jpg$/.exec(path);
    if (og) return ogImage(og[1] as 'listings' | 'agents', og[2] as string, url.searchParams.get('v'));
    const card = /^\/og\/pages(\/[a-z0-9/-]{1,200})\.(en|es)\.jpg$/.exec(path);
    if (card) return pageCard(card[1] === '/index' ? '/' : (card[1] as string), card[2] as Lang);
    const demo = matchDemo(path);
    if (demo) return template(demo) === undefined ? undefined : { status: 200, type: 'text/html', body: template(demo) as string, headers: { 'Cache-Control': 'no-cache' } };
    if (path.includes('.') && !path.startsWith('/properties/')) return undefined;
    const { lang, path: plain } = splitLangPath(path);
    const match = matchPage(plain);
    if (match.kind === 'listing') return listingPage(match.id, match.slug, lang, path);
    if (match.kind === 'agent') return agentPage(match.id, lang, path);
    if (match.kind === 'place') return placePage(match.segment, lang, path, url.search);
    if (match.status === 404) options.log?.(`404 page for ${JSON.stringify(path)}`);
    return staticPage(match.page, match.status, match.route, lang, path);
  }

  /** The plain fields of a multipart/form-data body (RFC 8058 lets a one-click POST be either kind). */
  function multipartFields(text: string): string {
    const out = new URLSearchParams();
    for (const m of text.matchAll(/name="([^"]{1,100})"\r?\n\r?\n([^\r\n]{0,1000})/g)) out.append(m[1] as string, m[2] as string);
    return out.toString();
  }

  /** The saved-searches function, as any client calls it (ours, or a hosted project's). */
  const callAlerts: CallFunction = async (body) => {
    const api = options.api();
    const response = await fetch(`${api.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: api.key, Authorization: `Bearer ${api.key}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Awaited<ReturnType<CallFunction>>['body'] };
  };

  /** /alerts/confirm, /alerts/unsubscribe, /alerts/manage (and /es/...): GET shows, POST acts. */
  async function alerts(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const { lang, path } = splitLangPath(url.pathname);
    const kind = /^\/alerts\/(confirm|unsubscribe|manage)$/.exec(path)?.[1] as AlertPageKind | undefined;
    if (!kind) return false;
    const method = req.method ?? 'GET';
    const ctx = { t: siteTexts().t(lang), lang, token: url.searchParams.get('token') ?? '' };
    let page;
    if (method === 'POST') {
      const raw = await readBody(req, 4096);
      const fields = new URLSearchParams(raw === 'too-large' ? '' : /multipart\/form-data/i.test(String(req.headers['content-type'])) ? multipartFields(raw.toString('utf8')) : raw.toString('utf8'));
      page = await alertPagePost(kind, ctx, fields, callAlerts).catch(() => ({ status: 503, body: '' }));
    } else if (method === 'GET' || method === 'HEAD') {
      page = await alertPageGet(kind, ctx, callAlerts).catch(() => ({ status: 503, body: '' }));
    } else {
      res.writeHead(405, { Allow: 'GET, HEAD, POST', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed');
      return true;
    }
    if (page.status === 503 && !page.body) page = { status: 503, body: `<section class="alert-page"><h1>${escapeHtml(ctx.t('site.alerts.unavailable.heading'))}</h1><p>${escapeHtml(ctx.t('site.alerts.unavailable.text'))}</p></section>` };
    send(req, res, { status: page.status, type: 'text/html', body: html('alerts.html', url.pathname, lang, { robots: 'noindex' }, page.body), headers: { 'Cache-Control': 'no-store', ...(page.status === 503 ? { 'Retry-After': '10' } : {}) } });
    return true;
  }

  return {
    respond,
    alerts,
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
      let answer: PageResponse | undefined;
      try {
        answer = await respond(url);
      } catch (error) {
        // the data behind a page is away (the database restarting): say so, and when to come back
        if (!(error instanceof SiteDataError)) throw error;
        options.log?.(`[pages] ${url.pathname}: ${error.message}`);
        const lang = splitLangPath(url.pathname).lang;
        const t = siteTexts().t(lang);
        const body = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(t('errors.somethingWentWrong'))}</title></head><body style="font:16px/1.5 system-ui,sans-serif;text-align:center;padding:15vh 24px"><h1>${escapeHtml(t('errors.somethingWentWrong'))}</h1><p>${escapeHtml(t('errors.unexpected'))}</p><p><a href="">${escapeHtml(t('errors.reloadPage'))}</a></p></body></html>`;
        answer = { status: 503, type: 'text/html', body, headers: { 'Retry-After': '10', 'Cache-Control': 'no-store' } };
      }
      if (!answer) return false;
      send(req, res, answer);
      return true;
    },
    /** the 404 page, for whatever no page, asset or API answered */
    async notFound(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
      options.log?.(`404 page for ${JSON.stringify(url.pathname)}`);
      send(req, res, staticPage('404.html', 404, null, splitLangPath(url.pathname).lang, url.pathname));
    },
  };
}
