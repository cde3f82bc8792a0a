import { PostgrestClient } from '@supabase/postgrest-js';
import type { ApiConfig } from '../config.ts';

export interface DataClients {
  rest: PostgrestClient;
  config: ApiConfig;
}

const clients = new Map<string, DataClients>();

/**
 * How long an element waits for a whole answer of the data API before it gives up and says so (its
 * error and "Try again"): the server's own deadline is 6 s (docs/architecture.md, "Deadlines and fair
 * shares"); the rest is for a slow phone network. A request that never answers, or stops half-way (a
 * stalled mobile connection), would otherwise leave the skeletons up for good, a form "Sending..."
 * or an agent's list "Loading...". The data API's clients have it through PostgrestClient's
 * `timeout`; the edge functions' (a form's retry is the same request, by its idempotency key) and
 * Auth's through `fetchWithDeadline` (./deadline.ts, outside the runtime: only forms and the agents'
 * area load it).
 */
export const DATA_DEADLINE_MS = 15_000;

/**
 * A data call made with the page's fetch at the time of the call (PostgrestClient keeps the one there
 * when it is made: a host page or a test that wraps window.fetch later still sees the elements'
 * calls), answered once its whole body is here: PostgrestClient's deadline ends when the promise it
 * is given settles, so this way it covers an answer whose body stalls after its headers too.
 */
export async function readWhole(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  // the same answer (its status, text and headers), its body in hand; none where it has none: a HEAD,
  // and the Fetch standard's null-body statuses a fetch can hand over (Auth's 204 to a sign-out comes
  // with an empty body stream in Chromium, and a 204 Response given a body throws)
  return new Response(!res.body || res.status === 204 || res.status === 205 ? null : await res.arrayBuffer(), res);
}

/** The headers a hosted Supabase project expects with its public key. */
export function authHeaders(config: ApiConfig): Record<string, string> {
  return { apikey: config.key, Authorization: `Bearer ${config.key}` };
}

/**
 * A client of the data API with these headers (the public key's, or a signed-in agent's), under the
 * elements' deadline for a whole answer.
 */
export function restClient(config: ApiConfig, headers: Record<string, string>): PostgrestClient {
  return new PostgrestClient(`${config.url}/rest/v1`, { headers, fetch: readWhole, timeout: DATA_DEADLINE_MS });
}

/**
 * The same protocol as @supabase/supabase-js (PostgREST + edge functions) at a fraction of its
 * weight. One client per backend, shared by every element that points at it. The functions client
 * lives with the one call that needs it (data/inquiry.ts), so it loads only with a form.
 */
export function getClients(config: ApiConfig): DataClients {
  const id = `${config.url}\n${config.key}`;
  let found = clients.get(id);
  if (!found) {
    found = { rest: restClient(config, authHeaders(config)), config };
    clients.set(id, found);
  }
  return found;
}

/** A data call that failed: what was asked, PostgREST's message and code. */
class DataError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export function fail(error: { message: string; code?: string } | null, what: string): never {
  throw new DataError(`${what}: ${error?.message ?? 'failed'}`, error?.code);
}

/** A data call made: what it answers, or a DataError that names `what`; abandoned with the signal. */
export async function answer<
  Q extends PromiseLike<{ data: unknown; error: { message: string; code?: string } | null }> & {
    abortSignal(signal: AbortSignal): Q;
  },
>(query: Q, what: string, signal?: AbortSignal): Promise<unknown> {
  const { data, error } = await (signal ? query.abortSignal(signal) : query);
  if (error) fail(error, what);
  return data;
}
