-- Search the way visitors think (docs/decisions.md #26), part one: a listing's sector, the spec's
-- other filters (features, year built, lot size) and places.
-- - Every listing names its sector (a neighbourhood, parish or urbanización), and carries features
--   (pool, view, waterfront, garage, new_construction, air_conditioning), the year it was built and
--   its lot size.
-- - A place is a province, a city or a sector, addressed by a readable path: 'quito',
--   'quito/inaquito', 'provincia/pichincha' (core/protocol/places.ts placePathParts reads the same
--   paths). internal.places keeps each place with its name, its centre and bounds and its number of
--   active listings, kept current as listings change, like the map's cells.
-- - internal.listing_matches() gains the place, the features, the years and the lot size, and the
--   city's free text now reads the city, the sector and the address. public.listing_clusters takes
--   the filters as one JSON object (the names of core/protocol/filters.ts FilterArgs), so a new
--   filter is a change of listing_matches() alone.
-- - public.place_suggestions() answers the location box: places, then listings by code or address.

-- a name as the site's addresses write it: folded, then every run of other characters one '-'
-- (core/routes.ts slugify; tests/contract/rules.test.ts holds both to one table of cases)
create or replace function public.slugify(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.rtrim(pg_catalog.left(pg_catalog.btrim(pg_catalog.regexp_replace(public.search_fold(value), '[^a-z0-9]+', '-', 'g'), '-'), 80), '-')
$$;

alter table internal.listings
  add column sector text,
  add column features text[] not null default '{}'
    check (features <@ array['pool', 'view', 'waterfront', 'garage', 'new_construction', 'air_conditioning']::text[]),
  add column year_built integer check (year_built between 1500 and 2100),
  -- square metres, as square_feet
  add column lot_size numeric check (lot_size >= 0);

alter table internal.listings
  add column state_slug text generated always as (public.slugify(state)) stored,
  add column city_slug text generated always as (public.slugify(city)) stored,
  add column sector_slug text generated always as (public.slugify(sector)) stored,
  -- what the free text of the location box reads: the city, the sector and the address, folded
  add column place_search text generated always as (public.search_fold(coalesce(city, '') || ' ' || coalesce(sector, '') || ' ' || coalesce(address, ''))) stored;

-- the free text and the type, intersected inside one index as before (it replaces listings_search)
drop index if exists internal.listings_search;
create index listings_search on internal.listings using gin (
  place_search extensions.gin_trgm_ops, property_type extensions.gin_trgm_ops
) where country_code = 'EC' and status = '1';
create index listings_place on internal.listings (city_slug, sector_slug) where country_code = 'EC' and status = '1';
create index listings_province on internal.listings (state_slug) where country_code = 'EC' and status = '1';
create index listings_features on internal.listings using gin (features) where country_code = 'EC' and status = '1';
create index listings_year_built on internal.listings (year_built) where country_code = 'EC' and status = '1';
create index listings_lot_size on internal.listings (lot_size) where country_code = 'EC' and status = '1';

-- the clusters still read only this index: every filtered column is in it
drop index if exists internal.listings_map;
create index listings_map on internal.listings (map_x, map_y)
  include (map_lat, map_lng, map_approximate, price, bedrooms, bathrooms, square_feet, property_type, place_search, agent_id, lat, lng, id,
           state_slug, city_slug, sector_slug, features, year_built, lot_size)
  where country_code = 'EC' and status = '1';

create or replace view public.listings as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
       sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search
from internal.listings
where internal.is_public_listing(country_code, status);

create or replace function internal.listing_matches(l internal.listings, f jsonb)
returns boolean
language sql
stable
as $$
  select internal.is_public_listing(l.country_code, l.status)
    and (f->>'property_type' is null or l.property_type ilike internal.contains_pattern(f->>'property_type'))
    and (f->>'price_min' is null or l.price >= (f->>'price_min')::numeric)
    and (f->>'price_max' is null or l.price <= (f->>'price_max')::numeric)
    and (f->>'beds_min' is null or l.bedrooms >= (f->>'beds_min')::numeric)
    and (f->>'baths_min' is null or l.bathrooms >= (f->>'baths_min')::numeric)
    and (f->>'area_min' is null or l.square_feet >= (f->>'area_min')::numeric)
    and (f->>'area_max' is null or l.square_feet <= (f->>'area_max')::numeric)
    and (f->>'city' is null or l.place_search like internal.contains_pattern(public.search_fold(f->>'city')))
    and (f->>'place' is null or case
           when f->>'place' like 'provincia/%' then l.state_slug = pg_catalog.substr(f->>'place', 11)
           else l.city_slug = pg_catalog.split_part(f->>'place', '/', 1)
                and (pg_catalog.split_part(f->>'place', '/', 2) = '' or l.sector_slug = pg_catalog.split_part(f->>'place', '/', 2))
         end)
    and (f->'features' is null or l.features @> array(select pg_catalog.jsonb_array_elements_text(f->'features')))
    and (f->>'year_min' is null or l.year_built >= (f->>'year_min')::integer)
    and (f->>'year_max' is null or l.year_built <= (f->>'year_max')::integer)
    and (f->>'lot_min' is null or l.lot_size >= (f->>'lot_min')::numeric)
    and (f->>'lot_max' is null or l.lot_size <= (f->>'lot_max')::numeric)
    and (f->>'agent' is null or l.agent_id = (f->>'agent')::bigint)
    and (f->>'area_south' is null or l.lat >= (f->>'area_south')::double precision)
    and (f->>'area_north' is null or l.lat <= (f->>'area_north')::double precision)
    and (f->>'area_west' is null or l.lng >= (f->>'area_west')::double precision)
    and (f->>'area_east' is null or l.lng <= (f->>'area_east')::double precision)
$$;

-- The map's clusters: the view and the zoom, and the search's filters as one object (FilterArgs).
drop function if exists public.listing_clusters(integer, double precision, double precision, double precision, double precision, text, numeric, numeric, integer, numeric, numeric, numeric, text, bigint, double precision, double precision, double precision, double precision);
create function public.listing_clusters(
  zoom integer,
  view_west double precision default -180,
  view_south double precision default -85.0511,
  view_east double precision default 180,
  view_north double precision default 85.0511,
  filters jsonb default '{}'
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
language plpgsql
stable
-- it reads the kept cells (internal.listing_cells) for the public key; it reads nothing else that
-- key could not read itself (public.listings)
security definer
set search_path = ''
as $$
declare
  -- cells of 64 px: 4 per 256 px tile, 2^zoom tiles across the world
  cells double precision := power(2, least(greatest(zoom, 0), 24) + 2);
  -- the visible area in Web Mercator
  x0 double precision := (view_west + 180) / 360;
  x1 double precision := (view_east + 180) / 360;
  y0 double precision := (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, view_north)))) + 1 / cos(radians(least(85.0511, greatest(-85.0511, view_north))))) / pi()) / 2;
  y1 double precision := (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, view_south)))) + 1 / cos(radians(least(85.0511, greatest(-85.0511, view_south))))) / pi()) / 2;
  -- only what filters: nulls and empty texts are no filter
  f jsonb := pg_catalog.jsonb_strip_nulls(coalesce(filters, '{}'));
