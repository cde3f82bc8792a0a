/**
 * The site's pages as the server renders them: every page at its English address and its Spanish
 * twin under /es, in that language in the HTML (docs/decisions.md #18; `?lang=` redirects to the
 * twin); listing and agent pages from the data; sitemaps, robots.txt and preview images. Cache
 * headers fit a CDN in front: shared caches keep pages for minutes and serve them stale while they
 * revalidate; browsers revalidate (ETag).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { normaliseImages, type Property } from '../../supabase/functions/_shared/protocol/listing.ts';
import { listingPath, localizedPath, slugify, splitLangPath, type SiteLang } from '../../supabase/functions/_shared/protocol/site-urls.ts';
import type { AgentProfile } from '../../supabase/functions/_shared/protocol/agent.ts';
import { sendCompressed } from '../http/compress.ts';
import { matchDemo, matchPage, redirectFor } from '../http/routes.ts';
import { renderAgent } from './agent-page.ts';
import { alertPageGet, alertPagePost, type AlertPageKind, type CallFunction } from './alerts-page.ts';
import { readBody } from '../http/body.ts';
import { renderHead, type HeadInfo } from './head.ts';
import { createImageCache, OG_SIZE, versionOf } from './images.ts';
import { renderListing, renderMissingListing, type ListingPageContext } from './listing-page.ts';
import { escapeHtml } from '../../site/lib/fill.ts';
import { findLocation } from '../../site/lib/locations.ts';
import { createSiteData, SiteDataError, type SiteData } from './site-data.ts';
import { createSitemaps, robotsTxt } from './sitemaps.ts';
import { loadTexts, type SiteTexts } from './texts.ts';

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
  /** sitemap file size, in addresses (tests use small files) */
  sitemapUrlsPerFile?: number;
  log?: (line: string) => void;
}

const SECURITY = {
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Permissions-Policy': 'geolocation=(), camera=(), microphone=()',
  'X-Content-Type-Options': 'nosniff',
};
const PAGE_CACHE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400';
const MISSING_CACHE = 'public, max-age=0, s-maxage=60';

export interface PageResponse {
  status: number;
  body: string | Buffer;
  type: string;
  headers?: Record<string, string>;
}

