/**
 * The host site's route table (docs/product.md §2, docs/decisions.md #1, #18): which page answers a
 * path (without its language prefix, /es). Anything not listed is the 404 page with status 404.
 */
import {
  parseAgentPath,
  parseListingPath,
  parseMarketPath,
  parseProjectPath,
  SITE_ROUTES,
  type SiteRoute,
} from '../../core/routes.ts';

export type PageMatch =
  /** a built page; `route` is its public address (null: not a page to index) */
  | { kind: 'static'; page: string; status: number; route: string | null }
  | { kind: 'listing'; id: string; slug: string }
  | { kind: 'agent'; id: string }
  /** /search-properties/{place}: a page only for a known place (server/pages/places.ts) */
  | { kind: 'place'; segment: string }
  /** /market, /market/{place}: a place's market report (docs/market.md), where the index has one */
  | { kind: 'market'; place: string }
  /** /projects, /projects/{slug}: the new developments (docs/projects.md); slug '' is their list */
  | { kind: 'project'; slug: string };

/** the built page of each of the site's own addresses */
const exact: Record<string, SiteRoute> = Object.fromEntries(SITE_ROUTES.map((r) => [r.path, r]));

const NOT_FOUND: PageMatch = { kind: 'static', page: '404.html', status: 404, route: null };

export function matchPage(path: string): PageMatch {
  const route = exact[path];
  if (route) return { kind: 'static', page: `${route.page}.html`, status: 200, route: route.indexed ? path : null };
  const m = /^\/search-properties\/([^/]{1,240})$/.exec(path);
  if (m) return { kind: 'place', segment: m[1] as string };
  const market = parseMarketPath(path);
  if (market) return { kind: 'market', place: market };
  const project = parseProjectPath(path);
  if (project !== null) return { kind: 'project', slug: project };
  const agent = parseAgentPath(path);
  if (agent) return { kind: 'agent', id: agent };
  const listing = parseListingPath(path);
  if (listing) return { kind: 'listing', ...listing };
  return NOT_FOUND;
}

/** Whether a path (without its language prefix) is one of the site's pages: a built page, a listing, an agent, a place, a report or a project. */
export function isSitePage(path: string): boolean {
  const match = matchPage(path);
  return match.kind !== 'static' || match.status !== 404;
}

/** The embedding demos (English, not part of the site's languages). */
export function matchDemo(path: string): string | undefined {
  if (path === '/demo') return 'demo/index.html';
  const m = /^\/demo\/([a-z0-9-]{1,80})$/.exec(path);
  return m ? `demo/${m[1]}.html` : undefined;
}

/**
 * Paths that are redirected rather than served (canonical forms). `path` is already the cleaned
 * form (site-urls.ts cleanPath), and the answer goes out through send.ts redirect().
 */
export function redirectFor(path: string, search: string): string | undefined {
  if (path.length > 1 && path.endsWith('/')) return path.slice(0, -1) + search;
  if (path === '/index.html') return '/' + search;
  if (path.endsWith('.html')) {
    const bare = path.slice(0, -5);
    if (bare in exact && bare !== '/') return bare + search;
  }
  if (path === '/favicon.ico') return '/favicon.svg';
  // the spec's 'view all' default target; docs/decisions.md #5 sends it to the search
  if (path === '/featured-listings' || path === '/es/featured-listings')
    return path.replace('featured-listings', 'search-properties') + search;
  return undefined;
}
