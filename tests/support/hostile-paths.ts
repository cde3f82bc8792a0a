/**
 * Request paths an attacker tries on a site that redirects between language addresses and
 * canonical forms: each one hopes a `Location` (or the boot script's location.replace) names
 * another host. Sent as they are written (no client-side normalising). None may leave the origin.
 */
export const HOSTILE_PATHS: readonly string[] = [
  '/es//evil.com?lang=en',
  '/es/\\evil.com?lang=en',
  '/es///evil.com?lang=en',
  '/es/\\\\evil.com?lang=en',
  '/es/\\/evil.com?lang=en',
  '/es//\\evil.com?lang=en',
  '/es/%2F%2Fevil.com?lang=en',
  '/es/%5C%5Cevil.com?lang=en',
  '/es/%09/evil.com?lang=en',
  '/es/%0d%0aLocation:%20http://evil.com?lang=en',
  '/es/https://evil.com?lang=en',
  '/es/https:/evil.com?lang=en',
  '/es/javascript:alert(1)?lang=en',
  '/es/@evil.com?lang=en',
  '/es/..//evil.com?lang=en',
  '/es/%2e%2e//evil.com?lang=en',
  '//evil.com?lang=es',
  '//evil.com/',
  '///evil.com/',
  '/\\evil.com/',
  '/\\\\evil.com/',
  '//evil.com/about.html',
  '//evil.com/es/featured-listings',
  '/.//evil.com/',
  '//evil.com/%2e%2e/',
  '/about//?lang=es',
  '/search-properties//evil.com',
  '/search-properties/%2F%2Fevil.com',
  '/es/search-properties/\\evil.com',
  '/properties/1-x//evil.com/',
  '/index.html?next=//evil.com',
  '/es//featured-listings',
];
