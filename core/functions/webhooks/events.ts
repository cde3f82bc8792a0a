/**
 * Webhook events (docs/leads.md, "Webhooks"): what a CRM hears, queued in the transaction that
 * stores what happened, one outbox row (kind 'webhook') per endpoint that asked for the event. The
 * message's id (`msg_...`) is the same for every endpoint and every attempt: a receiver that has
 * seen it has seen the event. Plain SQL over any client; imported by our server and the deployed
 * functions.
 */
import type { Sql } from '../sql.ts';
import { nowDate } from '../../clock.ts';

export const WEBHOOK_EVENTS = ['inquiry.created', 'alert.confirmed', 'alert.unsubscribed', 'seller.lead.created', 'visit.requested', 'visit.confirmed', 'visit.cancelled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The payloads' version: a receiver reads `version` before `data`; a change of shape is a new version. */
const WEBHOOK_VERSION = 1;

/** What a delivery carries, besides its id: the Standard Webhooks envelope, versioned. */
export interface WebhookPayload {
  type: WebhookEvent;
  /** when it happened (ISO 8601) */
  timestamp: string;
  version: typeof WEBHOOK_VERSION;
  data: Record<string, unknown>;
}

function newMessageId(): string {
  return `msg_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** Queues the event for every active endpoint subscribed to it; returns how many deliveries were queued. */
export async function enqueueEvent(sql: Sql, type: WebhookEvent, data: Record<string, unknown>, at: Date = nowDate()): Promise<number> {
  const id = newMessageId();
  const payload: WebhookPayload = { type, timestamp: at.toISOString(), version: WEBHOOK_VERSION, data };
  const rows = await sql.query(
    `insert into internal.mail_outbox (kind, ref_id, recipient, payload)
     select 'webhook', $1 || ':' || e.id, e.id::text, jsonb_build_object('id', $1::text) || $2::jsonb
       from internal.webhook_endpoints e
      where e.disabled_at is null and $3 = any (e.events)
     on conflict (kind, ref_id) do nothing
     returning id`,
    [id, JSON.stringify(payload), type],
  );
  return rows.length;
}
