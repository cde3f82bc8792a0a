/**
 * A page's canonical address and its language alternates: English at the plain path, Spanish
 * under /es (docs/decisions.md #18), x-default English. The build writes them with the site's
 * configured origin; the server writes them for each page and language it renders.
 */
import { localizedPath } from './routes.ts';
import { SITE } from './site.ts';
import type { Lang } from './lang.ts';

// a type, not an interface: it is also a tag's attribute record for vite
export type LinkTag = {
  rel: string;
  href: string;
  hreflang?: string;
};

/**
 * `query`: what of the address the links keep, the later page of a list (`?page=2`): each page of a
 * series is its own canonical, not the first page (docs/product.md §2, "In the page's HTML").
 */
export function alternateLinks(route: string, lang: Lang = 'en', origin: string = SITE.url, query = ''): LinkTag[] {
  const en = new URL(localizedPath(route, 'en') + query, origin).href;
  const es = new URL(localizedPath(route, 'es') + query, origin).href;
  return [
    { rel: 'canonical', href: lang === 'es' ? es : en },
    { rel: 'alternate', hreflang: 'en', href: en },
    { rel: 'alternate', hreflang: 'es', href: es },
    { rel: 'alternate', hreflang: 'x-default', href: en },
  ];
}
