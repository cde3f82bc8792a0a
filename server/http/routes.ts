/**
 * The host site's route table (docs/product.md §2, docs/decisions.md #1): which built page answers a path.
 * Anything not listed is the 404 page with status 404.
 */
export interface PageMatch {
  page: string;
  status: number;
  params?: Record<string, string>;
}

const exact: Record<string, string> = {
  '/': 'index.html',
  '/search-properties': 'search-properties.html',
  '/findanagent': 'findanagent.html',
  '/join': 'join.html',
  '/about': 'about.html',
  '/buy': 'shared.html',
  '/sell': 'shared.html',
  '/agent-login': 'shared.html',
  '/demo': 'demo/index.html',
};

export function matchPage(path: string): PageMatch {
  const page = exact[path];
  if (page) return { page, status: 200 };
  let m = /^\/search-properties\/([a-z0-9-]{1,80})$/.exec(path);
  if (m) return { page: 'search-properties.html', status: 200, params: { slug: m[1] as string } };
  m = /^\/findanagent\/([^/]{1,80})$/.exec(path);
  if (m) return { page: 'agent.html', status: 200, params: { id: m[1] as string } };
  m = /^\/demo\/([a-z0-9-]{1,80})$/.exec(path);
  if (m) return { page: `demo/${m[1]}.html`, status: 200 };
  return { page: '404.html', status: 404 };
}

/** Paths that are redirected rather than served (canonical forms). */
export function redirectFor(path: string, search: string): string | undefined {
  if (path.length > 1 && path.endsWith('/')) return path.replace(/\/+$/, '') + search;
  if (path === '/index.html') return '/' + search;
  if (path.endsWith('.html')) {
    const bare = path.slice(0, -5);
    if (bare in exact && bare !== '/') return bare + search;
  }
  if (path === '/favicon.ico') return '/favicon.svg';
  // the spec's 'view all' default target; docs/decisions.md #5 sends it to the search
  if (path === '/featured-listings') return '/search-properties' + search;
  return undefined;
}
