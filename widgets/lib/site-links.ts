/**
 * Links of the site's own pages from the header, the footer and the featured block: relative to
 * this origin by default, or absolute to `base-url` when an element sits on another site.
 */
export function siteUrl(path: string, baseUrl?: string): string {
  if (!baseUrl) return path;
  return new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : baseUrl + '/').href;
}

/** The site's own pages, in the order the header's panel and the footer list them. */
export const SITE_PAGES = [
  { path: '/search-properties', label: 'nav.searchProperties' },
  { path: '/findanagent', label: 'nav.findAnAgent' },
  { path: '/about', label: 'nav.about' },
  { path: '/join', label: 'nav.joinExp' },
] as const;
