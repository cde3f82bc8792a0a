-- A large import merged at the speed of a bulk load (docs/decisions.md #29, "Speed").
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
-- - A merge of many listings (more than 10,000) defers, as the seed's load does, the per-statement
--   upkeep of the map's cells, the places' counts and the words' copy, and rebuilds each once at
--   its end: one pass instead of one per row's share of three triggers.

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

-- the words' copy (internal.listing_words) waits, like the cells and the places, for a bulk load's end
create or replace function internal.listing_words_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  -- each statement names only the transition tables its event has
  if tg_op = 'DELETE' then
    delete from internal.listing_words w using old_rows o where w.id = o.id;
  elsif tg_op = 'UPDATE' then
    delete from internal.listing_words w
     using old_rows o
     where w.id = o.id
       and not exists (select 1 from new_rows n where n.id = o.id and internal.is_public_listing(n.country_code, n.status) and n.words is not null);
    insert into internal.listing_words (id, words)
    select n.id, n.words
      from new_rows n
     where internal.is_public_listing(n.country_code, n.status) and n.words is not null
       and not exists (select 1 from old_rows o where o.id = n.id and o.words = n.words and internal.is_public_listing(o.country_code, o.status))
    on conflict (id) do update set words = excluded.words;
  else
    insert into internal.listing_words (id, words)
    select n.id, n.words from new_rows n where internal.is_public_listing(n.country_code, n.status) and n.words is not null
    on conflict (id) do update set words = excluded.words;
  end if;
  return null;
end
$$;

-- every copy of what the listings say, made again from them: after a bulk load that deferred them
create or replace function internal.listings_derived_rebuild()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.listing_cells_rebuild();
  delete from internal.listing_words;
  insert into internal.listing_words (id, words)
  select l.id, l.words from internal.listings l where internal.is_public_listing(l.country_code, l.status) and l.words is not null;
end
$$;
revoke execute on function internal.listings_derived_rebuild from public;

-- The merge (20261204000000_imports.sql), a bulk load when it is large.
create or replace function internal.import_merge_bulk(run bigint, source_name text, absent_withdraws boolean, max_share numeric, allow_withdrawals boolean)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  bulk boolean := (select count(*) > 10000 from internal.import_staging where run_id = run);
  result jsonb;
begin
  if bulk then perform pg_catalog.set_config('exp.listing_cells', 'deferred', true); end if;
  result := internal.import_merge(run, source_name, absent_withdraws, max_share, allow_withdrawals);
  if bulk then
    perform pg_catalog.set_config('exp.listing_cells', '', true);
    perform internal.listings_derived_rebuild();
  end if;
  return result;
end
$$;
revoke execute on function internal.import_merge_bulk from public;
