create table internal.saved_searches (
  id bigint generated always as identity primary key,
  email text not null,
  -- one saved search per address and filters (the same request twice makes one)
  email_key text not null,
  filters jsonb not null,
  filters_key text not null,
  -- 'monthly' is a market follow's, and only its (the check below)
  frequency text not null check (frequency in ('instant', 'daily', 'weekly', 'monthly')),
  lang text not null check (lang in ('en', 'es')),
  status text not null default 'pending' check (status in ('pending', 'active', 'paused', 'unsubscribed', 'expired')),
  created_at timestamptz not null default internal.now(),
  -- an unconfirmed request is gone after this
  expires_at timestamptz not null,
  confirmed_at timestamptz,
  unsubscribed_at timestamptz,
  -- the high-water mark: what came on the market or dropped in price until here has been looked at
  sent_through timestamptz,
  -- when the alert job next looks at this search
  next_run_at timestamptz,
  last_alert_at timestamptz,
  idempotency_key text not null unique,
  client_hash text not null,
  spam boolean not null default false,
  origin text,
  user_agent text,
  -- the lead's owner and where the visitor came from, as for an inquiry (40_inquiries.sql)
  lead_agent_id bigint,
  page_url text,
  element text,
  utm jsonb,
  -- a market follow (docs/market.md "Follow a market"): { place, type_group, name }, the place's
  -- report mailed each month; its filters are empty. Null for a search's alerts.
  market jsonb,
  -- a home report (docs/valuation.md "A report every month"): the home's facts, its estimate mailed
  -- each month with its comparables, its sector's trend and buyer demand. Null otherwise.
  home jsonb,
  constraint saved_searches_market check ((market is not null or home is not null) = (frequency = 'monthly') and (market is null or home is null))
);

alter table internal.saved_searches enable row level security;

comment on table internal.saved_searches is 'Saved searches with e-mail alerts, and market follows (double opt-in). Read and written only by the saved-searches function.';

create unique index saved_searches_one on internal.saved_searches (email_key, filters_key) where status in ('pending', 'active', 'paused') and not spam;

create index saved_searches_due on internal.saved_searches (next_run_at) where status = 'active';

create index saved_searches_rate on internal.saved_searches (client_hash, created_at desc);

-- Tokens of the links in the mails: 32 random bytes, kept as their SHA-256 only. A confirmation
-- token works once; manage and unsubscribe tokens work until they expire.
create table internal.saved_search_tokens (
  token_hash text primary key,
  search_id bigint not null references internal.saved_searches (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'manage', 'unsubscribe')),
  created_at timestamptz not null default internal.now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table internal.saved_search_tokens enable row level security;

comment on table internal.saved_search_tokens is 'SHA-256 of the tokens in the alert mails'' links (confirm, manage, unsubscribe).';

create index saved_search_tokens_search on internal.saved_search_tokens (search_id);

-- One alert: what one run found for one search. Its mail (kind 'alert') is composed from it when sent.
create table internal.search_alerts (
  id bigint generated always as identity primary key,
  search_id bigint not null references internal.saved_searches (id) on delete cascade,
  window_from timestamptz,
  window_to timestamptz not null,
  -- [{ id, kind: 'new' | 'drop', old_price }], newest first, at most ALERT_ITEMS
  items jsonb not null,
  new_count integer not null,
  drop_count integer not null,
  created_at timestamptz not null default internal.now()
);

alter table internal.search_alerts enable row level security;

comment on table internal.search_alerts is 'What one alert run found for one saved search: the new listings and price drops its mail lists.';

create index search_alerts_search on internal.search_alerts (search_id, created_at desc);

-- When a market follow's next report is mailed (docs/market.md "Follow a market"): the 1st of the
-- month after `after`, at 08:00 in Ecuador, when the month before has closed and the index has it.
create or replace function internal.next_market_mail(after timestamptz)
returns timestamptz language sql immutable set search_path = '' as $$
  select (pg_catalog.date_trunc('month', after at time zone 'America/Guayaquil') + interval '1 month 8 hours') at time zone 'America/Guayaquil'
$$;

-- Buyer demand for the estimate (public.estimate_value; docs/valuation.md): how many confirmed saved
-- searches a home like the subject matches, told only where it says nothing about one buyer. A count
-- from DEMAND_FLOOR on, else "fewer than" it (none and four read alike); and nothing for facts that
-- no home among its comparables has (the type, bedrooms and bathrooms as given, the area within a
-- fifth, its features), which a caller could choose to single out one buyer's criteria.
create or replace function internal.buyer_demand(subject internal.listings, comparables bigint[], area double precision)
returns jsonb language sql stable set search_path = '' as $$
  with floor as (select 5 as n),
  real_home as (
    select exists (
      select 1 from internal.listings l
       where l.id = any (comparables)
         and l.property_type = subject.property_type
         and (subject.bedrooms is null or l.bedrooms = subject.bedrooms)
         and (subject.bathrooms is null or l.bathrooms = subject.bathrooms)
         and (case when subject.property_type = 'land' then l.lot_size else l.square_feet end) between area / 1.2 and area * 1.2
         and subject.features <@ l.features
    ) as yes
  ),
  matched as (
    select count(*)::integer as n
      from internal.saved_searches s, real_home
     where real_home.yes and s.status = 'active' and s.market is null and s.home is null and not s.spam
       and internal.listing_matches(subject, s.filters)
  )
  select case when not real_home.yes then null
              when matched.n >= floor.n then pg_catalog.jsonb_build_object('count', matched.n)
              else pg_catalog.jsonb_build_object('fewer_than', floor.n) end
    from real_home, matched, floor
$$;
