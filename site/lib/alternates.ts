/**
 * A page's canonical address and its en/es alternates (es is the same page with ?lang=es). The
 * build writes them into each page; the page script rewrites them where the address is only known
 * in the browser (an agent's profile, a search place).
 */
import { SITE } from '../../widgets/lib/site-config.ts';

// a type, not an interface: it is also a tag's attribute record for vite
export type LinkTag = {
  rel: string;
  href: string;
  hreflang?: string;
};

export function alternateLinks(route: string): LinkTag[] {
  const url = new URL(route, SITE.url).href;
  return [
    { rel: 'canonical', href: url },
    { rel: 'alternate', hreflang: 'en', href: url },
    { rel: 'alternate', hreflang: 'es', href: `${url}?lang=es` },
    { rel: 'alternate', hreflang: 'x-default', href: url },
  ];
}
