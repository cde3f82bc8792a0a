-- Search the way visitors think (docs/decisions.md #27), part two: words and a drawn area, and one
-- call for the list and the count.
-- - Words: every listing's title, features and description as a tsvector in Spanish and in English
--   (folded first, so accents never matter), searched with websearch_to_tsquery's syntax in both
--   languages at once: "quotes" for a phrase, -word to exclude, or. public.words_query() is the one
--   reading of a visitor's words.
-- - A drawn area: a polygon of [lng, lat] points; a listing matches when its position (a point
--   column with a GiST index: PostgreSQL's own geometry, no extension) lies in it.
-- - The list and the count: public.search_listings() and public.search_listings_count(), the page and
--   the exact count of internal.listing_matches(), so the list, the count, the clusters and the alert
--   job read one rule. Both take the filters as one JSON object (core/protocol/filters.ts FilterArgs).

-- what a feature is called, in both languages (core/protocol/filters.ts FEATURE_FLAGS)
create or replace function internal.feature_words(features text[])
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.string_agg(case f
    when 'pool' then 'piscina pool'
    when 'view' then 'vista view'
    when 'waterfront' then 'frente al mar playa waterfront beach'
    when 'garage' then 'garaje parqueadero garage parking'
    when 'new_construction' then 'nueva construcción estrenar new construction'
    when 'air_conditioning' then 'aire acondicionado air conditioning'
  end, ' '), '')
  from pg_catalog.unnest(features) f
$$;

-- a text's words, folded, by the Spanish and the English stemmer side by side (a concatenation
-- keeps each part's positions, so phrases hold)
create or replace function internal.text_words(value text)
returns tsvector
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.to_tsvector('pg_catalog.spanish'::regconfig, public.search_fold(coalesce(value, '')))
      || pg_catalog.to_tsvector('pg_catalog.english'::regconfig, public.search_fold(coalesce(value, '')))
$$;

-- a listing's words: the title and its features weigh more (A) than the description (B)
create or replace function internal.listing_words(title text, description text, features text[])
returns tsvector
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.setweight(internal.text_words(coalesce(title, '') || ' ' || internal.feature_words(features)), 'A')
      || pg_catalog.setweight(internal.text_words(description), 'B')
$$;

-- a visitor's words as a query: websearch syntax, folded, in Spanish or in English (either reading
-- matches; an excluded word is excluded in both, since a listing holds both stems of each word)
create or replace function public.words_query(words text)
returns tsquery
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.websearch_to_tsquery('pg_catalog.spanish'::regconfig, public.search_fold(pg_catalog.left(words, 200)))
      || pg_catalog.websearch_to_tsquery('pg_catalog.english'::regconfig, public.search_fold(pg_catalog.left(words, 200)))
$$;

-- a drawn area from its JSON: [[lng, lat], ...], 3 to 200 points within the world's degrees
create or replace function internal.area_polygon(points jsonb)
returns polygon
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
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

alter table internal.listings
  add column words tsvector generated always as (internal.listing_words(title, description, features)) stored,
  -- the title and the features alone: what "Best match" ranks by (a few hundred bytes, read for
  -- every match of a common word; ranking the whole text cost twice as much at 100,000 listings)
  add column title_words tsvector generated always as (internal.text_words(coalesce(title, '') || ' ' || internal.feature_words(features))) stored,
  -- x = longitude, y = latitude (a generated column cannot read lat and lng, which are generated too)
  add column location point generated always as (point(public.parse_coordinate(geo_lon, 180), public.parse_coordinate(geo_lat, 90))) stored;

create index listings_words on internal.listings using gin (words) where country_code = 'EC' and status = '1';
create index listings_location on internal.listings using gist (location) where country_code = 'EC' and status = '1';

-- the texts of a JSON array (a function of its own: a sub-select in listing_matches() itself would
-- keep PostgreSQL from inlining it, and every caller from planning its conditions on indexes)
create or replace function internal.jsonb_texts(value jsonb)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array(select pg_catalog.jsonb_array_elements_text(value))
$$;

-- inlined by the planner (one SELECT of expressions, no sub-select, no SET): only the filters given
-- become conditions, each on its index
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
    and (f->'features' is null or l.features @> internal.jsonb_texts(f->'features'))
    and (f->>'year_min' is null or l.year_built >= (f->>'year_min')::integer)
    and (f->>'year_max' is null or l.year_built <= (f->>'year_max')::integer)
    and (f->>'lot_min' is null or l.lot_size >= (f->>'lot_min')::numeric)
    and (f->>'lot_max' is null or l.lot_size <= (f->>'lot_max')::numeric)
    and (f->>'agent' is null or l.agent_id = (f->>'agent')::bigint)
    and (f->>'area_south' is null or l.lat >= (f->>'area_south')::double precision)
    and (f->>'area_north' is null or l.lat <= (f->>'area_north')::double precision)
    and (f->>'area_west' is null or l.lng >= (f->>'area_west')::double precision)
    and (f->>'area_east' is null or l.lng <= (f->>'area_east')::double precision)
    -- words that are only stop words or signs ask for nothing
    and (f->>'words' is null or pg_catalog.numnode(public.words_query(f->>'words')) = 0 or l.words @@ public.words_query(f->>'words'))
    and (f->'polygon' is null or l.location <@ internal.area_polygon(f->'polygon'))
