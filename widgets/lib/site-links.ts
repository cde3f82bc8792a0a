/**
 * Links of the site's own pages from the elements: in the page's language (Spanish under /es,
 * docs/decisions.md #18), on the site's base (the element's base-url, the build's site URL, or the
 * data server's origin); a path alone when that base is this page's own origin.
 */
import { listingPagePath, localizedPath } from '../../core/routes.ts';
import type { Property } from '../../core/protocol/listing.ts';
import type { Lang } from '../../core/lang.ts';

export function siteUrl(path: string, base: string, lang: Lang): string {
  const localized = localizedPath(path, lang);
  const here = typeof location === 'undefined' ? '' : location.origin;
  return new URL(base).origin === here && new URL(base).pathname.replace(/\/+$/, '') === ''
    ? localized
    : `${base}${localized}`;
}

/** A listing's own page, where cards, pins and shares link to; a new development's listing, its project's page. */
export function listingUrl(p: Pick<Property, 'id' | 'title' | 'project'>, base: string, lang: Lang): string {
  return siteUrl(listingPagePath(p), base, lang);
}