begin
  if pg_catalog.jsonb_typeof(f) <> 'object' then
    raise exception 'filters must be a JSON object' using errcode = '22023';
  end if;
  select coalesce(pg_catalog.jsonb_object_agg(key, value), '{}') into f from pg_catalog.jsonb_each(f) where value <> '""'::jsonb;
  -- whole cells: every cell the area touches, with all its listings (the kept cells and the
  -- counted ones agree; the map asks for whole tiles anyway)
  x0 := floor(x0 * cells) / cells;
  y0 := floor(y0 * cells) / cells;
  x1 := (floor(x1 * cells) + 1) / cells;
  y1 := (floor(y1 * cells) + 1) / cells;
  if zoom between 0 and 12 and f = '{}' then
    return query
      select c.n::bigint, c.sum_lat / c.n, c.sum_lng / c.n, c.lat_min, c.lat_max, c.lng_min, c.lng_max, c.price_min, c.price_max,
             case when c.n = 1 then c.id_min end, c.n_approximate = c.n
      from internal.listing_cells c
      where c.level = zoom + 2 and c.cx >= floor(x0 * cells) and c.cx < floor(x1 * cells) and c.cy >= floor(y0 * cells) and c.cy < floor(y1 * cells);
    return;
  end if;
  -- the cells of the matching listings: internal.listing_matches() with the filters as one
  -- parameter, which EXECUTE's one-shot plan folds in (only the filters given become conditions)
  return query execute
    'select count(*), sum(l.map_lat) / count(*), sum(l.map_lng) / count(*),
            min(l.map_lat), max(l.map_lat), min(l.map_lng), max(l.map_lng), min(l.price), max(l.price),
            case when count(*) = 1 then min(l.id) end, bool_and(l.map_approximate)
     from internal.listings l
     where internal.listing_matches(l, $6)
       and l.map_x >= $1 and l.map_x < $2 and l.map_y >= $3 and l.map_y < $4
     group by floor(l.map_x * $5), floor(l.map_y * $5)'
    using x0, x1, y0, y1, cells, f;
end
$$;

revoke execute on function public.listing_clusters from public;
grant execute on function public.listing_clusters to anon, authenticated, service_role;

