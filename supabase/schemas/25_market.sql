-- The market in numbers (docs/market.md): when each listing was on the market, and from that the
-- monthly index of asking prices per m² for every place and type group.

-- Each time a listing was on the market: from when it came on (inserted active, or made active
-- again) to when it went off (withdrawn, sold, deleted from the feed); `off_at` null while it is on.
-- Written by the listings' trigger below, whoever changes the listings (imports, the seed, a
-- relisting); the seed also writes the spells of listings that came and went before it ran.
create table internal.listing_spells (
  listing_id bigint not null references internal.listings (id) on delete cascade,
  on_at timestamptz not null,
  off_at timestamptz,
  check (off_at is null or off_at >= on_at)
);

alter table internal.listing_spells enable row level security;

comment on table internal.listing_spells is 'Each time a listing was on the market: on_at to off_at (null while it is on).';

-- at most one open spell a listing
create unique index listing_spells_open on internal.listing_spells (listing_id) where off_at is null;

create index listing_spells_listing on internal.listing_spells (listing_id, on_at);

create or replace function internal.note_market_spells()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    insert into internal.listing_spells (listing_id, on_at)
    select n.id, n.listed_at from new_rows n where n.is_public
    on conflict do nothing;
    return null;
  end if;
  -- off the market: the open spell ends now
  update internal.listing_spells s
     set off_at = greatest(internal.now(), s.on_at)
    from old_rows o join new_rows n using (id)
   where s.listing_id = n.id and s.off_at is null
     and o.is_public and not n.is_public;
  -- back on it: a new spell from when it was listed again
  insert into internal.listing_spells (listing_id, on_at)
  select n.id, n.listed_at
    from old_rows o join new_rows n using (id)
   where not o.is_public and n.is_public
  on conflict do nothing;
  return null;
end
$$;

create trigger listings_market_spells_insert
  after insert on internal.listings
  referencing new table as new_rows
  for each statement
  execute function internal.note_market_spells();

create trigger listings_market_spells_update
  after update on internal.listings
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function internal.note_market_spells();

-- The index: for each place, type group and month, what the asking prices per m² of the listings
-- on the market that month were (docs/market.md has the rule). Rebuilt whole by
-- internal.rebuild_market_index(), on a schedule.
create table internal.market_index (
  -- 'ecuador', 'provincia/<province>', '<city>', '<city>/<sector>' (internal.places' paths)
  path text not null,
  kind text not null check (kind in ('country', 'province', 'city', 'sector')),
  -- as most of its listings write it
  name text not null,
  -- the place the figure is offered from when this one stands on too few listings
  parent text,
  type_group text not null check (type_group in ('all', 'house', 'apartment', 'land', 'commercial')),
  month date not null,
  listings integer not null,
  median numeric not null,
  p25 numeric not null,
  p75 numeric not null,
  new_listings integer not null,
  price_cuts integer not null,
  median_days integer not null,
  -- where its listings are, on average (the national report's map)
  lat double precision,
  lng double precision,
  -- the ranking's (public.market_ranking), written for last month and this one: the median twelve
  -- months before, and the medians of the 13 months to this one (null where they stand on too few)
  median_year_before numeric,
  trend numeric[],
  primary key (path, type_group, month)
);

alter table internal.market_index enable row level security;

comment on table internal.market_index is 'The monthly asking price per m² of every place and type group (docs/market.md); rebuilt by internal.rebuild_market_index().';

create index market_index_parent on internal.market_index (parent, type_group, month);

-- What each place's report shows (docs/market.md, rule 7): for each type group and month, the
-- place's own figure where it stands on enough listings, else the nearest place above it that has
-- one (`path` says whose). Written with the index, so a report reads its rows instead of walking
-- the places above it.
create table internal.market_shown (
  -- the place asked for
  place text not null,
  type_group text not null,
  month date not null,
  -- the place the figure is of
  path text not null,
  name text not null,
  listings integer not null,
  median numeric not null,
  p25 numeric not null,
  p75 numeric not null,
  new_listings integer not null,
  price_cuts integer not null,
  median_days integer not null,
  primary key (place, type_group, month)
);

alter table internal.market_shown enable row level security;

-- The outlier bounds of each city and type group (docs/market.md, rule 5), as the last whole
-- rebuild judged them over its 25 months; the hourly refresh of the last months reads them.
create table internal.market_bounds (
  city_slug text not null,
  type_group text not null,
  lo double precision not null,
  hi double precision not null,
  primary key (city_slug, type_group)
);

alter table internal.market_bounds enable row level security;

-- The rebuild's times on the market, each at one price per m² over a run of months, while it runs
-- (emptied when it ends): a table of its own, not a temporary one, so that parallel workers can
-- read it and make the rows of each listing and month from it (docs/market.md "Freshness");
-- unlogged, as nothing in it outlives the rebuild. Two rebuilds at once take turns on it.
create unlogged table internal.market_runs (
  group_key smallint not null,
  state_key integer not null,
  city_key integer not null,
  sector_key integer,
  usd_m2 double precision,
  -- the months it counts in, numbered from the first month of the rebuild (0)
  first_i integer not null,
  last_i integer not null,
  -- its time on the market, in microseconds since 1970 (exact, and integers sort faster)
  on_us bigint not null,
  off_us bigint,
  -- the months in which its price was cut
  cut_months date[]
);

alter table internal.market_runs enable row level security;

-- What homes rent for now in every place with rentals (docs/market.md "Rents"), as the index's
-- last refresh found them: its active homes for rent by their rent a month per m² and a two-bedroom
-- flat's, each with how many it stands on. Written by internal.rebuild_market_index(), read by
-- internal.market_rents().
create table internal.market_rents_now (
  -- 'ecuador', 'provincia/<province>', '<city>', '<city>/<sector>'
  path text primary key,
  listings integer not null,
  median numeric not null,
  p25 numeric not null,
  p75 numeric not null,
  -- null when fewer than internal.market_minimum() two-bedroom flats stand on it
  two_bedroom numeric,
  two_bedroom_listings integer not null
);

alter table internal.market_rents_now enable row level security;

-- The type group of a property type (docs/market.md): one place for the rule.
create or replace function internal.market_type_group(property_type text)
returns text language sql immutable parallel safe set search_path = '' as $$
  select case
    when property_type in ('house', 'apartment', 'land') then property_type
    -- a suite is a small flat; a quinta a house on its land (docs/market.md)
    when property_type = 'suite' then 'apartment'
    when property_type = 'quinta' then 'house'
    when property_type in ('office', 'business_premises', 'commercial_building') then 'commercial'
  end
$$;

-- The fewest listings a figure stands on for it to be shown (docs/market.md).
create or replace function internal.market_minimum()
returns integer language sql immutable set search_path = '' as $$
  select 8
$$;
