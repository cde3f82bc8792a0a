-- What helps a visitor decide on a listing (docs/product.md §2, "Deciding on a listing";
-- docs/decisions.md #28): the price's history and its last cut, and listings truly like this one.
--
-- - Every price change is already kept for the alerts (internal.listing_price_changes). A listing
--   now also carries its last cut (price_cut_at, price_before_cut), kept by a trigger, so cards and
--   map pins can say "Price reduced" without reading the changes; whether a cut is recent enough
--   to say so is the browser's and the pages' rule (core/protocol/listing.ts, PRICE_CUT_DAYS).
-- - public.listing_price_history(id): since the listing came on the market, newest first: each
--   change ('reduced' or 'increased', the new price and the difference) and 'listed' with the first
--   price.
-- - public.similar_listings(id, n): the active listings most like a listing (itself excluded, even
--   when it is no longer on the market: the 410 page shows what is like what was there). Same type,
--   a price within -30%/+40%, the nearest 150 such by the GiST index's distance order, then scored:
--   distance, price, area and bedrooms apart, and the same sector.

alter table internal.listings
  add column price_cut_at timestamptz,
  add column price_before_cut numeric;

comment on column internal.listings.price_cut_at is 'When the price last went down (null if the last change raised it, or it never changed).';
comment on column internal.listings.price_before_cut is 'The price before that cut.';

-- what the kept changes already say: each listing's latest change, when it was a cut
update internal.listings l
   set price_cut_at = c.changed_at, price_before_cut = c.old_price
  from (
    select distinct on (listing_id) listing_id, old_price, new_price, changed_at
      from internal.listing_price_changes
     order by listing_id, changed_at desc, id desc
  ) c
 where c.listing_id = l.id and c.new_price < c.old_price;

create or replace function internal.note_price_cut()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.price is distinct from old.price then
    if new.price < old.price then
      new.price_cut_at := now();
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

-- the public view gains when the listing came on the market (days on market) and its last cut;
-- columns are only ever added at the end (search_listings reads the view's list from the catalogue)
create or replace view public.listings as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
       sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search,
       listed_at, price_cut_at, price_before_cut
from internal.listings
where internal.is_public_listing(country_code, status);

-- A listing's price since it came on the market, newest first (at most 50 rows).
create or replace function public.listing_price_history(listing_id bigint)
returns table (at timestamptz, event text, price numeric, change numeric)
language sql
stable
-- it reads the kept changes (closed to the public key) of a public listing only
security definer
set search_path = ''
as $$
  with l as (
    select l.id, l.price, l.listed_at
      from internal.listings l
     where l.id = listing_id and internal.is_public_listing(l.country_code, l.status)
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
returns setof public.listings
language plpgsql
stable
-- it reads the listing itself even when it is no longer public (only to compare with it); it
-- returns public listings only, with the view's columns
security definer
set search_path = ''
as $$
declare
  columns text;
  s record;
begin
  if max_results is null or max_results not between 1 and 24 then
    raise exception 'max_results must be 1 to 24' using errcode = '22023';
  end if;
  select l.id, l.property_type, l.price, l.square_feet, l.bedrooms, l.city_slug, l.sector_slug,
         point(l.map_lng, l.map_lat) as here, cos(radians(l.map_lat)) as shrink
    into s
    from internal.listings l
   where l.id = listing_id and l.price > 0 and l.map_lat is not null and l.map_lng is not null;
  if s.id is null then
    return;
  end if;
  select pg_catalog.string_agg('c.' || pg_catalog.quote_ident(a.attname), ', ' order by a.attnum) into columns
  from pg_catalog.pg_attribute a
  where a.attrelid = 'public.listings'::regclass and a.attnum > 0 and not a.attisdropped;
  return query execute format($q$
    with near as (
      -- the nearest of the same type in the price band, in the GiST index's distance order (an
      -- index-only scan: the index carries what is compared)
      select c.id, c.location, c.price, c.square_feet, c.bedrooms, c.sector_slug, c.city_slug
        from internal.listings c
       where c.country_code = 'EC' and c.status = '1' and c.id <> $1 and c.location is not null
         and c.property_type = $2
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
  using s.id, s.property_type, s.price, s.here, s.shrink, s.square_feet, s.bedrooms, s.sector_slug, s.city_slug, max_results;
end
$$;

revoke execute on function public.listing_price_history, public.similar_listings from public;
grant execute on function public.listing_price_history, public.similar_listings to anon, authenticated, service_role;
revoke execute on function internal.note_price_cut from public;
