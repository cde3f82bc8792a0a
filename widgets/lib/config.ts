/**
 * Where the data lives is configuration, never code. Precedence:
 * element attributes `api-url` / `api-key` > build-time defaults (VITE_EXP_API_URL /
 * VITE_EXP_API_KEY) > the origin this script was loaded from (so `npm start` needs nothing).
 */
export interface ApiConfig {
  /** Base URL of the Supabase-compatible backend, without a trailing slash. */
  url: string;
  /** Public anonymous key sent as `apikey` and bearer token. */
  key: string;
}

const BUILD_URL: string = import.meta.env.VITE_EXP_API_URL ?? '';
const BUILD_SITE_URL: string = import.meta.env.VITE_EXP_SITE_URL ?? '';
const BUILD_KEY: string = import.meta.env.VITE_EXP_API_KEY ?? '';

/** The origin of the script (bundle or chunk) that is running: always the bundle's own origin. */
function bundleOrigin(): string {
  try {
    return new URL(import.meta.url).origin;
  } catch {
    return typeof location === 'undefined' ? 'http://localhost:8080' : location.origin;
  }
}

/** A base URL we accept: absolute http(s), or a path resolved against the page. */
export function normaliseApiUrl(value: string | undefined, base?: string): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  try {
    const url = new URL(text, base ?? (typeof location === 'undefined' ? bundleOrigin() : location.href));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return (url.origin + url.pathname).replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Where the site's own pages are (listing pages, agent profiles, the header's links): the
 * element's `base-url`, else the build's VITE_EXP_SITE_URL, else the data server, which serves the
 * site too (npm start). Without a trailing slash.
 */
export function resolveSiteBase(baseUrl: string | undefined, api: ApiConfig): string {
  return normaliseApiUrl(baseUrl) ?? normaliseApiUrl(BUILD_SITE_URL) ?? api.url;
}

export function resolveApiConfig(attrs: { apiUrl?: string | undefined; apiKey?: string | undefined } = {}): ApiConfig {
  const url = normaliseApiUrl(attrs.apiUrl) ?? normaliseApiUrl(BUILD_URL) ?? bundleOrigin();
  const key = attrs.apiKey?.trim() || BUILD_KEY || 'local-anon-key';
  return { url, key };
}