-- Places: each province, city and sector with active listings.
create table internal.places (
  path text primary key,
  kind text not null check (kind in ('province', 'city', 'sector')),
  -- as most of its listings write it
  name text not null,
  -- the city and the province it is in (a city's own name for a city), for the suggestion's second line
  city text,
  province text,
  state_slug text not null,
  city_slug text,
  -- the folded name and its other names, what a suggestion is found by
  search text not null,
  listings integer not null,
  lat double precision not null,
  lng double precision not null,
  west double precision not null,
  south double precision not null,
  east double precision not null,
  north double precision not null
);
create index places_search on internal.places using gin (search extensions.gin_trgm_ops);
create index places_city on internal.places (city_slug);
create index places_province on internal.places (state_slug);

-- what people also call a place (folded): short forms, names without the article
create table internal.place_aliases (
  path text not null,
  alias text not null,
  primary key (path, alias)
);
insert into internal.place_aliases (path, alias) values
  ('guayaquil', 'gye'), ('quito', 'uio'), ('quito', 'san francisco de quito'),
  ('cumbaya', 'valle de cumbaya'), ('tumbaco', 'valle de tumbaco'), ('samborondon', 'via a samborondon'),
  ('salinas', 'chipipe'), ('montanita', 'montanita beach'), ('cuenca', 'santa ana de los cuatro rios');

-- every place of these provinces and cities counted again from the active listings (a city is one
-- place whatever its province; its province is the one most of its listings name)
create or replace function internal.places_recount(provinces text[], cities text[])
returns void
language sql
security definer
set search_path = ''
as $$
  delete from internal.places p
  where (p.kind = 'province' and p.state_slug = any(provinces)) or (p.kind <> 'province' and p.city_slug = any(cities));
  insert into internal.places (path, kind, name, city, province, state_slug, city_slug, search, listings, lat, lng, west, south, east, north)
  select g.path, g.kind, g.name, g.city, g.province, g.state_slug, g.city_slug,
         public.search_fold(g.name) || coalesce(' ' || (select pg_catalog.string_agg(a.alias, ' ') from internal.place_aliases a where a.path = g.path), ''),
         g.n, g.lat, g.lng, g.west, g.south, g.east, g.north
  from (
    select case when grouping(l.city_slug) = 1 then 'province' when grouping(l.sector_slug) = 1 then 'city' else 'sector' end as kind,
           case
             when grouping(l.city_slug) = 1 then 'provincia/' || l.state_slug
             when grouping(l.sector_slug) = 1 then l.city_slug
             else l.city_slug || '/' || l.sector_slug
           end as path,
           case
             when grouping(l.city_slug) = 1 then pg_catalog.mode() within group (order by l.state)
             when grouping(l.sector_slug) = 1 then pg_catalog.mode() within group (order by l.city)
             else pg_catalog.mode() within group (order by l.sector)
           end as name,
           case when grouping(l.city_slug) = 0 then pg_catalog.mode() within group (order by l.city) end as city,
           pg_catalog.mode() within group (order by l.state) as province,
           case when grouping(l.city_slug) = 1 then l.state_slug else pg_catalog.mode() within group (order by l.state_slug) end as state_slug,
           case when grouping(l.city_slug) = 0 then l.city_slug end as city_slug,
           case when grouping(l.sector_slug) = 0 then l.sector_slug end as sector_slug,
           count(*)::integer as n,
           avg(l.map_lat) as lat, avg(l.map_lng) as lng,
           min(l.map_lng) as west, min(l.map_lat) as south, max(l.map_lng) as east, max(l.map_lat) as north
    from internal.listings l
    where internal.is_public_listing(l.country_code, l.status)
      and (l.state_slug = any(provinces) or l.city_slug = any(cities))
    group by grouping sets ((l.state_slug), (l.city_slug), (l.city_slug, l.sector_slug))
  ) g
  where case g.kind
          when 'province' then g.state_slug <> '' and g.state_slug = any(provinces)
          when 'city' then g.city_slug <> '' and g.city_slug = any(cities)
          else g.city_slug <> '' and g.sector_slug <> '' and g.city_slug = any(cities)
        end;
$$;
revoke execute on function internal.places_recount(text[], text[]) from public;

create or replace function internal.places_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  provinces text[];
  cities text[];
begin
  -- a bulk load (the seed) counts every place once at its end, with the cells
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  if tg_op = 'INSERT' then
    select array_agg(distinct state_slug), array_agg(distinct city_slug) into provinces, cities from new_rows;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct state_slug), array_agg(distinct city_slug) into provinces, cities from old_rows;
  else
    select array_agg(distinct c.state_slug), array_agg(distinct c.city_slug) into provinces, cities
    from old_rows o
    join new_rows n using (id)
    cross join lateral (values (o.state_slug, o.city_slug), (n.state_slug, n.city_slug)) c(state_slug, city_slug)
    where (o.state, o.city, o.sector, o.status, o.country_code, o.map_lat, o.map_lng) is distinct from (n.state, n.city, n.sector, n.status, n.country_code, n.map_lat, n.map_lng);
  end if;
  if provinces is not null then perform internal.places_recount(provinces, cities); end if;
  return null;
