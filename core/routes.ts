/**
 * The site's addresses, one rule for the server (which answers them) and the widgets (which link
 * to them): English at the plain path, Spanish under /es (docs/decisions.md #18), and a page per
 * listing at /properties/{id}-{slug}.
 */
import type { Lang } from './lang.ts';
import { fold } from './protocol/text.ts';

/** 'Bahía de Caráquez', 'bahia_de_caraquez', ' QUITO ' -> 'bahia-de-caraquez', 'quito' */
export function slugify(text: string): string {
  return fold(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/**
 * A path as the site reads it, the only form any address we link to or redirect to is built from:
 * a backslash reads as a slash (browsers read it so), a run of slashes as one, and control
 * characters and whitespace are dropped (browsers drop tabs and line breaks from addresses), so it
 * begins with exactly one '/' and can never name another host ('//evil.com', '/\\evil.com',
 * '/\t/evil.com'). URL pathnames arrive with '.' and '..' segments already resolved.
 */
export function cleanPath(path: string): string {
  return `/${path}`.replace(/[\u0000-\u0020\u007f]+/g, '').replace(/[\\/]+/g, '/');
}

/**
 * `target` when it is a path on our own origin (what a Location header or a page's location.replace() may
 * carry), else '/': one leading slash followed by something other than a slash or backslash, no
 * control characters or whitespace, and resolving to the same origin.
 */
export const SAME_ORIGIN_PATH = /^\/(?![\\/])[^\u0000-\u0020\u007f]*$/;

export function sameOriginPath(target: string): string {
  if (!SAME_ORIGIN_PATH.test(target)) return '/';
  try {
    return new URL(target, 'http://origin.invalid').origin === 'http://origin.invalid' ? target : '/';
  } catch {
    return '/';
  }
}

/**
 * Pages whose Spanish address says it in Spanish: the English path and its Spanish word, the page
 * itself and the pages under it (/projects/x -> /es/proyectos/x). Either Spanish address answers
 * (/es/agent too), and every link is made with the Spanish word.
 */
const SPANISH_PATHS: Record<string, string> = {
  '/agent': '/agente',
  '/privacy': '/privacidad',
  '/privacy/my-data': '/privacidad/mis-datos',
  '/privacy/consent': '/privacidad/consentimiento',
  '/projects': '/proyectos',
};
const ENGLISH_OF = Object.fromEntries(Object.entries(SPANISH_PATHS).map(([en, es]) => [es, en])) as Record<
  string,
  string
>;
/** a path in the other language's words: itself if `words` has it, else its first word swapped if it is one */
const swapWords = (path: string, words: Record<string, string>) => {
  const first = /^\/[^/]+/.exec(path)?.[0] ?? '';
  return words[path] ?? (words[first] ? words[first] + path.slice(first.length) : path);
};

/** The language of a path and the path (cleaned) without its language prefix, in its English words. */
export function splitLangPath(path: string): { lang: Lang; path: string } {
  const clean = cleanPath(path);
  if (clean === '/es' || clean.startsWith('/es/')) {
    const rest = clean.slice(3) || '/';
    return { lang: 'es', path: swapWords(rest, ENGLISH_OF) };
  }
  return { lang: 'en', path: clean };
}

/** A site path in a language: '/about' -> '/es/about'; '/agent' -> '/es/agente'; '/' -> '/es'; '/es//evil.com' -> '/evil.com'. */
export function localizedPath(path: string, lang: Lang): string {
  const plain = splitLangPath(path).path;
  if (lang === 'en') return plain;
  return plain === '/' ? '/es' : `/es${swapWords(plain, SPANISH_PATHS)}`;
}

/** The other language's address of a page: what the language switch and the boot script go to. */
export function twinPath(path: string): string {
  const { lang, path: plain } = splitLangPath(path);
  return localizedPath(plain, lang === 'es' ? 'en' : 'es');
}

/** A listing's page: /properties/1811-casa-en-cumbaya (and /es/properties/... in Spanish). */
export function listingPath(id: string | number, title: string | null | undefined, lang: Lang = 'en'): string {
  const slug = slugify(title ?? '');
  return localizedPath(`/properties/${encodeURIComponent(String(id))}${slug ? `-${slug}` : ''}`, lang);
}

/** The id and slug of a listing page's path (without its language prefix), or null. */
export function parseListingPath(path: string): { id: string; slug: string } | null {
  const m = /^\/properties\/(\d{1,15})(?:-([a-z0-9-]{0,100}))?$/.exec(path);
  return m ? { id: m[1] as string, slug: m[2] ?? '' } : null;
}

/** An agent's page: /findanagent/7 (and /es/findanagent/7 in Spanish). */
export function agentPath(id: string | number, lang: Lang = 'en'): string {
  return localizedPath(`/findanagent/${encodeURIComponent(String(id))}`, lang);
}

/** The id of an agent page's path (without its language prefix), or null. */
export function parseAgentPath(path: string): string | null {
  return /^\/findanagent\/(\d{1,15})$/.exec(path)?.[1] ?? null;
}

/** A new development's page (docs/projects.md): /projects/altos-de-la-carolina, /es/proyectos/altos-de-la-carolina; none: the list of them. */
export function projectPath(slug: string | null, lang: Lang = 'en'): string {
  return localizedPath(slug ? `/projects/${encodeURIComponent(slug)}` : '/projects', lang);
}

/** Where a listing is read: its own page, or a new development's listing, its project's page (docs/projects.md "In the search"). */
export function listingPagePath(
  p: { id: string | number; title?: string | null; project?: { slug: string } | null },
  lang: Lang = 'en',
): string {
  return p.project ? projectPath(p.project.slug, lang) : listingPath(p.id, p.title, lang);
}

/** The slug of a project page's path (without its language prefix); '' for the list; null for any other path. */
export function parseProjectPath(path: string): string | null {
  if (path === '/projects') return '';
  return /^\/projects\/([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(path)?.[1] ?? null;
}

/** A place's search page: /search-properties/cumbaya. */
export function placePath(slug: string, lang: Lang = 'en'): string {
  return localizedPath(`/search-properties/${encodeURIComponent(slug)}`, lang);
}

/** A place's market report (docs/market.md): /market for Ecuador, /market/quito/cumbaya for a sector. */
export function marketPath(place: string, lang: Lang = 'en'): string {
  return localizedPath(
    place === 'ecuador' ? '/market' : `/market/${place.split('/').map(encodeURIComponent).join('/')}`,
    lang,
  );
}

/** The search of a place of the market index: the place filter by its path (Ecuador: the whole search). */
export function placeSearchPath(place: string, lang: Lang = 'en'): string {
  const search = localizedPath('/search-properties', lang);
  return place === 'ecuador' ? search : `${search}?place=${encodeURIComponent(place)}`;
}

/** The place of a market report's path (without its language prefix), or null. */
export function parseMarketPath(path: string): string | null {
  if (path === '/market') return 'ecuador';
  const m = /^\/market\/((?:provincia\/)?[a-z0-9-]{1,60}(?:\/[a-z0-9-]{1,60})?)$/.exec(path);
  return m && !/^provincia\/[^/]+\//.test(m[1] as string) ? (m[1] as string) : null;
}

/**
 * The site's own pages (docs/product.md §2, docs/decisions.md #1): each address, the built page
 * that answers it (site/{page}.html), and whether crawlers are asked to index it. Listing, agent
 * and place pages are above (listingPath, agentPath, placePath); every other address is the 404.
 */
export const SITE_ROUTES = [
  { path: '/', page: 'index', indexed: true },
  { path: '/search-properties', page: 'search-properties', indexed: true },
  { path: '/findanagent', page: 'findanagent', indexed: true },
  { path: '/join', page: 'join', indexed: true },
  { path: '/about', page: 'about', indexed: true },
  // the sellers' page: what a home may ask, how selling works, the agents (docs/valuation.md)
  { path: '/sell', page: 'sell', indexed: true },
  // /buy and /agent-login share one page, which shows the part for its address
  { path: '/buy', page: 'shared', indexed: false, part: 'buy' },
  { path: '/agent-login', page: 'shared', indexed: false, part: 'agentLogin' },
  // a visitor's own saved listings: nothing to index
  { path: '/saved', page: 'saved', indexed: false },
  // the agents' own area (docs/agent-area.md): sign in, work one's leads
  { path: '/agent', page: 'agent-area', indexed: false },
  // the privacy notice (docs/privacy.md): the server writes it with the operator's details
  { path: '/privacy', page: 'privacy', indexed: true },
] as const satisfies ReadonlyArray<{ path: string; page: string; indexed: boolean; part?: string }>;

export type SiteRoute = (typeof SITE_ROUTES)[number];

/** The addresses crawlers index (the sitemap's pages). */
export const INDEXED_PATHS: string[] = SITE_ROUTES.filter((r) => r.indexed).map((r) => r.path);

/** The route of an address (without its language prefix), if it is one of the site's own pages. */
export const siteRoute = (path: string): SiteRoute | undefined => SITE_ROUTES.find((r) => r.path === path);

/** The public address of a built page, if crawlers index it (its canonical link and alternates). */
export const indexedPathOf = (page: string): string | null =>
  SITE_ROUTES.find((r) => r.page === page && r.indexed)?.path ?? null;