export function createPages(options: PagesOptions) {
  const origin = () => options.origin().replace(/\/+$/, '');
  let texts: SiteTexts | undefined;
  const templates = new Map<string, string>();
  const rendered = new Map<string, string>();
  let data: SiteData | undefined;
  let dataFor = '';
  const images = createImageCache(options.imageCacheDir, () => readFileSync(resolve(options.siteDir, 'media/video/quito-poster.webp')));
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

  const html = (page: string, lang: SiteLang, head: HeadInfo, content?: string, transform: (html: string) => string = (h) => h): string => {
    const base = transform(template(page) ?? template('404.html') ?? '<!doctype html><html lang="en"><head></head><body></body></html>');
    const withContent = content === undefined ? base : base.replace('<!--exp:content-->', content);
    return renderHead(withContent, lang, siteTexts().dict(lang), origin(), head);
  };

  /** /search-properties/quito: the hero names the place, in the HTML (the page script follows later searches) */
  const placeHero = (page: string, route: string | null) => (html: string) => {
    const slug = page === 'search-properties.html' ? /^\/search-properties\/([a-z0-9-]+)$/.exec(route ?? '')?.[1] : undefined;
    const known = slug ? findLocation(slug) : undefined;
    if (!known) return html;
    const params = escapeHtml(JSON.stringify({ location: `@site.locations.${known.slug}.name` }));
    return html
      .replace(/(<h1 id="hero-title" data-hero-title) data-i18n="site\.search\.hero\.title"/, `$1 data-i18n="site.search.hero.titleIn" data-i18n-params="${params}"`)
      .replace(/(data-hero-subtitle) data-i18n="site\.search\.hero\.subtitle"/, `$1 data-i18n="site.locations.${known.slug}.subtitle"`);
  };

  const ogUrl = (kind: 'listings' | 'agents', id: string, source: string | undefined) => new URL(`/og/${kind}/${encodeURIComponent(id)}.jpg${source ? `?v=${versionOf(source)}` : ''}`, origin()).href;

  async function listingPage(id: string, slug: string, lang: SiteLang): Promise<PageResponse> {
    const d = siteData();
    const t = siteTexts().t(lang);
    const ctx: ListingPageContext = { lang, t, origin: origin(), mediaBase: options.mediaBase(), imageUrl: (p: Property) => ogUrl('listings', p.id, p.images[0]) };
    const row = await d.listing(id);
    if (!row) {
      const available = await d.availability(id);
      const similar = await d.similar(null, null, 4);
      const missing = renderMissingListing(available === false ? 'gone' : 'notFound', similar, ctx);
      return { status: available === false ? 410 : 404, type: 'text/html', body: html('listing.html', lang, missing.head, missing.body), headers: { 'Cache-Control': MISSING_CACHE } };
    }
    // one address per listing: another slug (an edited title, a shortened link) is sent to it
    if (slug !== slugify(String(row.title ?? ''))) return { status: 301, type: 'text/plain', body: '', headers: { Location: listingPath(id, String(row.title ?? ''), lang), 'Cache-Control': PAGE_CACHE } };
    const similar = await d.similar(typeof row.city === 'string' ? row.city : null, id, 4);
    const page = renderListing(row, similar, ctx);
    return { status: 200, type: 'text/html', body: html('listing.html', lang, page.head, page.body), headers: { 'Cache-Control': PAGE_CACHE } };
  }

  async function agentPage(id: string, lang: SiteLang): Promise<PageResponse> {
    const record = await siteData().agent(id);
    const t = siteTexts().t(lang);
    const page = renderAgent(record, id, { lang, t, origin: origin(), mediaBase: options.mediaBase(), imageUrl: (a: AgentProfile) => ogUrl('agents', a.id, a.photo) });
    return { status: page.status, type: 'text/html', body: html('agent.html', lang, page.head, page.body), headers: { 'Cache-Control': page.status === 200 ? PAGE_CACHE : MISSING_CACHE } };
  }

  function staticPage(page: string, status: number, route: string | null, lang: SiteLang): PageResponse {
    const key = `${page}|${lang}|${route}`;
    let body = rendered.get(key);
    if (body === undefined) {
      body = html(page, lang, route ? { route } : { robots: 'noindex' }, undefined, placeHero(page, route));
      rendered.set(key, body);
    }
    return { status, type: 'text/html', body, headers: { 'Cache-Control': status === 200 ? PAGE_CACHE : MISSING_CACHE } };
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
    // the server reads its own media through its own address, not through the public one
    const internal = source && source.startsWith(origin()) ? options.api().url + source.slice(origin().length) : source;
    const image = await images.jpeg(internal ?? 'about:blank', OG_SIZE.width, OG_SIZE.height);
    const current = source ? versionOf(source) : null;
    const immutable = version !== null && version === current;
    return {
      status: 200,
      type: 'image/jpeg',
      body: image.body,
      headers: { 'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600, s-maxage=3600', 'X-Image-Cache': image.cached ? 'hit' : 'miss' },
    };
  }

  /** Answers the site's pages; undefined for anything else (assets, the API). */
  async function respond(url: URL): Promise<PageResponse | undefined> {
    const path = url.pathname;
    const redirect = redirectFor(path, url.search);
    if (redirect) return { status: 301, type: 'text/plain', body: '', headers: { Location: redirect } };
    // ?lang= (the old Spanish addresses, a language link) goes to the page's address in that language
    const asked = url.searchParams.get('lang');
    if (asked !== null && !path.startsWith('/demo')) {
      const lang: SiteLang = asked.toLowerCase().startsWith('es') ? 'es' : 'en';
      const rest = new URLSearchParams(url.search);
      rest.delete('lang');
      const query = rest.toString();
      return { status: 301, type: 'text/plain', body: '', headers: { Location: `${localizedPath(path, lang)}${query ? `?${query}` : ''}` } };
    }
    if (path === '/robots.txt') return { status: 200, type: 'text/plain', body: robotsTxt(origin()), headers: { 'Cache-Control': 'public, max-age=3600' } };
    if (path === '/sitemap.xml' || /^\/sitemaps\/[a-z0-9-]{1,40}\.xml$/.test(path)) {
      const name = path === '/sitemap.xml' ? 'index' : path.slice('/sitemaps/'.length, -4);
      const body = await sitemaps().file(name);
      return body === null ? undefined : { status: 200, type: 'application/xml', body, headers: { 'Cache-Control': 'public, max-age=3600, s-maxage=3600' } };
    }
    const og = /^\/og\/(listings|agents)\/(\d{1,15})\.jpg$/.exec(path);
    if (og) return ogImage(og[1] as 'listings' | 'agents', og[2] as string, url.searchParams.get('v'));
    const demo = matchDemo(path);
    if (demo) return template(demo) === undefined ? undefined : { status: 200, type: 'text/html', body: template(demo) as string, headers: { 'Cache-Control': 'no-cache' } };
    if (path.includes('.') && !path.startsWith('/properties/')) return undefined;
    const { lang, path: plain } = splitLangPath(path);
    const match = matchPage(plain);
    if (match.kind === 'listing') return listingPage(match.id, match.slug, lang);
    if (match.kind === 'agent') return agentPage(match.id, lang);
    if (match.status === 404) options.log?.(`404 page for ${JSON.stringify(path)}`);
    return staticPage(match.page, match.status, match.route, lang);
  }

  /** The plain fields of a multipart/form-data body (RFC 8058 lets a one-click POST be either kind). */
  function multipartFields(text: string): string {
    const out = new URLSearchParams();
    for (const m of text.matchAll(/name="([^"]{1,100})"\r?\n\r?\n([^\r\n]{0,1000})/g)) out.append(m[1] as string, m[2] as string);
    return out.toString();
  }

  function send(req: IncomingMessage, res: ServerResponse, answer: PageResponse): void {
    const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    const headers: Record<string, string> = {
      'Content-Type': answer.type.startsWith('text/') || answer.type.endsWith('xml') ? `${answer.type}; charset=utf-8` : answer.type,
      ...(answer.type === 'text/html' ? SECURITY : {}),
      ...answer.headers,
    };
    if (answer.status === 200) headers.ETag = etag;
    if (answer.status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ...headers, Vary: 'Accept-Encoding' }).end();
      return;
    }
    sendCompressed(res, answer.status, headers, body, req.method === 'HEAD');
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
    send(req, res, { status: page.status, type: 'text/html', body: html('alerts.html', lang, { robots: 'noindex' }, page.body), headers: { 'Cache-Control': 'no-store', ...(page.status === 503 ? { 'Retry-After': '10' } : {}) } });
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
      send(req, res, staticPage('404.html', 404, null, splitLangPath(url.pathname).lang));
    },
  };
}
