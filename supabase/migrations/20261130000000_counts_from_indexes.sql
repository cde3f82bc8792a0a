-- Counts and map clusters with an area, a place or words, read from indexes rather than rows
-- (docs/decisions.md #27, "Speed of words").
--
-- A listing's row is wide (its description and photos; about nine rows to a page), and PostgreSQL
-- prices `point <@ polygon` at 0.1% of the rows whatever the polygon. So:
-- - The map's clusters in a drawn area visited each listing in it (65 ms for north Quito at
--   100,000 listings): the area's GiST index now carries what the clusters read, an index-only scan.
-- - "Houses in Quito" tested the type of every listing in the country on the map's index (76 ms):
--   the place indexes now carry the type and the id, so a place with a type is counted from them.
-- - Clusters with words read the area's or the view's rows first and tested the words of each (a
--   toasted tsvector, some 5 us apiece; 110-190 ms for "piscina" in north Quito). Now the words'
--   matches are found first, through their index, as a list of ids, and the other filters test
--   `l.id + 0 = any(ids)`: a hashed look-up, estimated from the list's length. The `+ 0` keeps it a
--   test on the rows the other filters find, not 20,000 look-ups in the key's index.
--   internal.listing_matches() stays the rule: the ids are exactly the public listings whose words
--   match, so `listing_matches(l, f - 'words') and l.id + 0 = any(ids)` is `listing_matches(l, f)`.

-- the ids of the public listings whose words match the filters' words; null when they ask for no
-- words (none given, or only stop words and signs, which listing_matches() reads as no filter)
create or replace function internal.word_match_ids(f jsonb)
returns bigint[]
language plpgsql
stable
set search_path = ''
as $$
declare
  ids bigint[];
begin
  if f->>'words' is null or pg_catalog.numnode(public.words_query(f->>'words')) = 0 then
    return null;
  end if;
  perform internal.prefer_word_index(f, true);
  ids := array(select l.id from internal.listings l where internal.is_public_listing(l.country_code, l.status) and l.words @@ public.words_query(f->>'words'));
  perform internal.prefer_word_index(f, false);
  return ids;
end
$$;

-- the area's index carries the clusters' columns, and the place indexes the type
drop index internal.listings_location;
-- (and what the similar listings compare: public.similar_listings walks it nearest first)
create index listings_location on internal.listings using gist (location)
  include (map_x, map_y, map_lat, map_lng, map_approximate, price, id, property_type, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1';
drop index internal.listings_place;
create index listings_place on internal.listings (city_slug, sector_slug) include (property_type, id) where country_code = 'EC' and status = '1';
drop index internal.listings_province;
create index listings_province on internal.listings (state_slug) include (property_type, id) where country_code = 'EC' and status = '1';

-- The exact number of matching listings.
create or replace function public.search_listings_count(filters jsonb default '{}')
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  f jsonb := internal.search_filters(filters);
  n bigint;
begin
  if f - 'words' = '{}'::jsonb then
    -- words alone (or nothing): counted through the words' index
    perform internal.prefer_word_index(f, true);
    select count(*) into n from internal.listings l where internal.listing_matches(l, f);
    perform internal.prefer_word_index(f, false);
    return n;
  end if;
  -- a null array folds away in EXECUTE's one-shot plan, and an array becomes a hashed condition
  execute 'select count(*) from internal.listings l where internal.listing_matches(l, $1) and ($2::bigint[] is null or l.id + 0 = any($2))'
    into n using f - 'words', internal.word_match_ids(f);
  return n;
end
$$;

-- The map's clusters: the view and the zoom, and the search's filters as one object (FilterArgs).
create or replace function public.listing_clusters(
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
  -- the cells of the matching listings: internal.listing_matches() with the filters as one
  -- parameter, which EXECUTE's one-shot plan folds in (only the filters given become conditions),
  -- and the words as the ids of their matches (internal.word_match_ids())
  return query execute
    'select count(*), sum(l.map_lat) / count(*), sum(l.map_lng) / count(*),
            min(l.map_lat), max(l.map_lat), min(l.map_lng), max(l.map_lng), min(l.price), max(l.price),
            case when count(*) = 1 then min(l.id) end, bool_and(l.map_approximate)
     from internal.listings l
     where internal.listing_matches(l, $6) and ($7::bigint[] is null or l.id + 0 = any($7))
       and l.map_x >= $1 and l.map_x < $2 and l.map_y >= $3 and l.map_y < $4
     group by floor(l.map_x * $5), floor(l.map_y * $5)'
    using x0, x1, y0, y1, cells, f - 'words', internal.word_match_ids(f);
end
$$;

revoke execute on function public.search_listings_count, public.listing_clusters from public;
grant execute on function public.search_listings_count, public.listing_clusters to anon, authenticated, service_role;
revoke execute on function internal.word_match_ids from public;