end
$$;

create trigger places_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.places_changed();
create trigger places_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.places_changed();
create trigger places_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.places_changed();

-- the places of every listing, counted again (after a bulk load that deferred them, with the cells)
create or replace function internal.listing_cells_rebuild()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from internal.listing_cells;
  select internal.listing_cells_recount(internal.listing_cell_index(array_agg(map_x)), internal.listing_cell_index(array_agg(map_y)))
  from internal.listings where internal.is_public_listing(country_code, status)
  having count(*) > 0;
  delete from internal.places;
  select internal.places_recount(array_agg(distinct state_slug), array_agg(distinct city_slug)) from internal.listings;
$$;

-- The location box: places whose name (or other name) holds the text, begins with it, or is near
-- it (a typo: trigram similarity), the best first; then a listing by its code (the listing's
-- number), or by its street when the text names no place. From the second letter; at most
-- `max_results` (10).
create or replace function public.place_suggestions(q text, max_results integer default 8)
returns table (
  kind text,
  path text,
  name text,
  city text,
  province text,
  listings integer,
  lat double precision,
  lng double precision,
  west double precision,
  south double precision,
  east double precision,
  north double precision
)
language sql
stable
security definer
set search_path = ''
as $$
  with t as (select pg_catalog.btrim(pg_catalog.regexp_replace(public.search_fold(pg_catalog.left(coalesce(q, ''), 100)), '\s+', ' ', 'g')) as text),
  places as (
    select p.*,
           case when p.search like t.text || '%' then 0 when p.search like '% ' || t.text || '%' then 1 when p.search like internal.contains_pattern(t.text) then 2 else 3 end as rank,
           extensions.word_similarity(t.text, p.search) as near
    from internal.places p, t
    where pg_catalog.length(t.text) >= 2
      and (p.search like internal.contains_pattern(t.text) or (pg_catalog.length(t.text) >= 4 and extensions.word_similarity(t.text, p.search) >= 0.5))
    order by rank, near desc, p.listings desc, p.path
    limit least(greatest(coalesce(max_results, 8), 1), 10)
  ),
  codes as (
    select 'listing'::text as kind, l.id::text as path, l.title as name, l.city, l.state as province, 1 as listings,
           l.map_lat as lat, l.map_lng as lng, l.map_lng as west, l.map_lat as south, l.map_lng as east, l.map_lat as north
    from internal.listings l, t
    where t.text ~ '^#?[0-9]{1,15}$' and l.id = pg_catalog.ltrim(t.text, '#')::bigint and internal.is_public_listing(l.country_code, l.status)
  ),
  addresses as (
    select 'listing'::text as kind, l.id::text as path, l.address as name, l.city, l.state as province, 1 as listings,
           l.map_lat as lat, l.map_lng as lng, l.map_lng as west, l.map_lat as south, l.map_lng as east, l.map_lat as north
    from internal.listings l, t
    where pg_catalog.length(t.text) >= 4 and t.text !~ '^#?[0-9]+$'
      and internal.is_public_listing(l.country_code, l.status)
      and l.place_search like internal.contains_pattern(t.text)
      and public.search_fold(l.address) like internal.contains_pattern(t.text)
      -- a street when the text names no place: a sector's name is in each of its addresses, and
      -- reading thousands of them to show three would cost more than the whole answer may
      and not exists (select 1 from places)
    limit 3
  )
  select kind, path, name, city, province, listings, lat, lng, west, south, east, north from (
    select 0 as part, p.rank, p.near, p.listings as n, p.kind, p.path, p.name, p.city, p.province, p.listings, p.lat, p.lng, p.west, p.south, p.east, p.north from places p
    union all
    select 1, 0, 0, 0, c.* from codes c
    union all
    select 2, 0, 0, 0, a.* from addresses a
  ) s
  order by part, rank, near desc, n desc, path
  limit least(greatest(coalesce(max_results, 8), 1), 10)
$$;

revoke execute on function public.place_suggestions from public;
grant execute on function public.place_suggestions to anon, authenticated, service_role;
revoke all on internal.places, internal.place_aliases from anon, authenticated;
grant all on internal.places, internal.place_aliases to service_role;

-- the listings already here: their places
select internal.places_recount(array_agg(distinct state_slug), array_agg(distinct city_slug)) from internal.listings;
