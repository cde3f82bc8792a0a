-- One definition of what a search matches (docs/decisions.md #25), which every reader uses:
-- - an active Ecuador listing is internal.is_public_listing(): the public view of the listings
--   (what the REST reads: the search's list and count, the listing and agent pages, the sitemaps),
--   the cities and property types, the map's kept cells and the alerts all say it through it;
-- - a listing matching a search's filters is internal.listing_matches(listing, filters): the
--   alerts read it, and now the map's clusters too (they wrote the same conditions again). The
--   browser's REST filters (widgets/lib/data/listings.ts) are held to it by one table of cases
--   (tests/contract/rest.test.ts).
-- Both are SQL functions without SET clauses, so PostgreSQL inlines them: a call with known filters
-- plans as the conditions written out, and the partial indexes (country_code = 'EC' and status = '1')
-- still apply.

create or replace function internal.is_public_listing(country_code text, status text)
returns boolean
language sql
immutable
parallel safe
as $$
  select country_code = 'EC' and status = '1'
$$;

comment on function internal.is_public_listing is 'An active listing of the Ecuador site: the one definition every public read uses.';

-- part of a text, taken literally in a LIKE: %, _ and \ are plain characters
create or replace function internal.contains_pattern(value text)
returns text
language sql
immutable
parallel safe
as $$
  select '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(value, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

create or replace view public.listings as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y
from internal.listings
where internal.is_public_listing(country_code, status);

create or replace view public.listing_cities as
select city, count(*)::integer as listings
from internal.listings
where internal.is_public_listing(country_code, status) and city is not null and btrim(city) <> ''
group by city;

create or replace view public.listing_property_types as
with recursive types(property_type) as (
  select min(property_type) from internal.listings
  where internal.is_public_listing(country_code, status) and property_type is not null
  union all
  select (select min(l.property_type) from internal.listings l
          where internal.is_public_listing(l.country_code, l.status) and l.property_type > t.property_type)
  from types t
  where t.property_type is not null
)
select property_type from types where property_type is not null and btrim(property_type) <> '';

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
    and (f->>'city' is null or l.city_search like internal.contains_pattern(public.search_fold(f->>'city')))
    and (f->>'agent' is null or l.agent_id = (f->>'agent')::bigint)
    and (f->>'area_south' is null or l.lat >= (f->>'area_south')::double precision)
    and (f->>'area_north' is null or l.lat <= (f->>'area_north')::double precision)
    and (f->>'area_west' is null or l.lng >= (f->>'area_west')::double precision)
    and (f->>'area_east' is null or l.lng <= (f->>'area_east')::double precision)
$$;

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
begin
  -- whole cells: every cell the area touches, with all its listings (the kept cells and the
  -- counted ones agree; the map asks for whole tiles anyway)
  x0 := floor(x0 * cells) / cells;
  y0 := floor(y0 * cells) / cells;
  x1 := (floor(x1 * cells) + 1) / cells;
  y1 := (floor(y1 * cells) + 1) / cells;
  if zoom between 0 and 12 and num_nonnulls(property_type, price_min, price_max, beds_min, baths_min, area_min, area_max, city, agent, area_west, area_south, area_east, area_north) = 0 then
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
    using x0, x1, y0, y1, cells,
      jsonb_strip_nulls(jsonb_build_object(
        'property_type', property_type, 'price_min', price_min, 'price_max', price_max, 'beds_min', beds_min,
        'baths_min', baths_min, 'area_min', area_min, 'area_max', area_max, 'city', city, 'agent', agent,
        'area_west', area_west, 'area_south', area_south, 'area_east', area_east, 'area_north', area_north));
end
$$;

-- the map's kept cells count the same listings
create or replace function internal.listing_cells_recount(xs integer[], ys integer[])
returns void
language plpgsql
-- whoever changes listings (the seed, an import as service_role) keeps the cells
security definer
set search_path = ''
as $$
declare
  lvl integer;
begin
  select array_agg(x), array_agg(y) into xs, ys from (select distinct x, y from unnest(xs, ys) u(x, y)) d;
  if xs is null then return; end if;
  delete from internal.listing_cells c using unnest(xs, ys) a(cx, cy) where c.level = 14 and c.cx = a.cx and c.cy = a.cy;
  insert into internal.listing_cells
  select 14, a.cx, a.cy, count(*), count(*) filter (where l.map_approximate), sum(l.map_lat), sum(l.map_lng),
         min(l.map_lat), max(l.map_lat), min(l.map_lng), max(l.map_lng), min(l.price), max(l.price), min(l.id)
  from unnest(xs, ys) a(cx, cy)
  join internal.listings l
    on internal.is_public_listing(l.country_code, l.status)
   and l.map_x >= a.cx / 16384.0::double precision and l.map_x < (a.cx + 1) / 16384.0::double precision
   and l.map_y >= a.cy / 16384.0::double precision and l.map_y < (a.cy + 1) / 16384.0::double precision
  group by a.cx, a.cy;
  for lvl in reverse 13 .. 2 loop
    select array_agg(x), array_agg(y) into xs, ys from (select distinct x >> 1 as x, y >> 1 as y from unnest(xs, ys) u(x, y)) d;
    delete from internal.listing_cells c using unnest(xs, ys) a(cx, cy) where c.level = lvl and c.cx = a.cx and c.cy = a.cy;
    insert into internal.listing_cells
    select lvl, a.cx, a.cy, sum(c.n), sum(c.n_approximate), sum(c.sum_lat), sum(c.sum_lng),
           min(c.lat_min), max(c.lat_max), min(c.lng_min), max(c.lng_max), min(c.price_min), max(c.price_max), min(c.id_min)
    from unnest(xs, ys) a(cx, cy)
    join internal.listing_cells c on c.level = lvl + 1 and c.cx in (a.cx * 2, a.cx * 2 + 1) and c.cy in (a.cy * 2, a.cy * 2 + 1)
    group by a.cx, a.cy;
  end loop;
end
$$;

-- the finest cells' column (or row) of positions on the map's unit square: 2^14 cells a side
create or replace function internal.listing_cell_index(v double precision[])
returns integer[]
language sql
immutable
set search_path = ''
as $$
  select array_agg(floor(u.x * 16384)::integer order by u.n) from unnest(v) with ordinality u(x, n)
$$;

create or replace function internal.listing_cells_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  xs double precision[];
  ys double precision[];
begin
  -- a bulk load (the seed) counts every cell once at its end (internal.listing_cells_rebuild())
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  if tg_op = 'INSERT' then
    select array_agg(map_x), array_agg(map_y) into xs, ys from new_rows where internal.is_public_listing(country_code, status);
  elsif tg_op = 'DELETE' then
    select array_agg(map_x), array_agg(map_y) into xs, ys from old_rows where internal.is_public_listing(country_code, status);
  else
    -- a listing that moved, changed price or became (in)active: its old cell and its new one, each if public
    select array_agg(c.x), array_agg(c.y) into xs, ys
    from old_rows o
    join new_rows n using (id)
    cross join lateral (values (o.map_x, o.map_y, o.country_code, o.status), (n.map_x, n.map_y, n.country_code, n.status)) c(x, y, country_code, status)
    where (o.map_x, o.map_y, o.price, o.status, o.country_code, o.map_approximate) is distinct from (n.map_x, n.map_y, n.price, n.status, n.country_code, n.map_approximate)
      and internal.is_public_listing(c.country_code, c.status);
  end if;
  if xs is not null then perform internal.listing_cells_recount(internal.listing_cell_index(xs), internal.listing_cell_index(ys)); end if;
  return null;
end
$$;

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
$$;

