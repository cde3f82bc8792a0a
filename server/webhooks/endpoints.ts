/**
 * The webhook endpoints a deployment registers (docs/leads.md, "Webhooks"): added with their
 * events and a secret made here (shown once), listed, removed (their waiting deliveries are then
 * dropped), and a report of each one's deliveries. An endpoint is https on a public address; one
 * registered with `dev` may be http or on a private network (a CRM on the developer's machine),
 * never a link-local address (the cloud's metadata service). Used by `npm run webhooks`.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Database } from '../db/database.ts';
import { addressAllowed } from '../http/safe-fetch.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../core/functions/webhooks/events.ts';
import { newSecret } from '../../core/functions/webhooks/sign.ts';
import { RECORD_ID } from '../../core/protocol/inquiry.ts';

export class WebhookInputError extends Error {}

export interface NewEndpoint {
  url: string;
  events: string[];
  description?: string | undefined;
  /** http and private networks allowed (development) */
  dev?: boolean;
}

export interface EndpointRow extends Record<string, unknown> {
  id: string;
  url: string;
  events: WebhookEvent[];
  description: string | null;
  allow_private: boolean;
  created_at: string;
  disabled_at: string | null;
}

type Resolve = (hostname: string) => Promise<Array<{ address: string }>>;
const resolveAll: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The endpoint's address, checked: the reasons it cannot be one, in a sentence. */
async function checkEndpointUrl(text: string, dev: boolean, resolve: Resolve = resolveAll): Promise<string> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new WebhookInputError(`not an address: "${text.slice(0, 200)}"`);
  }
  if (url.protocol !== 'https:' && !(dev && url.protocol === 'http:'))
    throw new WebhookInputError(
      `a webhook endpoint is https${dev ? ' (or http with --dev)' : ' (http only with --dev, for development)'}, not ${url.protocol}`,
    );
  if (url.username || url.password)
    throw new WebhookInputError(
      'an endpoint address carries no user name or password: the deliveries are signed instead',
    );
  if (url.hash) throw new WebhookInputError('an endpoint address has no #fragment');
  if (url.href.length > 2000) throw new WebhookInputError('the address is longer than 2,000 characters');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : host === 'localhost'
      ? ['127.0.0.1']
      : await resolve(host).then(
          (found) => found.map((a) => a.address),
          () => {
            throw new WebhookInputError(`${host} does not resolve`);
          },
        );
  const refused = addresses.filter((a) => !addressAllowed(a, dev));
  if (refused.length)
    throw new WebhookInputError(
      `${host} is ${refused.join(', ')}: ${dev ? 'a link-local address (the cloud metadata service) is never an endpoint' : 'an address on a private network is an endpoint only with --dev'}`,
    );
  return url.href;
}

function checkEvents(events: string[]): WebhookEvent[] {
  const list = [...new Set(events.map((e) => e.trim()).filter(Boolean))];
  if (!list.length) throw new WebhookInputError(`name the events: --events ${WEBHOOK_EVENTS.join(',')}`);
  const unknown = list.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length)
    throw new WebhookInputError(
      `unknown event${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the events are ${WEBHOOK_EVENTS.join(', ')}`,
    );
  return list as WebhookEvent[];
}

/** Registers an endpoint: its row and its secret (shown here only). */
export async function addEndpoint(
  db: Database,
  input: NewEndpoint,
  resolve?: Resolve,
): Promise<EndpointRow & { secret: string }> {
  const url = await checkEndpointUrl(input.url, Boolean(input.dev), resolve);
  const events = checkEvents(input.events);
  const description = input.description?.trim().slice(0, 200) || null;
  const secret = newSecret();
  const [row] = await db.admin.query<EndpointRow>(
    `insert into internal.webhook_endpoints (url, events, secret, description, allow_private) values ($1, $2, $3, $4, $5)
     returning id::text as id, url, events, description, allow_private, created_at::text as created_at, disabled_at::text as disabled_at`,
    [url, events, secret, description, Boolean(input.dev)],
  );
  return { ...(row as EndpointRow), secret };
}

export async function listEndpoints(db: Database): Promise<EndpointRow[]> {
  return db.admin.query<EndpointRow>(
    'select id::text as id, url, events, description, allow_private, created_at::text as created_at, disabled_at::text as disabled_at from internal.webhook_endpoints where disabled_at is null order by id',
  );
}

/** Removes an endpoint: nothing more is queued for it, and what waits is dropped. */
export async function removeEndpoint(db: Database, id: string): Promise<boolean> {
  if (!RECORD_ID.test(id))
    throw new WebhookInputError(`an endpoint's id is a number (npm run webhooks -- list), not "${id}"`);
  const rows = await db.admin.query(
    'update internal.webhook_endpoints set disabled_at = internal.now() where id = $1 and disabled_at is null returning id',
    [id],
  );
  return rows.length > 0;
}

export interface EndpointReport extends Record<string, unknown> {
  id: string;
  url: string;
  events: string[];
  delivered: number;
  waiting: number;
  failed: number;
  /** deliveries that are being retried (they failed at least once) */
  retrying: number;
  last_delivered_at: string | null;
  last_error: string | null;
  last_failed_at: string | null;
}

/** Each endpoint's deliveries: how many went, wait, failed for good, and the last error. */
export async function webhookReport(db: Database): Promise<EndpointReport[]> {
  const rows = await db.admin.query<EndpointReport>(
    `select e.id::text as id, e.url, e.events,
            count(o.id) filter (where o.status = 'sent')::int as delivered,
            count(o.id) filter (where o.status in ('pending', 'sending'))::int as waiting,
            count(o.id) filter (where o.status in ('pending', 'sending') and o.attempts > 0)::int as retrying,
            count(o.id) filter (where o.status = 'failed')::int as failed,
            max(o.sent_at)::text as last_delivered_at,
            (array_agg(o.last_error order by o.id desc) filter (where o.last_error is not null))[1] as last_error,
            max(o.created_at) filter (where o.status = 'failed')::text as last_failed_at
       from internal.webhook_endpoints e
       left join internal.mail_outbox o on o.kind = 'webhook' and o.recipient = e.id::text
      where e.disabled_at is null
      group by e.id order by e.id`,
  );
  return rows.map((r) => ({
    ...r,
    delivered: Number(r.delivered),
    waiting: Number(r.waiting),
    failed: Number(r.failed),
    retrying: Number(r.retrying),
  }));
}
