-- Inserting a listing at the speed of a bulk load (docs/decisions.md #29, "Speed").
--
-- - A listing's words (two tsvectors, in Spanish and English, of its title and its description)
--   were most of what inserting it cost: the word functions carried `set search_path`, which keeps
--   PostgreSQL from inlining a SQL function, so each was run through the function executor, row by
--   row. Without it (every name in them is qualified, their operators too, so no search path can
--   lead them elsewhere) they are inlined into the generated columns' expressions: the same values,
--   about half the time.
-- - The same for what places a listing on the map and names its place (map_position, called for
--   five generated columns; parse_coordinate, slugify, city_centroid): qualified names, `set
--   search_path` reset, and map_position without its sub-select, so each is inlined.

create or replace function internal.text_words(value text)
returns tsvector
language sql
immutable
parallel safe
as $$
  select pg_catalog.to_tsvector('pg_catalog.spanish'::regconfig, public.search_fold(coalesce(value, '')))
      operator(pg_catalog.||) pg_catalog.to_tsvector('pg_catalog.english'::regconfig, public.search_fold(coalesce(value, '')))
$$;

create or replace function internal.listing_words(title text, description text, features text[])
returns tsvector
language sql
immutable
parallel safe
as $$
  select pg_catalog.setweight(internal.text_words(coalesce(title, '') operator(pg_catalog.||) ' ' operator(pg_catalog.||) internal.feature_words(features)), 'A')
      operator(pg_catalog.||) pg_catalog.setweight(internal.text_words(description), 'B')
$$;

alter function public.parse_coordinate(text, double precision) reset search_path;
alter function public.slugify(text) reset search_path;
alter function public.city_centroid(text) reset search_path;

create or replace function public.map_position(id bigint, city text, state text, geo_lat text, geo_lon text)
returns double precision[]
language sql
immutable
parallel safe
as $$
  select case
    when public.parse_coordinate(geo_lat, 90) is not null and public.parse_coordinate(geo_lon, 180) is not null
      then array[public.parse_coordinate(geo_lat, 90), public.parse_coordinate(geo_lon, 180), 0]
    else array[
      (coalesce(public.city_centroid(city), public.city_centroid(state), array[-0.1807, -78.4678]::double precision[]))[1] operator(pg_catalog.+) (public.position_jitter(id::text))[1],
      (coalesce(public.city_centroid(city), public.city_centroid(state), array[-0.1807, -78.4678]::double precision[]))[2] operator(pg_catalog.+) (public.position_jitter(id::text))[2],
      1]
  end
$$;
