-- Saved searches with e-mail alerts (docs/decisions.md #23). A visitor asks for alerts on a
-- search; a confirmation mail with a link is the only mail an unconfirmed address ever gets (double
-- opt-in), and an unconfirmed request expires. Once confirmed, the alert job mails the listings that
-- came on the market and the price drops since the search's previous alert (its high-water mark),
-- at the search's frequency. Every alert mail carries one-click unsubscribe and a manage link.
--
-- Nothing here is readable with the public key: the tables are in `internal`, with row level
-- security and no grant to anon. Everything goes through the saved-searches function
-- (supabase/functions/_shared/alerts/), which our server and the deployed function share.

-- When a listing came on the market (inserted active, or made active again): what an alert calls new.
alter table internal.listings add column listed_at timestamptz;
update internal.listings set listed_at = created_at;
alter table internal.listings alter column listed_at set default now();
alter table internal.listings alter column listed_at set not null;

create or replace function internal.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a new row was last changed when it was created (unless it says otherwise); a changed one now
  if tg_op = 'INSERT' then
    new.updated_at := coalesce(new.updated_at, new.created_at, now());
    new.listed_at := coalesce(new.listed_at, now());
  else
    new.updated_at := now();
    -- back on the market: new again for the alerts
    if new.status = '1' and old.status is distinct from '1' then
      new.listed_at := now();
    end if;
  end if;
  return new;
end
$$;

create index listings_listed on internal.listings (listed_at) where country_code = 'EC' and status = '1';

-- Every change of a listing's price, for the alerts' price drops.
create table internal.listing_price_changes (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  old_price numeric,
  new_price numeric,
  changed_at timestamptz not null default now()
);

create index listing_price_changes_at on internal.listing_price_changes (changed_at);

create or replace function internal.record_price_changes()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  insert into internal.listing_price_changes (listing_id, old_price, new_price)
  select n.id, o.price, n.price
    from new_rows n join old_rows o on o.id = n.id
   where o.price is distinct from n.price;
  return null;
end
$$;

-- once per statement: a bulk price update costs one insert, not one trigger call per row
create trigger listings_price_changes
  after update on internal.listings
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function internal.record_price_changes();

-- Whether an active listing matches a saved search's filters: the search's own rules (docs/product.md
-- §5, §7; widgets/lib/data/listings.ts applyFilters, and public.listing_clusters), the filters in the
-- names listing_clusters takes them (protocol/filters.ts, filterArgs). Held to the REST search by one
-- table of cases (tests/contract/rest.test.ts).
--
-- No `set search_path` on this function nor on public.search_fold (the rule of migration
-- 20261122010000_search_rules.sql, redefined here the same but without one): a
-- SET clause keeps PostgreSQL from inlining a SQL function, and the alert job calls this for every
-- search and every changed listing. Inlined, a batch of 200 searches against 300 changed listings
-- took 166 ms instead of 976 ms (docs/decisions.md #23). Neither is SECURITY DEFINER, so they run
-- with the caller's rights; the functions they call are named with their schema, and operators
-- resolve in pg_catalog first.
create or replace function public.search_fold(value text)
returns text
language sql
immutable
parallel safe
as $$
  select pg_catalog.translate(pg_catalog.regexp_replace(normalize(coalesce(value, ''), NFD), E'[\u0300-\u036f]', '', 'g'),
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
$$;

create or replace function internal.listing_matches(l internal.listings, f jsonb)
returns boolean
language sql
stable
as $$
  select l.country_code = 'EC' and l.status = '1'
    and (f->>'property_type' is null
         or l.property_type ilike '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(f->>'property_type', '\', '\\'), '%', '\%'), '_', '\_') || '%')
    and (f->>'price_min' is null or l.price >= (f->>'price_min')::numeric)
    and (f->>'price_max' is null or l.price <= (f->>'price_max')::numeric)
    and (f->>'beds_min' is null or l.bedrooms >= (f->>'beds_min')::numeric)
    and (f->>'baths_min' is null or l.bathrooms >= (f->>'baths_min')::numeric)
    and (f->>'area_min' is null or l.square_feet >= (f->>'area_min')::numeric)
    and (f->>'area_max' is null or l.square_feet <= (f->>'area_max')::numeric)
    and (f->>'city' is null
         or l.city_search like '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(public.search_fold(f->>'city'), '\', '\\'), '%', '\%'), '_', '\_') || '%')
    and (f->>'agent' is null or l.agent_id = (f->>'agent')::bigint)
    and (f->>'area_south' is null or l.lat >= (f->>'area_south')::double precision)
    and (f->>'area_north' is null or l.lat <= (f->>'area_north')::double precision)
    and (f->>'area_west' is null or l.lng >= (f->>'area_west')::double precision)
    and (f->>'area_east' is null or l.lng <= (f->>'area_east')::double precision)
$$;

create table internal.saved_searches (
  id bigint generated always as identity primary key,
  email text not null,
  -- one saved search per address and filters (the same request twice makes one)
  email_key text not null,
  filters jsonb not null,
  filters_key text not null,
  frequency text not null check (frequency in ('instant', 'daily', 'weekly')),
  lang text not null check (lang in ('en', 'es')),
  status text not null default 'pending' check (status in ('pending', 'active', 'paused', 'unsubscribed', 'expired')),
  created_at timestamptz not null default now(),
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
  user_agent text
);

create unique index saved_searches_one on internal.saved_searches (email_key, filters_key) where status in ('pending', 'active', 'paused') and not spam;
create index saved_searches_due on internal.saved_searches (next_run_at) where status = 'active';
create index saved_searches_rate on internal.saved_searches (client_hash, created_at desc);

-- Tokens of the links in the mails: 32 random bytes, kept as their SHA-256 only. A confirmation
-- token works once; manage and unsubscribe tokens work until they expire.
create table internal.saved_search_tokens (
  token_hash text primary key,
  search_id bigint not null references internal.saved_searches (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'manage', 'unsubscribe')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

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
  created_at timestamptz not null default now()
);

create index search_alerts_search on internal.search_alerts (search_id, created_at desc);

alter table internal.listing_price_changes enable row level security;
alter table internal.saved_searches enable row level security;
alter table internal.saved_search_tokens enable row level security;
alter table internal.search_alerts enable row level security;
revoke all on internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens, internal.search_alerts from anon, authenticated;
grant all on internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens, internal.search_alerts to service_role;

comment on table internal.saved_searches is 'Saved searches with e-mail alerts (double opt-in). Read and written only by the saved-searches function.';
comment on table internal.saved_search_tokens is 'SHA-256 of the tokens in the alert mails'' links (confirm, manage, unsubscribe).';
comment on table internal.search_alerts is 'What one alert run found for one saved search: the new listings and price drops its mail lists.';
comment on table internal.listing_price_changes is 'Every price change of a listing, for the alerts'' price drops.';
comment on column internal.listings.listed_at is 'When the listing came on the market (inserted active or made active again): new for the alerts.';
