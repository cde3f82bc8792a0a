/**
 * Webhook events (docs/leads.md, "Webhooks"): what a CRM hears, queued in the transaction that
 * stores what happened, one outbox row (kind 'webhook') per endpoint that asked for the event. The
 * message's id (`msg_...`) is the same for every endpoint and every attempt: a receiver that has
 * seen it has seen the event. Plain SQL over any client; imported by our server and the deployed
 * functions.
 */
import type { Sql } from '../sql.ts';
import { nowDate } from '../../clock.ts';

export const WEBHOOK_EVENTS = [
  'inquiry.created',
  'alert.confirmed',
  'alert.unsubscribed',
  'seller.lead.created',
  'visit.requested',
  'visit.confirmed',
  'visit.cancelled',
  'lead.reassigned',
  'lead.erased',
  'consent.withdrawn',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What a delivery carries, besides its id: the Standard Webhooks envelope, versioned. */
export interface WebhookPayload {
  type: WebhookEvent;
  /** when it happened (ISO 8601) */
  timestamp: string;
  /** the payloads' version (internal.enqueue_webhook writes 1): a receiver reads it before `data`; a change of shape is a new version */
  version: 1;
  data: Record<string, unknown>;
}

/** Queues the event for every active endpoint subscribed to it (internal.enqueue_webhook, the one way); returns how many deliveries were queued. */
export async function enqueueEvent(
  sql: Sql,
  type: WebhookEvent,
  data: Record<string, unknown>,
  at: Date = nowDate(),
): Promise<number> {
  const [row] = await sql.query<{ n: number }>('select internal.enqueue_webhook($1, $2::jsonb, $3::timestamptz) as n', [
    type,
    JSON.stringify(data),
    at.toISOString(),
  ]);
  return Number(row?.n ?? 0);
}
