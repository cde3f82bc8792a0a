/**
 * Cross-origin answers, one place for the function and our server: the widgets run on partners'
 * pages, so the public API answers any origin; the inquiry function can be limited to a list.
 */
export const ANY_ORIGIN = { 'Access-Control-Allow-Origin': '*' } as const;

/** What supabase-js's functions client (and our form) send with an invocation. */
const FUNCTION_ALLOW_HEADERS = 'authorization, x-client-info, apikey, content-type, x-region, idempotency-key';

/** The preflight answer of a function. */
export function functionPreflightHeaders(cors: Record<string, string>): Record<string, string> {
  return {
    ...cors,
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': FUNCTION_ALLOW_HEADERS,
    'Access-Control-Max-Age': '86400',
  };
}

/** The CORS headers for a request from `origin`; null when that origin may not call. */
export function corsFor(origin: string | null, allowed: '*' | string[]): Record<string, string> | null {
  if (allowed === '*') return { ...ANY_ORIGIN };
  if (!origin) return {};
  return allowed.includes(origin) ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : null;
}
