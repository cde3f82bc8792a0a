-- Every change of a listing's price, for the alerts' price drops.
create table internal.listing_price_changes (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  old_price numeric,
  new_price numeric,
  changed_at timestamptz not null default internal.now()
);

alter table internal.listing_price_changes enable row level security;

comment on table internal.listing_price_changes is 'Every price change of a listing, for the alerts'' price drops.';

create index listing_price_changes_at on internal.listing_price_changes (changed_at);

create or replace function internal.record_price_changes()
returns trigger language plpgsql set search_path = '' as $$
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

create or replace function internal.note_price_cut()
returns trigger language plpgsql set search_path = '' as $$
begin
  if new.price is distinct from old.price then
    if new.price < old.price then
      new.price_cut_at := internal.now();
      new.price_before_cut := old.price;
    else
      new.price_cut_at := null;
      new.price_before_cut := null;
    end if;
  end if;
  return new;
end
$$;

create trigger listings_note_price_cut
  before update of price on internal.listings
  for each row
  execute function internal.note_price_cut();

create index listing_price_changes_listing on internal.listing_price_changes (listing_id, changed_at);

-- A listing's price since it came on the market, newest first (at most 50 rows).
create or replace function public.listing_price_history(listing_id bigint)
returns table (at timestamptz, event public.plain_text, price numeric, change numeric)
language sql stable
-- it reads the kept changes (closed to the public key) of a public listing only
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  with l as (
    select l.id, l.price, l.listed_at
      from internal.listings l
     where l.id = listing_id and l.is_public
  ), c as (
    select c.id, c.changed_at, c.old_price, c.new_price
      from internal.listing_price_changes c
      join l on c.listing_id = l.id
     where c.changed_at >= l.listed_at and c.old_price is not null and c.new_price is not null
  )
  select h.at, h.event, h.price, h.change
    from (
      select c.changed_at as at, case when c.new_price < c.old_price then 'reduced' else 'increased' end as event,
             c.new_price as price, c.new_price - c.old_price as change, c.id as n
        from c
      union all
      select l.listed_at, 'listed', coalesce((select c.old_price from c order by c.changed_at, c.id limit 1), l.price), null, 0
        from l
    ) h
   order by h.at desc, h.n desc
   limit 50
$$;

-- The active listings most like one listing, best first.
create or replace function public.similar_listings(listing_id bigint, max_results integer default 8)
returns setof public.listings language plpgsql stable
-- it reads the listing itself even when it is no longer public (only to compare with it); it
-- returns public listings only, with the view's columns
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  columns text;
  s record;
begin
  if max_results is null or max_results not between 1 and 24 then
    raise exception 'max_results must be 1 to 24' using errcode = '22023';
  end if;
  select l.id, l.property_type, l.price, l.square_feet, l.bedrooms, l.city_slug, l.sector_slug, l.operation,
         point(l.map_lng, l.map_lat) as here, cos(radians(l.map_lat)) as shrink
    into s
    from internal.listings l
   where l.id = listing_id and l.price > 0 and l.map_lat is not null and l.map_lng is not null;
  if s.id is null then
    return;
  end if;
  columns := internal.public_listing_columns('c');
  return query execute format($q$
    with near as (
      -- the nearest of the same type in the price band, in the GiST index's distance order (an
      -- index-only scan: the index carries what is compared); a sale's are sales, a rent's rents
      select c.id, c.location, c.price, c.square_feet, c.bedrooms, c.sector_slug, c.city_slug
        from internal.listings c
       where c.is_public and c.id <> $1 and c.location is not null
         and c.property_type = $2 and c.operation = $11
         and c.price between $3 * 0.7 and $3 * 1.4
       order by c.location <-> $4
       limit 150
    ), best as (
      select n.id,
             -- km apart (a degree of latitude is 111 km; one of longitude shrinks with the latitude)
             least(sqrt(power((n.location[1] - $4[1]) * 111, 2) + power((n.location[0] - $4[0]) * 111 * $5, 2)), 40) / 4
             + abs(ln(n.price::float8 / $3::float8)) * 10
             + case when n.square_feet > 0 and $6 > 0 then abs(ln(n.square_feet::float8 / $6::float8)) * 6 else 1 end
             + abs(coalesce(n.bedrooms, 0)::float8 - coalesce($7, 0)::float8) * 1.5
             - case when n.sector_slug = $8 and n.city_slug = $9 then 2 else 0 end as score
        from near n
       order by score, n.id
       limit $10
    )
    -- the rows of the best only
    select %s
      from best x
      join internal.listings c on c.id = x.id
     order by x.score, c.id
  $q$, columns)
  using s.id, s.property_type, s.price, s.here, s.shrink, s.square_feet, s.bedrooms, s.sector_slug, s.city_slug, max_results, s.operation;
end
$$;

-- The listings most like one (public.similar_listings; docs/decisions.md #28) found as fast for an
-- office as for a house.
--
-- similar_listings walks the area's GiST index nearest first and keeps the listings of the same
-- type in the price band. Houses and apartments are two thirds of the market, so the first 150 of
-- them are near; offices, business premises and commercial buildings are 4 to 7% each, and the
-- walk read thousands of other listings' entries first (12 ms on average for an office at 100,000
-- listings, 50-70 ms at worst, against 2-4 ms for a house). An index per known type is walked
-- only through that type: every listing 2-3 ms, the worst about 10 ms.
--
-- The types are core/protocol/listing.ts KNOWN_TYPES (tests/contract/decide.test.ts holds the two
-- lists together). A type no index names (a feed's own value) still walks the area's index, as
-- before. The function's EXECUTE plans once per call with the type as a constant, so the planner
-- proves the partial index's predicate from the query.

create index listings_near_house on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'house';

create index listings_near_apartment on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'apartment';

create index listings_near_land on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'land';

create index listings_near_office on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'office';

create index listings_near_business_premises on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'business_premises';

create index listings_near_commercial_building on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'commercial_building';

create index listings_near_suite on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'suite';

create index listings_near_quinta on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'quinta';
