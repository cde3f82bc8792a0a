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
const BUILD_KEY: string = import.meta.env.VITE_EXP_API_KEY ?? '';

/** The origin of the script (bundle or chunk) that is running: always the bundle's own origin. */
export function bundleOrigin(): string {
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

export function resolveApiConfig(attrs: { apiUrl?: string | undefined; apiKey?: string | undefined } = {}): ApiConfig {
  const url = normaliseApiUrl(attrs.apiUrl) ?? normaliseApiUrl(BUILD_URL) ?? bundleOrigin();
  const key = attrs.apiKey?.trim() || BUILD_KEY || 'local-anon-key';
  return { url, key };
}

/**
 * Resolves a media URL that came from data (a listing image, an agent photo). Relative paths are
 * resolved against the data server, not the host page (an embed runs on somebody else's origin);
 * only http(s) results are returned, so `javascript:` or `data:` never reach an attribute.
 */
export function safeMediaUrl(value: unknown, apiBase: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text) return undefined;
  try {
    const url = new URL(text, apiBase + '/');
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An outbound link from data (agent website, social profile): only absolute http(s). */
export function safeLinkUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
}
