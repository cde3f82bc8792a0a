-- Leads go where the business needs them (docs/decisions.md #30; docs/leads.md).
--
-- - The lead's owner: an inquiry or an alert request from an element with `lead-agent-id` (or a
--   deployment's LEAD_AGENT_ID) goes to that agent, one of ours; the listing's agent gets a copy
--   when the deployment says so (LEAD_COPY_LISTING_AGENT).
-- - Attribution: the page (its address without its query), the element, the page's UTM
--   parameters; the embedding site's origin is the request's Origin header, kept already.
-- - Signed webhooks: endpoints a deployment registers, each with its own secret and events. A
--   delivery is a row of the outbox (kind 'webhook'), queued in the transaction that stores the
--   event, so an event stored is an event delivered, at least once.

alter table public.inquiries
  add column lead_agent_id bigint,
  add column copy_recipient text,
  add column page_url text,
  add column element text,
  add column utm jsonb;

alter table public.inquiries drop constraint inquiries_recipient_kind_check;
alter table public.inquiries add constraint inquiries_recipient_kind_check
  check (recipient_kind in ('listing_agent', 'agent', 'team', 'lead_agent'));

alter table internal.saved_searches
  add column lead_agent_id bigint,
  add column page_url text,
  add column element text,
  add column utm jsonb;

create table internal.webhook_endpoints (
  id bigint generated always as identity primary key,
  url text not null,
  events text[] not null check (cardinality(events) > 0 and events <@ array['inquiry.created', 'alert.confirmed', 'alert.unsubscribed']),
  -- whsec_<base64 of 24 random bytes>: the key the deliveries are signed with (Standard Webhooks)
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
  description text,
  -- a development endpoint on a private network or over http (npm run webhooks -- add --dev)
  allow_private boolean not null default false,
  created_at timestamptz not null default now(),
  disabled_at timestamptz
);

alter table internal.webhook_endpoints enable row level security;
revoke all on internal.webhook_endpoints from anon, authenticated;

create index mail_outbox_webhooks on internal.mail_outbox (recipient, status) where kind = 'webhook';
