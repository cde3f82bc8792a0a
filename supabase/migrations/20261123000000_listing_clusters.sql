-- The map at any size (docs/decisions.md #20): every matching listing on the map as grid cells
-- counted by the database, so the browser downloads what it draws instead of every listing.
--
-- - Every listing has a map position, kept by the database: its coordinates, or (without usable
--   ones) near its city, its province or Quito with a small fixed offset per id. The same rule as
--   the browser's (supabase/functions/_shared/protocol/places.ts and listing.ts); the two are held
--   to one table of cases by tests/contract/rules.test.ts.
-- - public.listing_clusters(): for a zoom and a visible area, the cells of 64 px of a 256 px tile
--   grid (Web Mercator) with their count, the members' mean position, their bounds and their price
--   range, and the id and price of a cell's only listing. Called through PostgREST's /rpc/ with
--   postgrest-js .rpc(), here and on a hosted project alike.

create or replace function public.city_centroid(place text)
returns double precision[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case btrim(public.search_fold(place), E' \t\n\r\f\v')
    when 'quito' then array[-0.1807, -78.4678]
    when 'cumbaya' then array[-0.2005, -78.43]
    when 'tumbaco' then array[-0.212, -78.399]
    when 'guayaquil' then array[-2.17, -79.908]
    when 'samborondon' then array[-2.135, -79.876]
    when 'cuenca' then array[-2.9001, -79.0059]
    when 'manta' then array[-0.97, -80.712]
    when 'salinas' then array[-2.216, -80.948]
    when 'loja' then array[-3.9931, -79.2042]
    when 'ambato' then array[-1.2491, -78.6168]
    when 'ibarra' then array[0.3517, -78.1223]
    when 'montanita' then array[-1.827, -80.747]
    when 'olon' then array[-1.798, -80.753]
    when 'cotacachi' then array[0.3017, -78.2645]
    when 'vilcabamba' then array[-4.2611, -79.2223]
    when 'bahia de caraquez' then array[-0.605, -80.42]
    when 'puerto lopez' then array[-1.5597, -80.8122]
    when 'riobamba' then array[-1.6636, -78.6546]
    when 'latacunga' then array[-0.9352, -78.6155]
    when 'esmeraldas' then array[0.9592, -79.6539]
    when 'machala' then array[-3.2581, -79.9554]
    when 'portoviejo' then array[-1.0546, -80.4545]
    when 'santo domingo' then array[-0.2525, -79.1754]
    when 'banos' then array[-1.3964, -78.4247]
    when 'otavalo' then array[0.2343, -78.2625]
    when 'puembo' then array[-0.1762, -78.3569]
    when 'playas' then array[-2.63, -80.39]
  end::double precision[]
$$;

-- FNV-1a over the id's characters, as the browser's jitter(): up to ±0.025° per axis
create or replace function public.position_jitter(seed text)
returns double precision[]
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  h bigint := 2166136261;
  b bigint;
  i integer;
begin
  for i in 1 .. coalesce(length(seed), 0) loop
    h := ((h # ascii(substr(seed, i, 1))) * 16777619) % 4294967296;
  end loop;
  -- h * 2654435761 mod 2^32, in two halves so it stays within bigint
  b := (((h * 40503) % 4294967296) * 65536 + h * 31153) % 4294967296;
  return array[((h % 10000)::double precision / 10000 * 2 - 1) * 0.025, ((b % 10000)::double precision / 10000 * 2 - 1) * 0.025];
end
$$;

-- [lat, lng, approximate (1 or 0)] of a listing on the map
create or replace function public.map_position(id bigint, city text, state text, geo_lat text, geo_lon text)
returns double precision[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when public.parse_coordinate(geo_lat, 90) is not null and public.parse_coordinate(geo_lon, 180) is not null
      then array[public.parse_coordinate(geo_lat, 90), public.parse_coordinate(geo_lon, 180), 0]
    else (
      select array[c[1] + j[1], c[2] + j[2], 1]
      from (select coalesce(public.city_centroid(city), public.city_centroid(state), array[-0.1807, -78.4678]::double precision[]) as c,
                   public.position_jitter(id::text) as j) p
    )
  end
$$;

alter table internal.listings
  add column map_lat double precision generated always as ((public.map_position(id, city, state, geo_lat, geo_lon))[1]) stored,
  add column map_lng double precision generated always as ((public.map_position(id, city, state, geo_lat, geo_lon))[2]) stored,
  add column map_approximate boolean generated always as ((public.map_position(id, city, state, geo_lat, geo_lon))[3] = 1) stored,
  -- Web Mercator in [0, 1) from the top left, as map tiles count
  add column map_x double precision generated always as (((public.map_position(id, city, state, geo_lat, geo_lon))[2] + 180) / 360) stored,
  add column map_y double precision generated always as (
    (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, (public.map_position(id, city, state, geo_lat, geo_lon))[1])))) +
            1 / cos(radians(least(85.0511, greatest(-85.0511, (public.map_position(id, city, state, geo_lat, geo_lon))[1]))))) / pi()) / 2
  ) stored;

