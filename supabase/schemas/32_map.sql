-- The clusters of every active listing without filters (for sale: what no filter means), kept by the database for the zooms where
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

-- counted again as the listings change (33_listing_copies.sql)
-- the map's kept cells count the same listings
create or replace function internal.listing_cells_recount(xs integer[], ys integer[])
returns void language plpgsql
-- whoever changes listings (the seed, an import as service_role) keeps the cells
security definer set search_path = '' as $$
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
    on l.is_public and l.operation = 'sale'
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

-- the places of every listing, counted again (after a bulk load that deferred them, with the cells)
create or replace function internal.listing_cells_rebuild()
returns void language sql security definer set search_path = '' as $$
  delete from internal.listing_cells;
  select internal.listing_cells_recount(internal.listing_cell_index(array_agg(map_x)), internal.listing_cell_index(array_agg(map_y)))
  from internal.listings where is_public and operation = 'sale'
  having count(*) > 0;
  delete from internal.places;
  select internal.places_recount(array_agg(distinct state_slug), array_agg(distinct city_slug)) from internal.listings;
$$;

-- The map's clusters: the view and the zoom, and the search's filters as one object (FilterArgs).
create or replace function public.listing_clusters(zoom integer, view_west double precision default -180, view_south double precision default -85.0511,
  view_east double precision default 180, view_north double precision default 85.0511, filters jsonb default '{}')
returns table (count bigint, lat double precision, lng double precision, lat_min double precision, lat_max double precision, lng_min double precision,
  lng_max double precision, price_from numeric, price_to numeric, id bigint, approximate boolean)
language plpgsql stable
-- it reads the kept cells (internal.listing_cells) for the public key; it reads nothing else that
-- key could not read itself (public.listings)
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  -- cells of 64 px: 4 per 256 px tile, 2^zoom tiles across the world
  cells double precision := power(2, least(greatest(zoom, 0), 24) + 2);
  -- the visible area in Web Mercator
  x0 double precision := (view_west + 180) / 360;
  x1 double precision := (view_east + 180) / 360;
  y0 double precision := (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, view_north)))) + 1 / cos(radians(least(85.0511, greatest(-85.0511, view_north))))) / pi()) / 2;
  y1 double precision := (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, view_south)))) + 1 / cos(radians(least(85.0511, greatest(-85.0511, view_south))))) / pi()) / 2;
  f jsonb := internal.search_filters(filters);
begin
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
  -- the cells of the matching listings: internal.listing_conditions() with the filters as one
  -- parameter, which EXECUTE's one-shot plan folds in (only the filters given become conditions),
  -- and the words as the ids of their matches (internal.word_match_ids())
  return query execute
    'select count(*), sum(l.map_lat) / count(*), sum(l.map_lng) / count(*),
            min(l.map_lat), max(l.map_lat), min(l.map_lng), max(l.map_lng), min(l.price), max(l.price),
            case when count(*) = 1 then min(l.id) end, bool_and(l.map_approximate)
     from internal.listings l, ' || internal.filters_as_f('$6') || '
     where ' || internal.listing_conditions() || ' and ($7::bigint[] is null or l.id + 0 = any($7))
       and l.map_x >= $1 and l.map_x < $2 and l.map_y >= $3 and l.map_y < $4
     group by floor(l.map_x * $5), floor(l.map_y * $5)'
    using x0, x1, y0, y1, cells, f - 'words', internal.word_match_ids(f);
end
$$;
