create table internal.webhook_endpoints (
  id bigint generated always as identity primary key,
  url text not null,
  events text[] not null check (cardinality(events) > 0 and events <@ array['inquiry.created', 'alert.confirmed', 'alert.unsubscribed', 'seller.lead.created', 'visit.requested', 'visit.confirmed', 'visit.cancelled']),
  -- whsec_<base64 of 24 random bytes>: the key the deliveries are signed with (Standard Webhooks)
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
  description text,
  -- a development endpoint on a private network or over http (npm run webhooks -- add --dev)
  allow_private boolean not null default false,
  created_at timestamptz not null default internal.now(),
  disabled_at timestamptz
);

alter table internal.webhook_endpoints enable row level security;
