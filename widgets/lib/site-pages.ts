/**
 * The site's own pages for the header's panel and the footer (their labels are the `nav` texts):
 * apart from ./site-links.ts, which every element that links a listing imports, so that those
 * elements do not carry the navigation's texts.
 */
/** In the order the header's panel and the footer list them. */
export const SITE_PAGES = [
  { path: '/search-properties', label: 'nav.searchProperties' },
  { path: '/projects', label: 'nav.projects' },
  { path: '/findanagent', label: 'nav.findAnAgent' },
  { path: '/market', label: 'nav.market' },
  { path: '/about', label: 'nav.about' },
  { path: '/join', label: 'nav.joinExp' },
] as const;
