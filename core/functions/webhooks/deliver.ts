/**
 * Delivering a webhook from the outbox (docs/leads.md, "Webhooks"): the endpoint read when the
 * delivery is made (a removed endpoint's deliveries are dropped, a new secret signs what is still
 * waiting), the body signed with a fresh timestamp at each attempt, POSTed without following
 * redirects, and only a 2xx counts. A failure is retried with backoff, up to
 * WEBHOOK_MAX_ATTEMPTS (about a day), by the outbox worker; nothing is lost across restarts, since
 * the delivery is a row.
 */
import type { OutboxMail } from '../outbox/store.ts';
import type { Sql } from '../sql.ts';
import { signature } from './sign.ts';
import type { WebhookPayload } from './events.ts';

/** Attempts before a delivery is given up (with delays doubling from 5 s to an hour: about a day). */
export const WEBHOOK_MAX_ATTEMPTS = 30;
export const WEBHOOK_DELAYS = { baseSeconds: 5, maxSeconds: 3600 } as const;

/** POSTs a body: the status the endpoint answered (a refusal or no answer throws). */
export type Poster = (
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean },
) => Promise<{ status: number }>;

export class DeliveryFailed extends Error {
  constructor(
    message: string,
    /** trying again cannot help (the address is not one we may post to) */
    readonly permanent = false,
  ) {
    super(message);
  }
}

interface EndpointRow extends Record<string, unknown> {
  url: string;
  secret: string;
  allow_private: boolean;
  disabled_at: string | null;
}

/**
 * Delivers one webhook row: its message id when the endpoint took it, null when the endpoint is
 * gone (the delivery is dropped); throws DeliveryFailed otherwise.
 */
export function webhookDeliverer(post: Poster) {
  return async (sql: Sql, item: OutboxMail): Promise<string | null> => {
    const [endpoint] = await sql.query<EndpointRow>(
      'select url, secret, allow_private, disabled_at::text from internal.webhook_endpoints where id = $1::bigint',
      [item.recipient],
    );
    if (!endpoint || endpoint.disabled_at) return null;
    const { id, ...payload } = item.payload as unknown as WebhookPayload & { id: string };
    const body = JSON.stringify(payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'exp-ecuador-webhooks/1',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': await signature(endpoint.secret, id, timestamp, body),
    };
    const answer = await post(endpoint.url, body, headers, { allowPrivate: endpoint.allow_private });
    if (answer.status >= 200 && answer.status < 300) return id;
    throw new DeliveryFailed(`the endpoint answered HTTP ${answer.status}`);
  };
}

const PRIVATE_V4 = /^(0|10|127|169\.254|172\.(1[6-9]|2\d|3[01])|192\.168|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7]))\./;
const PRIVATE_V6 = /^(::1?$|::ffff:|f[cd]|fe[89ab])/i;
const isPrivate = (address: string) =>
  PRIVATE_V4.test(`${address}.`) || (address.includes(':') && PRIVATE_V6.test(address));

type Resolver = (name: string, type: 'A' | 'AAAA') => Promise<string[]>;

/**
 * A poster over fetch, for the deployed functions (our server uses the safe fetcher, which checks
 * the address a name resolves to as it connects): https only, no private address (written as one,
 * or, where the runtime can resolve names, a name that resolves to one), no redirect followed,
 * 10 s at most.
 */
export const fetchPoster: Poster = async (url, body, headers, { allowPrivate }) => {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const refuse = (why: string) =>
    new DeliveryFailed(
      `${u.host}: ${why}: not an address webhooks are sent to (https, outside private networks)`,
      true,
    );
  if (!allowPrivate) {
    if (u.protocol !== 'https:') throw refuse(u.protocol);
    if (host === 'localhost' || isPrivate(host)) throw refuse(host);
    const resolve = (globalThis as { Deno?: { resolveDns?: Resolver } }).Deno?.resolveDns;
    if (resolve && !/^[\d.]+$|:/.test(host)) {
      const found = (
        await Promise.all((['A', 'AAAA'] as const).map((type) => resolve(host, type).catch(() => [] as string[])))
      ).flat();
      const inside = found.filter(isPrivate);
      if (inside.length) throw refuse(`resolves to ${inside.join(', ')}`);
    }
  }
  try {
    const res = await fetch(u, {
      method: 'POST',
      body,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    return { status: res.status };
  } catch (error) {
    throw new DeliveryFailed(`${u.host}: ${(error as Error).message}`);
  }
};
