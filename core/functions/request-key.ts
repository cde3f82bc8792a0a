/**
 * What both functions (the inquiry and the saved searches) do alike with a request before they
 * store it: its idempotency key, and the per-client rate limit. One rule for both: a key is 8 to
 * 100 letters, digits, _ or -, from the body or the Idempotency-Key header (a header that is not a
 * key is a 400); a request without one gets a key derived from the client and its content, so the
 * same request from the same client within ten minutes is a repeat (a double click, a resend).
 */
import type { Sql } from './sql.ts';
import { sha256 } from './function-http.ts';
import { now as clockNow } from '../clock.ts';

export const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;

/** How long the same request from the same client, sent without a key, counts as a repeat. */
const KEYLESS_REPEAT_SECONDS = 600;

/** The Idempotency-Key header: absent (null), a key, or not a key ('invalid'). */
export function headerKey(request: Request): string | null | 'invalid' {
  const value = request.headers.get('idempotency-key')?.trim();
  if (!value) return null;
  return IDEMPOTENCY_KEY.test(value) ? value : 'invalid';
}

/** A keyless request's key: the client, the ten minutes and the content. */
export async function derivedKey(clientHash: string, content: unknown[], now = clockNow()): Promise<string> {
  const window = Math.floor(now / 1000 / KEYLESS_REPEAT_SECONDS);
  return `auto-${(await sha256(`${clientHash}\n${window}\n${JSON.stringify(content)}`)).slice(0, 40)}`;
}

/** Where each function keeps its requests, and when each was received: by the client, and by the e-mail address given. */
const RECEIVED = {
  inquiries: {
    client:
      'select count(*) as n from public.inquiries where client_hash = $1 and received_at > internal.now() - make_interval(secs => $2)',
    email:
      'select count(*) as n from public.inquiries where lower(email) = $1 and received_at > internal.now() - make_interval(secs => $2)',
  },
  alerts: {
    client:
      'select count(*) as n from internal.saved_searches where client_hash = $1 and created_at > internal.now() - make_interval(secs => $2)',
    email:
      'select count(*) as n from internal.saved_searches where email_key = $1 and created_at > internal.now() - make_interval(secs => $2)',
  },
  privacy: {
    client:
      'select count(*) as n from internal.privacy_requests where client_hash = $1 and asked_at > internal.now() - make_interval(secs => $2)',
    email:
      'select count(*) as n from internal.privacy_requests where lower(email) = $1 and asked_at > internal.now() - make_interval(secs => $2)',
  },
} as const;

/** How many requests from clients nobody vouched for (UNKNOWN_CLIENT) all together, per window: this many clients' worth. */
const UNKNOWN_CLIENTS_CEILING = 20;

/** Who asks: the client's hash, whether its address is known, and the e-mail address the request gives (lower case). */
export interface Asker {
  clientHash: string;
  known: boolean;
  email: string;
}

/**
 * Takes the asker's turn (its other requests wait until this transaction ends, so the count and
 * the insert never interleave) and tells whether it is over its limit. A client whose address is
 * known is limited by it. One nobody vouched for (behind a platform whose header did not come) is
 * limited by the e-mail address it gives, and all of them together by UNKNOWN_CLIENTS_CEILING
 * times the limit, so one visitor over the limit never refuses the others.
 */
export async function overLimit(
  tx: Sql,
  kind: keyof typeof RECEIVED,
  asker: Asker,
  limit: { max: number; windowSeconds: number },
): Promise<boolean> {
  const count = async (sql: string, key: string) =>
    Number((await tx.query<{ n: string | number }>(sql, [key, limit.windowSeconds]))[0]?.n ?? 0);
  if (asker.known) {
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`${kind}:${asker.clientHash}`]);
    return (await count(RECEIVED[kind].client, asker.clientHash)) >= limit.max;
  }
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`${kind}:email:${asker.email}`]);
  if ((await count(RECEIVED[kind].email, asker.email)) >= limit.max) return true;
  return (await count(RECEIVED[kind].client, asker.clientHash)) >= limit.max * UNKNOWN_CLIENTS_CEILING;
}
