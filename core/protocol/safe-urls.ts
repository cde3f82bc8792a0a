/**
 * URLs that come from data and end up in attributes (images, links): resolved and checked the
 * same way by the widgets and the server's pages.
 */
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
