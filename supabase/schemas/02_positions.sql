-- The map at any size (docs/decisions.md #20): every matching listing on the map as grid cells
-- counted by the database, so the browser downloads what it draws instead of every listing.
--
-- - Every listing has a map position, kept by the database: its coordinates, or (without usable
--   ones) near its city, its province or Quito with a small fixed offset per id. The same rule as
--   the browser's (core/protocol/places.ts and listing.ts); the two are held
--   to one table of cases by tests/contract/rules.test.ts.
-- - public.listing_clusters(): for a zoom and a visible area, the cells of 64 px of a 256 px tile
--   grid (Web Mercator) with their count, the members' mean position, their bounds and their price
--   range, and the id and price of a cell's only listing. Called through PostgREST's /rpc/ with
--   postgrest-js .rpc(), here and on a hosted project alike.

create or replace function public.city_centroid(place text)
returns double precision[] language sql immutable parallel safe set search_path = '' as $$
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
returns double precision[] language plpgsql immutable parallel safe set search_path = '' as $$
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

create or replace function public.map_position(id bigint, city text, state text, geo_lat text, geo_lon text)
returns double precision[] language sql immutable parallel safe set search_path = '' as $$
  select case
    when public.parse_coordinate(geo_lat, 90) is not null and public.parse_coordinate(geo_lon, 180) is not null
      then array[public.parse_coordinate(geo_lat, 90), public.parse_coordinate(geo_lon, 180), 0]
    else array[
      (coalesce(public.city_centroid(city), public.city_centroid(state), array[-0.1807, -78.4678]::double precision[]))[1] operator(pg_catalog.+) (public.position_jitter(id::text))[1],
      (coalesce(public.city_centroid(city), public.city_centroid(state), array[-0.1807, -78.4678]::double precision[]))[2] operator(pg_catalog.+) (public.position_jitter(id::text))[2],
      1]
  end
$$;

-- the finest cells' column (or row) of positions on the map's unit square: 2^14 cells a side
create or replace function internal.listing_cell_index(v double precision[])
returns integer[] language sql immutable set search_path = '' as $$
  select array_agg(floor(u.x * 16384)::integer order by u.n) from unnest(v) with ordinality u(x, n)
$$;

-- a drawn area from its JSON: [[lng, lat], ...], 3 to 200 points within the world's degrees
create or replace function internal.area_polygon(points jsonb)
returns polygon language plpgsql immutable parallel safe set search_path = '' as $$
declare
  n integer;
  shape text;
begin
  if pg_catalog.jsonb_typeof(points) <> 'array' or pg_catalog.jsonb_array_length(points) not between 3 and 200 then
    raise exception 'polygon must be an array of 3 to 200 [lng, lat] points' using errcode = '22023';
  end if;
  select count(*), '(' || pg_catalog.string_agg('(' || (p->>0)::double precision || ',' || (p->>1)::double precision || ')', ',' order by i) || ')'
    into n, shape
  from pg_catalog.jsonb_array_elements(points) with ordinality e(p, i)
  where pg_catalog.jsonb_typeof(p) = 'array' and pg_catalog.jsonb_array_length(p) = 2
    and pg_catalog.jsonb_typeof(p->0) = 'number' and pg_catalog.jsonb_typeof(p->1) = 'number'
    and abs((p->>0)::double precision) <= 180 and abs((p->>1)::double precision) <= 90;
  if n <> pg_catalog.jsonb_array_length(points) then
    raise exception 'polygon must be an array of 3 to 200 [lng, lat] points' using errcode = '22023';
  end if;
  return shape::polygon;
end
$$;
