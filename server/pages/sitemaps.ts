/**
 * /sitemap.xml, a sitemap index, and its files: the site's pages, the agents, and the active
 * listings, each address with both languages as alternates (en, es, x-default) and the listings
 * with their lastmod. Made from the database through the REST API (every active listing id, read
 * in id order a thousand at a time) and kept for `ttlMs`. A file holds at most `urlsPerFile`
 * addresses (the protocol's limit is 50,000 and 50 MB; each listing is two addresses).
 */
import { el, xmlDocument } from '../../core/xml.ts';
import { LOCATIONS } from '../../core/locations.ts';
import {
  agentPath,
  INDEXED_PATHS,
  listingPath,
  localizedPath,
  marketPath,
  placePath,
  projectPath,
  slugify,
} from '../../core/routes.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { SiteData } from './site-data.ts';

const SITEMAP_URL_LIMIT = 50_000;

/** The pages of the site that are content (the shared page and the 404 are not). */

interface Entry {
  route: string;
  lastmod?: string;
}

export interface Sitemaps {
  /** the body of /sitemap.xml or of /sitemaps/<name>.xml; null when there is no such file (read for `request`: its client's share) */
  file(name: string, request?: RequestContext): Promise<string | null>;
}

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function createSitemaps(options: {
  data: (request?: RequestContext) => SiteData;
  origin: string;
  urlsPerFile?: number;
  ttlMs?: number;
}): Sitemaps {
  const perFile = Math.max(2, Math.min(options.urlsPerFile ?? SITEMAP_URL_LIMIT, SITEMAP_URL_LIMIT));
  // each entry is written twice (en and es)
  const entriesPerFile = Math.floor(perFile / 2);
  const ttl = options.ttlMs ?? 10 * 60_000;
  let listings: { at: number; entries: Promise<Entry[]> } | undefined;

  const abs = (path: string) => new URL(path, options.origin).href;

  const readListings = async (request: RequestContext | undefined): Promise<Entry[]> => {
    const data = options.data(request);
    const out: Entry[] = [];
    for (let after = 0; ;) {
      // until a page comes back empty: a project's Max Rows may answer fewer than asked
      const rows = await data.listingsAfter(after, 1000);
      if (!rows.length) return out;
      for (const r of rows)
        out.push({ route: listingPath(r.id, r.title, 'en'), lastmod: String(r.updated_at).slice(0, 10) });
      after = Number(rows[rows.length - 1]?.id);
    }
  };

  /** Read once in `ttl` for every file, by whoever asks first (its client's share pays for it). */
  const allListings = (request: RequestContext | undefined): Promise<Entry[]> => {
    if (!listings || Date.now() - listings.at > ttl) {
      const entries = readListings(request);
      listings = { at: Date.now(), entries };
      entries.catch(() => {
        listings = undefined;
      });
    }
    return listings.entries;
  };

  const urlset = (entries: Entry[]) =>
    xmlDocument(
      'urlset',
      { xmlns: SITEMAP_NS, 'xmlns:xhtml': 'http://www.w3.org/1999/xhtml' },
      entries.flatMap(({ route, lastmod }) => {
        const en = abs(localizedPath(route, 'en'));
        const es = abs(localizedPath(route, 'es'));
        const alternate = (hreflang: string, href: string) => el('xhtml:link', { rel: 'alternate', hreflang, href });
        const alternates = [alternate('en', en), alternate('es', es), alternate('x-default', en)];
        const mod = lastmod ? el('lastmod', null, lastmod) : undefined;
        return [en, es].map((loc) => el('url', null, el('loc', null, loc), mod, ...alternates));
      }),
    );

  return {
    async file(name, request) {
      if (name === 'index') {
        const count = Math.max(1, Math.ceil((await allListings(request)).length / entriesPerFile));
        const files = ['pages', 'agents', ...Array.from({ length: count }, (_, i) => `listings-${i + 1}`)];
        return xmlDocument(
          'sitemapindex',
          { xmlns: SITEMAP_NS },
          files.map((f) => el('sitemap', null, el('loc', null, abs(`/sitemaps/${f}.xml`)))),
        );
      }
      if (name === 'pages') {
        // the place pages: the hero's Ecuador places and every city with active listings (places.ts)
        const slugs = new Set([
          ...LOCATIONS.filter((l) => l.city).map((l) => l.slug),
          ...(await options.data(request).cities()).map((c) => slugify(c.city)).filter(Boolean),
        ]);
        return urlset([
          ...INDEXED_PATHS.map((route) => ({ route })),
          ...[...slugs].map((slug) => ({ route: placePath(slug) })),
          ...(await marketRoutes(options.data(request))).map((route) => ({ route })),
          // the new developments (docs/projects.md): their list and each one
          { route: projectPath(null) },
          ...(await options.data(request).projects()).map((p) => ({
            route: projectPath(String(p.slug)),
            lastmod: String(p.updated_at ?? '').slice(0, 10) || undefined,
          })),
        ]);
      }
      if (name === 'agents')
        return urlset((await options.data(request).agentIds()).map((id) => ({ route: agentPath(id) })));
      const m = /^listings-(\d{1,6})$/.exec(name);
      if (!m) return null;
      const index = Number(m[1]) - 1;
      const all = await allListings(request);
      const part = all.slice(index * entriesPerFile, (index + 1) * entriesPerFile);
      if (index < 0 || (!part.length && index > 0)) return null;
      return urlset(part);
    },
  };
}

/** The market reports (docs/market.md): Ecuador's, and every province's, city's and sector's whose last month stands on enough listings. */
async function marketRoutes(data: SiteData): Promise<string[]> {
  const [provinces, cities] = await Promise.all([
    data.marketRanking('ecuador', 'all'),
    data.marketRanking('ecuador', 'all', 'city'),
  ]);
  const sectors = (await Promise.all(cities.map((c) => data.marketRanking(c.path, 'all')))).flat();
  return ['ecuador', ...[...provinces, ...cities, ...sectors].map((p) => p.path)].map((place) => marketPath(place));
}

export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /demo\nDisallow: /rest/\nDisallow: /functions/\n\nSitemap: ${new URL('/sitemap.xml', origin).href}\n`;
}