-- The clusters read only this index (an index-only scan): the position and every filtered column.
create index listings_map on internal.listings (map_x, map_y)
  include (map_lat, map_lng, map_approximate, price, bedrooms, bathrooms, square_feet, property_type, city_search, agent_id, lat, lng, id)
  where country_code = 'EC' and status = '1';

create or replace view public.listings as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y
from internal.listings
where status = '1';

-- The filters are the search's (docs/product.md §5, §7) with the values the browser already
-- dropped left out (widgets/lib/data/listings.ts, clusterArgs): property type and city match a
-- part of the text, literally (%, _ and \ are plain characters), city accent- and case-blind;
-- the area ('Search this area') keeps listings whose own coordinates lie in it.
create or replace function public.listing_clusters(
  zoom integer,
  view_west double precision default -180,
  view_south double precision default -85.0511,
  view_east double precision default 180,
  view_north double precision default 85.0511,
  property_type text default null,
  price_min numeric default null,
  price_max numeric default null,
  beds_min integer default null,
  baths_min numeric default null,
  area_min numeric default null,
  area_max numeric default null,
  city text default null,
  agent bigint default null,
  area_west double precision default null,
  area_south double precision default null,
  area_east double precision default null,
  area_north double precision default null
)
returns table (
  count bigint,
  lat double precision,
  lng double precision,
  lat_min double precision,
  lat_max double precision,
  lng_min double precision,
  lng_max double precision,
  price_from numeric,
  price_to numeric,
  id bigint,
  approximate boolean
)
language sql
stable
parallel safe
set search_path = ''
as $$
  -- the visible area in Web Mercator, and cells of 64 px: 4 per 256 px tile, 2^zoom tiles across
  select count(*) as count,
         avg(l.map_lat) as lat, avg(l.map_lng) as lng,
         min(l.map_lat) as lat_min, max(l.map_lat) as lat_max, min(l.map_lng) as lng_min, max(l.map_lng) as lng_max,
         min(l.price) as price_from, max(l.price) as price_to,
         case when count(*) = 1 then min(l.id) end as id,
         bool_and(l.map_approximate) as approximate
  from public.listings l
  where l.country_code = 'EC' and l.status = '1'
    and l.map_x >= (view_west + 180) / 360 and l.map_x <= (view_east + 180) / 360
    and l.map_y >= (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, view_north)))) + 1 / cos(radians(least(85.0511, greatest(-85.0511, view_north))))) / pi()) / 2
    and l.map_y <= (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, view_south)))) + 1 / cos(radians(least(85.0511, greatest(-85.0511, view_south))))) / pi()) / 2
    and (listing_clusters.property_type is null or l.property_type ilike '%' || replace(replace(replace(listing_clusters.property_type, '\', '\\'), '%', '\%'), '_', '\_') || '%')
    and (price_min is null or l.price >= price_min)
    and (price_max is null or l.price <= price_max)
    and (beds_min is null or l.bedrooms >= beds_min)
    and (baths_min is null or l.bathrooms >= baths_min)
    and (area_min is null or l.square_feet >= area_min)
    and (area_max is null or l.square_feet <= area_max)
    and (listing_clusters.city is null or l.city_search like '%' || replace(replace(replace(public.search_fold(listing_clusters.city), '\', '\\'), '%', '\%'), '_', '\_') || '%')
    and (agent is null or l.agent_id = agent)
    and (area_south is null or l.lat >= area_south)
    and (area_north is null or l.lat <= area_north)
    and (area_west is null or l.lng >= area_west)
    and (area_east is null or l.lng <= area_east)
  group by floor(l.map_x * power(2, least(greatest(zoom, 0), 24) + 2)), floor(l.map_y * power(2, least(greatest(zoom, 0), 24) + 2))
$$;

revoke execute on function public.listing_clusters from public;
grant execute on function public.listing_clusters to anon, authenticated, service_role;

comment on function public.listing_clusters is 'The map''s clusters: for a zoom and a visible area, 64 px grid cells of the matching active listings with their count, mean position, bounds and price range; a cell''s only listing by id.';