$$;

-- the filters as the calls take them: a JSON object; nulls and empty texts are no filter (as
-- public.listing_clusters reads them)
create or replace function internal.search_filters(filters jsonb)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  f jsonb := pg_catalog.jsonb_strip_nulls(coalesce(filters, '{}'));
begin
  if pg_catalog.jsonb_typeof(f) <> 'object' then
    raise exception 'filters must be a JSON object' using errcode = '22023';
  end if;
  select coalesce(pg_catalog.jsonb_object_agg(key, value), '{}') into f from pg_catalog.jsonb_each(f) where value <> '""'::jsonb;
  return f;
end
$$;

-- With words, the planner is told to read the words' GIN index: it prices a tsvector match like a
-- comparison, though each row's tsvector must be decompressed, and for a common word ("casa",
-- a quarter of the listings) it chose to test every active listing instead (280 ms against 38 ms
-- at 100,000 listings). Only for this call: what the settings were comes back after it.
create or replace function internal.prefer_word_index(f jsonb, active boolean)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if active and f ? 'words' then
    perform pg_catalog.set_config('exp.indexscan', pg_catalog.current_setting('enable_indexscan'), true),
            pg_catalog.set_config('exp.seqscan', pg_catalog.current_setting('enable_seqscan'), true),
            pg_catalog.set_config('enable_indexscan', 'off', true),
            pg_catalog.set_config('enable_seqscan', 'off', true);
  elsif not active and f ? 'words' then
    perform pg_catalog.set_config('enable_indexscan', pg_catalog.current_setting('exp.indexscan'), true),
            pg_catalog.set_config('enable_seqscan', pg_catalog.current_setting('exp.seqscan'), true);
  end if;
end
$$;

-- One page of the matching listings, every column of public.listings, in one of the search's orders
-- ('relevance' is the best match for the words, else the newest first).
create or replace function public.search_listings(
  filters jsonb default '{}',
  sort text default 'featured',
  page_size integer default 24,
  page_offset integer default 0
)
returns setof public.listings
language plpgsql
stable
-- it reads internal.listings for the public key; only the public listings (listing_matches checks
-- is_public_listing) and only the view's columns
security definer
set search_path = ''
as $$
declare
  f jsonb := internal.search_filters(filters);
  ordering text;
  columns text;
begin
  if page_size is null or page_size not between 1 and 1000 or page_offset is null or page_offset < 0 then
    raise exception 'page_size must be 1 to 1000 and page_offset 0 or more' using errcode = '22023';
  end if;
  ordering := case coalesce(sort, 'featured')
    when 'price_asc' then 'l.price asc nulls last, l.id asc'
    when 'price_desc' then 'l.price desc nulls last, l.id desc'
    when 'relevance' then case when f ? 'words' and pg_catalog.numnode(public.words_query(f->>'words')) > 0
      then 'pg_catalog.ts_rank(l.title_words, public.words_query($1->>''words'')) desc, l.created_at desc, l.id desc'
      else 'l.created_at desc, l.id desc' end
    when 'featured' then 'l.created_at desc, l.id desc'
    when 'newest' then 'l.created_at desc, l.id desc'
  end;
  if ordering is null then
    raise exception 'sort must be featured, newest, price_asc, price_desc or relevance' using errcode = '22023';
  end if;
  -- the view's columns, read from the catalogue: the view stays the one list of what is public
  select pg_catalog.string_agg('l.' || pg_catalog.quote_ident(a.attname), ', ' order by a.attnum) into columns
  from pg_catalog.pg_attribute a
  where a.attrelid = 'public.listings'::regclass and a.attnum > 0 and not a.attisdropped;
  perform internal.prefer_word_index(f, true);
  return query execute
    'select ' || columns || ' from internal.listings l where internal.listing_matches(l, $1) order by ' || ordering || ' limit $2 offset $3'
    using f, page_size, page_offset;
  perform internal.prefer_word_index(f, false);
end
$$;

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
  perform internal.prefer_word_index(f, true);
  execute 'select count(*) from internal.listings l where internal.listing_matches(l, $1)' into n using f;
  perform internal.prefer_word_index(f, false);
  return n;
end
$$;

revoke execute on function public.search_listings, public.search_listings_count, public.words_query from public;
grant execute on function public.search_listings, public.search_listings_count, public.words_query to anon, authenticated, service_role;
