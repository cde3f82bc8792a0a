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

-- The clusters of every active listing without filters, kept by the database for the zooms where
-- a view holds many listings (0 to 12): a view then reads a few hundred cells instead of
-- aggregating up to every listing. Level = zoom + 2 (cells of 64 px, 4 per 256 px tile);
-- cx, cy = floor(map_x * 2^level), floor(map_y * 2^level). After every statement that changes
-- listings, the cells of the changed listings are counted again: the finest level (14) from the
-- listings, every coarser one from its four children, so a change costs a few small reads and the
-- cells always equal what counting the listings gives (tests/contract/clusters.test.ts).
create table internal.listing_cells (
  level smallint not null,
  cx integer not null,
  cy integer not null,
  n integer not null,
  n_approximate integer not null,
  sum_lat double precision not null,
  sum_lng double precision not null,
  lat_min double precision not null,
  lat_max double precision not null,
  lng_min double precision not null,
  lng_max double precision not null,
  price_min numeric,
  price_max numeric,
  id_min bigint not null,
  primary key (level, cx, cy)
);
alter table internal.listing_cells enable row level security;

-- counts the cells at and above the given finest cells (level 14, by cx and cy) again
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
    on l.country_code = 'EC' and l.status = '1'
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

create or replace function internal.listing_cells_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  xs integer[];
  ys integer[];
begin
  -- a bulk load (the seed) counts every cell once at its end (internal.listing_cells_rebuild())
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  if tg_op = 'INSERT' then
    select array_agg(floor(map_x * 16384)::integer), array_agg(floor(map_y * 16384)::integer) into xs, ys from new_rows where country_code = 'EC' and status = '1';
  elsif tg_op = 'DELETE' then
    select array_agg(floor(map_x * 16384)::integer), array_agg(floor(map_y * 16384)::integer) into xs, ys from old_rows where country_code = 'EC' and status = '1';
  else
    -- a listing that moved, changed price or became (in)active: its old and its new cell
    select array_agg(floor(x * 16384)::integer), array_agg(floor(y * 16384)::integer) into xs, ys from (
      select o.map_x as x, o.map_y as y
      from old_rows o join new_rows n using (id)
      where (o.map_x, o.map_y, o.price, o.status, o.country_code, o.map_approximate) is distinct from (n.map_x, n.map_y, n.price, n.status, n.country_code, n.map_approximate)
        and o.country_code = 'EC' and o.status = '1'
      union all
      select n.map_x, n.map_y
      from old_rows o join new_rows n using (id)
      where (o.map_x, o.map_y, o.price, o.status, o.country_code, o.map_approximate) is distinct from (n.map_x, n.map_y, n.price, n.status, n.country_code, n.map_approximate)
        and n.country_code = 'EC' and n.status = '1'
    ) changed;
  end if;
  if xs is not null then perform internal.listing_cells_recount(xs, ys); end if;
  return null;
end
$$;

create trigger listing_cells_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.listing_cells_changed();
create trigger listing_cells_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.listing_cells_changed();
create trigger listing_cells_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.listing_cells_changed();

-- every cell counted again from the listings: after a bulk load that deferred them
create or replace function internal.listing_cells_rebuild()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  xs integer[];
  ys integer[];
begin
  delete from internal.listing_cells;
  select array_agg(floor(map_x * 16384)::integer), array_agg(floor(map_y * 16384)::integer) into xs, ys
  from internal.listings where country_code = 'EC' and status = '1';
  if xs is not null then perform internal.listing_cells_recount(xs, ys); end if;
end
$$;

revoke execute on function internal.listing_cells_rebuild() from public;

-- the listings already there
select internal.listing_cells_rebuild();

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
  conditions text := '';
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
  -- only the filters given become conditions, so each call is planned for what it asks (a
  -- condition "x is null or ..." per filter would be read for every listing)
  if property_type is not null then conditions := conditions || ' and l.property_type ilike $6'; end if;
  if price_min is not null then conditions := conditions || ' and l.price >= $7'; end if;
  if price_max is not null then conditions := conditions || ' and l.price <= $8'; end if;
  if beds_min is not null then conditions := conditions || ' and l.bedrooms >= $9'; end if;
  if baths_min is not null then conditions := conditions || ' and l.bathrooms >= $10'; end if;
  if area_min is not null then conditions := conditions || ' and l.square_feet >= $11'; end if;
  if area_max is not null then conditions := conditions || ' and l.square_feet <= $12'; end if;
  if city is not null then conditions := conditions || ' and l.city_search like $13'; end if;
  if agent is not null then conditions := conditions || ' and l.agent_id = $14'; end if;
  if area_south is not null then conditions := conditions || ' and l.lat >= $15'; end if;
  if area_north is not null then conditions := conditions || ' and l.lat <= $16'; end if;
  if area_west is not null then conditions := conditions || ' and l.lng >= $17'; end if;
  if area_east is not null then conditions := conditions || ' and l.lng <= $18'; end if;
  return query execute
    'select count(*), sum(l.map_lat) / count(*), sum(l.map_lng) / count(*),
            min(l.map_lat), max(l.map_lat), min(l.map_lng), max(l.map_lng), min(l.price), max(l.price),
            case when count(*) = 1 then min(l.id) end, bool_and(l.map_approximate)
     from public.listings l
     where l.country_code = ''EC'' and l.status = ''1''
       and l.map_x >= $1 and l.map_x < $2 and l.map_y >= $3 and l.map_y < $4' || conditions || '
     group by floor(l.map_x * $5), floor(l.map_y * $5)'
    using x0, x1, y0, y1, cells,
      -- part of the text, literally: %, _ and \ are plain characters; the city accent- and case-blind
      '%' || replace(replace(replace(property_type, '\', '\\'), '%', '\%'), '_', '\_') || '%',
      price_min, price_max, beds_min, baths_min, area_min, area_max,
      '%' || replace(replace(replace(public.search_fold(city), '\', '\\'), '%', '\%'), '_', '\_') || '%',
      agent, area_south, area_north, area_west, area_east;
end
$$;

revoke execute on function public.listing_clusters from public;
grant execute on function public.listing_clusters to anon, authenticated, service_role;

comment on function public.listing_clusters is 'The map''s clusters: for a zoom and a visible area, 64 px grid cells of the matching active listings with their count, mean position, bounds and price range; a cell''s only listing by id.';
