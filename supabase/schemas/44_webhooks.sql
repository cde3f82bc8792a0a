create table internal.webhook_endpoints (
  id bigint generated always as identity primary key,
  url text not null,
  events text[] not null check (cardinality(events) > 0 and events <@ array['inquiry.created', 'alert.confirmed', 'alert.unsubscribed', 'seller.lead.created', 'visit.requested', 'visit.confirmed', 'visit.cancelled', 'lead.reassigned', 'lead.erased', 'consent.withdrawn']),
  -- whsec_<base64 of 24 random bytes>: the key the deliveries are signed with (Standard Webhooks)
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
  description text,
  -- a development endpoint on a private network or over http (npm run webhooks -- add --dev)
  allow_private boolean not null default false,
  created_at timestamptz not null default internal.now(),
  disabled_at timestamptz
);

alter table internal.webhook_endpoints enable row level security;

-- Queues a webhook event for every active endpoint that asked for it (docs/leads.md "Webhooks"), in
-- the caller's transaction: one outbox row per endpoint, one message id for all. The one way events
-- are queued, from SQL (the team's reassignments) and from TypeScript (core/functions/webhooks/events.ts).
create or replace function internal.enqueue_webhook(event text, data jsonb, at timestamptz default internal.now())
returns integer language sql volatile set search_path = '' as $$
  with msg as (select 'msg_' || pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', '') as id),
  queued as (
    insert into internal.mail_outbox (kind, ref_id, recipient, payload)
    select 'webhook', msg.id || ':' || e.id, e.id::text,
           pg_catalog.jsonb_build_object('id', msg.id, 'type', enqueue_webhook.event,
             'timestamp', pg_catalog.to_char(enqueue_webhook.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'version', 1, 'data', enqueue_webhook.data)
      from internal.webhook_endpoints e, msg
     where e.disabled_at is null and enqueue_webhook.event = any (e.events)
    on conflict (kind, ref_id) do nothing
    returning 1
  )
  select count(*)::integer from queued
$$;
