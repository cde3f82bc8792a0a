/**
 * What every page the server renders is made with: the built templates (kept, bounded), the texts,
 * the data client for the configured backend, the site's origin and its pictures, and html(), which
 * writes a template as the page of an address in a language (docs/decisions.md #18). Data goes in
 * through function replacers only (docs/decisions.md #24).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Lang } from '../../core/lang.ts';
import { cleanPath, twinPath } from '../../core/routes.ts';
import { posterPath } from '../../core/search-hero.ts';
import { LRUCache } from 'lru-cache';
import { finishHead, prepareTemplate, shapeOf, type HeadInfo } from './head.tsx';
import type { ImageSources } from './images.ts';
import { cardOf } from './previews.ts';
import { createSiteData, type SiteApi, type SiteData } from './site-data.ts';
import type { CspSources } from '../http/csp.ts';
import type { RequestContext } from '../http/request-context.ts';
import { loadTexts, type SiteTexts } from './texts.ts';
import { attrs } from '../../core/protocol/html.ts';
import type { MapTiles } from '../../core/protocol/map-tiles.ts';
import type { PrivacySettings } from '../../core/protocol/privacy.ts';

export interface PagesOptions {
  /** dist/site: the built pages and the texts */
  siteDir: string;
  /** the public address of the site (canonical links, sitemaps): SITE_URL, known once the server listens */
  origin: () => string;
  /** where the pages read data: a Supabase project or our own server (set once it listens) */
  api: () => SiteApi;
  /** what relative media paths of the data are relative to (the public API's origin) */
  mediaBase: () => string;
  /** disk cache of preview images */
  imageCacheDir: string;
  /** where images come from: our own media from disk, anything else through the safe fetcher */
  imageSources: ImageSources;
  /** counts work that held no connection against a client's share (server/http/client-shares.ts): a preview image made */
  charge?: (client: string, ms: number) => void;
  /** what the pages' Content-Security-Policy allows besides our own origin (server/http/csp.ts) */
  csp?: () => CspSources;
  /** sitemap file size, in addresses (tests use small files) */
  sitemapUrlsPerFile?: number;
  /** the tile provider of the pages' maps (MAP_TILES_URL, MAP_TILES_ATTRIBUTION): on each element that shows a map */
  mapTiles?: MapTiles;
  /** the privacy notice's operator details and retention periods (docs/privacy.md) */
  privacy?: PrivacySettings;
  log?: (line: string) => void;
}

/** The elements that show a map, theirs or a listing's in its dialog; one that names its own tiles keeps them. */
const MAP_ELEMENTS =
  /<exp-(?:property-search|property-map|property-detail|home-valuation|featured-listings|saved-listings|agent-profile)\b(?![^>]*\stile-url=)/g;

/** the picture of a page without its own (the home page's hero) */
export const DEFAULT_PICTURE = posterPath('quito');

export type PageKit = ReturnType<typeof createPageKit>;

const EMPTY_PAGE = '<!doctype html><html lang="en"><head></head><body></body></html>';

export function createPageKit(options: PagesOptions) {
  const origin = () => options.origin().replace(/\/+$/, '');
  let texts: SiteTexts | undefined;
  // every memory of the pages is bounded (docs/decisions.md #24)
  const templates = new LRUCache<string, string>({ max: 64 });
  let data: SiteData | undefined;
  let dataFor = '';
  const picture = (path: string) => readFileSync(resolve(options.siteDir, `.${cleanPath(path)}`));

  const siteTexts = () => (texts ??= loadTexts(options.siteDir));
  /** The data client: for a request's page, one made for that request (its visitor, its deadline); else the server's own, kept. */
  const siteData = (request?: RequestContext): SiteData => {
    const api = options.api();
    if (request) return createSiteData(api, request);
    if (!data || dataFor !== `${api.url}\n${api.key}\n${api.internalToken}`) {
      data = createSiteData(api);
      dataFor = `${api.url}\n${api.key}\n${api.internalToken}`;
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

  // each template's texts filled and replaced head tags taken out, per language and head shape (head.ts)
  const prepared = new LRUCache<string, string>({ max: 128 });
  /** no line ends in spaces (a template's empty optional block): the page is as tidy as it is valid */
  const tidy = (html: string) => html.replace(/[ \t]+$/gm, '');
  const tileAttrs = options.mapTiles
    ? attrs({ 'tile-url': options.mapTiles.url, 'tile-attribution': options.mapTiles.attribution })
    : '';
  /** the deployment's tile provider on the map elements of a template or of a page's content */
  const withTiles = (html: string) => (tileAttrs ? html.replace(MAP_ELEMENTS, (tag) => tag + tileAttrs) : html);

  /**
   * A built page as the page of `path` in `lang`. Data goes in through function replacers only:
   * a text holding `$&`, `$'` or `$1` is written as it is, never read as a replacement pattern.
   * The content goes in last, after the head is finished: what a listing says is never read as
   * one of the template's tags or texts.
   */
  const html = (
    page: string,
    path: string | undefined,
    lang: Lang,
    head: HeadInfo,
    content?: string,
    transform?: (html: string) => string,
  ): string => {
    const info: HeadInfo = { ...(path ? { twin: twinPath(path) } : {}), ...head };
    const shape = shapeOf(info);
    const prepare = () =>
      withTiles(
        tidy(
          prepareTemplate(
            (transform ?? ((h: string) => h))(template(page) ?? template('404.html') ?? EMPTY_PAGE),
            lang,
            siteTexts().dict(lang),
            shape,
          ),
        ),
      );
    let base: string;
    if (transform) base = prepare();
    else {
      const key = `${page}|${lang}|${Number(shape.title)}${Number(shape.description)}${Number(shape.ogType)}`;
      base = prepared.get(key) ?? prepare();
      prepared.set(key, base);
    }
    const finished = finishHead(base, lang, origin(), info);
    return content === undefined ? finished : finished.replace('<!--exp:content-->', () => withTiles(tidy(content)));
  };

  /** Ecuador's outline (the build's scripts/ecuador-outline.ts, beside the elements' chunks), for the national market report's map; none when the build has not made it. */
  let outlineRings: Array<Array<[number, number]>> | null | undefined;
  const outline = () => {
    if (outlineRings !== undefined) return outlineRings;
    try {
      const dir = resolve(options.siteDir, '..', 'widgets', 'chunks');
      const file = readdirSync(dir).find((f) => /^ecuador-outline-[\w-]+\.json$/.test(f));
      outlineRings = file
        ? ((JSON.parse(readFileSync(resolve(dir, file), 'utf8')) as { ecuador: Array<Array<[number, number]>> })
            .ecuador ?? null)
        : null;
    } catch {
      outlineRings = null;
    }
    return outlineRings;
  };

  /** The brokerage's name, as the build wrote it into every page (og:site_name, from the site's configuration). */
  const brand = () => cardOf(template('agent.html') ?? '', DEFAULT_PICTURE).eyebrow;

  return { options, origin, siteTexts, siteData, template, html, picture, brand, outline };
}
