/**
 * The site's addresses, one rule for the server (which answers them) and the widgets (which link
 * to them): English at the plain path, Spanish under /es (docs/decisions.md #18), and a page per
 * listing at /properties/{id}-{slug}.
 */
export type SiteLang = 'en' | 'es';

/** 'Bahía de Caráquez', 'bahia_de_caraquez', ' QUITO ' -> 'bahia-de-caraquez', 'quito' */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/** The language of a path and the path without its language prefix. */
export function splitLangPath(path: string): { lang: SiteLang; path: string } {
  if (path === '/es' || path.startsWith('/es/')) return { lang: 'es', path: path.slice(3) || '/' };
  return { lang: 'en', path };
}

/** A site path in a language: '/about' -> '/es/about'; '/' -> '/es'. */
export function localizedPath(path: string, lang: SiteLang): string {
  const plain = splitLangPath(path).path;
  if (lang === 'en') return plain;
  return plain === '/' ? '/es' : `/es${plain}`;
}

/** A listing's page: /properties/1811-casa-en-cumbaya (and /es/properties/... in Spanish). */
export function listingPath(id: string | number, title: string | null | undefined, lang: SiteLang = 'en'): string {
  const slug = slugify(title ?? '');
  return localizedPath(`/properties/${encodeURIComponent(String(id))}${slug ? `-${slug}` : ''}`, lang);
}

/** The id and slug of a listing page's path (without its language prefix), or null. */
export function parseListingPath(path: string): { id: string; slug: string } | null {
  const m = /^\/properties\/(\d{1,15})(?:-([a-z0-9-]{0,100}))?$/.exec(path);
  return m ? { id: m[1] as string, slug: m[2] ?? '' } : null;
}
