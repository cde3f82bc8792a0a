-- The baseline: the schema as supabase/schemas/ declares it, file by file, made on 2026-11-26 when the
-- migrations were squashed a second time (the first 24 into a baseline earlier that day, then 12 more
-- and it; no database had been deployed from any of them). From here on a change edits its schema
-- file and adds a migration that makes the same change; tests/contract/schema-files.test.ts holds the
-- database the migrations build equal to the one the schema files build.

-- ─── supabase/schemas/00_setup.sql ───

-- The database as a Supabase project has it, for a plain PostgreSQL too (our server, the tests):
-- the extensions' schema, the roles PostgREST switches to, their time limits and plans, and the
-- `internal` schema, which the data API does not expose.
--
-- supabase/schemas/ is the schema as it stands (docs/architecture.md "Database"): one file per
-- concern, one definition per object, applied in the files' order. A change edits the file and adds
-- a migration that makes it; tests/contract/schema-files.test.ts holds the two equal.

-- Extensions live in their own schema, as on Supabase.
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;
-- an agent's visits may not overlap: an exclusion constraint on (agent, time range) needs it
create extension if not exists btree_gist with schema extensions;

-- The roles PostgREST switches to. They exist on Supabase; a bare PostgreSQL needs them.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

-- A time limit on every statement of the public key, as a hosted project sets it (anon 3 s,
-- authenticated 8 s). Our server applies the anon role's settings to its public sessions, as
-- PostgREST does for the role it impersonates (server/db/postgres.ts).
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

-- The plans our benchmarks measured, as a hosted project runs the calls (docs/deployment.md
-- "The database"): PostgREST binds every value as a parameter, and after five runs PostgreSQL may
-- keep a generic plan, which cannot prove that `country_code = $1` implies a partial index's
-- predicate. So the public roles ask for custom plans, and so does each function the elements call.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';

-- Everything private lives in `internal` (20_listings.sql says why the listings do too).
create schema if not exists internal;

-- ─── supabase/schemas/01_text.sql ───

-- Folding text for search at a quarter of the cost (docs/decisions.md #29, "Speed").
--
-- search_fold() lowered A-Z with translate(), which for text of more than one byte per character
-- compares each character with each of the 26 letters: two thirds of folding a description, and
-- a listing's text is folded six times as it is stored (its words in two languages, its title's
-- words, its place, its city). lower() under the "C" collation lowers A-Z and nothing else, the
-- same rule (core/protocol/text.ts fold(); tests/contract/rules.test.ts holds both to one table of
-- cases), whatever the database's own collation. The stored values do not change.

create or replace function public.search_fold(value text)
returns text
language sql
immutable
parallel safe
as $$
  select pg_catalog.lower(
    pg_catalog.regexp_replace(pg_catalog.normalize(coalesce(value, ''), 'NFD'), E'[\u0300-\u036f]', '', 'g') collate pg_catalog."C")
$$;

create or replace function public.parse_coordinate(value text, max_abs double precision)
returns double precision
language sql
immutable
parallel safe
as $$
  select case
    when value ~ '^\s*[-+]?([0-9]+([.,][0-9]+)?|[.,][0-9]+)\s*$' then
      case when abs(replace(btrim(value, E' \t\n\r\f\v'), ',', '.')::double precision) <= max_abs
           then replace(btrim(value, E' \t\n\r\f\v'), ',', '.')::double precision end
  end
$$;

-- part of a text, taken literally in a LIKE: %, _ and \ are plain characters
create or replace function internal.contains_pattern(value text)
returns text
language sql
immutable
parallel safe
as $$
  select '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(value, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

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
as $$
  select pg_catalog.rtrim(pg_catalog.left(pg_catalog.btrim(pg_catalog.regexp_replace(public.search_fold(value), '[^a-z0-9]+', '-', 'g'), '-'), 80), '-')
$$;

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

-- Imports at 2,000 listings a second (docs/decisions.md #29, "Speed").
--
-- - A listing's words are folded once per text, not once per language: internal.text_words in
--   PL/pgSQL (a SQL function inlined into the generated columns repeated the fold in each
--   language's to_tsvector). The same values.
-- - feature_words without `set search_path` (every name in it is qualified): a SET clause makes
--   each call switch settings, twice per stored listing.
-- - import_merge looks each agent a feed names up once, not once per listing, for the agents it
--   knows and for those it reports unknown (a seq scan of the agents per listing was 6% of a
--   100,000-listing merge with 50 agents, and grows with the brokerage).

create or replace function internal.text_words(value text)
returns tsvector
language plpgsql
immutable
parallel safe
as $$
declare
  folded text := public.search_fold(value);
begin
  return pg_catalog.to_tsvector('pg_catalog.spanish'::regconfig, folded)
    operator(pg_catalog.||) pg_catalog.to_tsvector('pg_catalog.english'::regconfig, folded);
end
$$;

-- A listing's words computed on every core during a merge (docs/decisions.md #29, "Speed").
--
-- The words (two tsvectors, Spanish and English, of the title and features and of the
-- description) were generated columns: PostgreSQL computes a generated column in the backend that
-- inserts the row, one row after another, and an INSERT is never run in parallel. They were 40% of
-- what merging a feed cost (2.7 s of 7.0 s for 20,000 listings), while the machine's other cores
-- waited. They are now plain columns kept by a trigger, and internal.import_merge computes them
-- for all its staged listings in one query PostgreSQL runs in parallel (a CREATE TABLE AS over a
-- parallel scan: 1.4 s on two cores), then hands them to its insert.
--
-- One rule: internal.listing_words_pair() gives both values, for the trigger and the merge alike
-- (listing_words() reads it too). The trigger computes them on every insert and on every update
-- that changes the title, the description or the features; an update that leaves those alone
-- keeps the words it had, whatever it says. Only a writer that sets `exp.words_supplied` for its
-- transaction (import_merge, which computed them by the same rule a moment before) may supply
-- them. tests/contract/word-copy.test.ts holds every stored value to the rule after each kind of
-- write, and import-bulk.test.ts after a merge.

create or replace function internal.listing_words_pair(title text, description text, features text[], out words tsvector, out title_words tsvector)
language plpgsql
immutable
parallel safe
-- about 130 µs a listing (two stemmers over the folded title and description): so the planner
-- spreads a merge's listings over the cores (import_merge)
cost 1000
as $$
begin
  title_words := internal.text_words(coalesce(title, '') operator(pg_catalog.||) ' ' operator(pg_catalog.||) internal.feature_words(features));
  words := pg_catalog.setweight(title_words, 'A') operator(pg_catalog.||) pg_catalog.setweight(internal.text_words(description), 'B');
end
$$;
create or replace function internal.listing_words(title text, description text, features text[])
returns tsvector
language sql
immutable
parallel safe
as $$
  select (internal.listing_words_pair(title, description, features)).words
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

-- ─── supabase/schemas/02_positions.sql ───

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
returns double precision[]
language sql
immutable
parallel safe
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

-- the finest cells' column (or row) of positions on the map's unit square: 2^14 cells a side
create or replace function internal.listing_cell_index(v double precision[])
returns integer[]
language sql
immutable
set search_path = ''
as $$
  select array_agg(floor(u.x * 16384)::integer order by u.n) from unnest(v) with ordinality u(x, n)
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

-- ─── supabase/schemas/10_agents.sql ───

-- The brokerage's agents (docs/product.md §4). The public key reads the public columns only
-- (99_privileges.sql); private_notes and agent_key never.

create table public.agents (
  id bigint generated by default as identity primary key,
  first_name text,
  last_name text,
  email text,
  phone text,
  picture text,
  country_code text not null default 'EC',
  location text,
  about text,
  languages text[],
  specializations text[],
  certifications text[],
  locations_served text[],
  facebook text,
  instagram text,
  linkedin text,
  website text,
  -- internal: never readable with the public key
  private_notes text,
  created_at timestamptz not null default now(),
  -- accent- and case-folded copies for the directory search (docs/decisions.md #10)
  first_name_search text generated always as (public.search_fold(first_name)) stored,
  last_name_search text generated always as (public.search_fold(last_name)) stored,
  email_search text generated always as (public.search_fold(email)) stored,
  -- the agent's key in the brokerage's feeds (RESO ListAgentKey)
  agent_key text
);

alter table public.agents enable row level security;
create policy "Agents are public" on public.agents for select to anon, authenticated using (true);

comment on column public.agents.agent_key is 'The agent''s key in the brokerage''s feeds (RESO ListAgentKey): how an imported listing finds its agent.';

create index agents_country on public.agents (country_code, id);
create unique index agents_agent_key on public.agents (agent_key) where agent_key is not null;
create index agents_email_folded on public.agents (lower(email));

-- ─── supabase/schemas/20_listings.sql ───

-- The listings (docs/product.md §1). They live in `internal`, a schema the API does not expose;
-- the public reads a view of the active ones (21_listing_views.sql). Why not row level security on
-- the table itself: under RLS, PostgreSQL may not use an index for a condition whose operator is not
-- leakproof (ILIKE, LIKE and numeric comparisons are not), so every search became a sequential scan
-- (78 ms for a rare city at 100,000 rows, 2 ms through the view). The view is owned by the table's
-- owner and filters the active listings itself; RLS stays enabled on the table as a second lock.

create table internal.listings (
  id bigint generated by default as identity primary key,
  title text,
  address text,
  price numeric check (price >= 0),
  bedrooms integer check (bedrooms >= 0),
  bathrooms numeric check (bathrooms >= 0),
  -- the field keeps the source's name; its values are square metres
  square_feet numeric check (square_feet >= 0),
  property_type text,
  city text,
  state text,
  -- strings, or objects with url / src / is_front_cover, or a single object, as the feeds send them
  images jsonb,
  geo_lat text,
  geo_lon text,
  description text,
  created_at timestamptz not null default now(),
  status text not null default '1',
  country_code text not null default 'EC',
  agent_id bigint references public.agents (id) on delete set null,
  agent_first_name text,
  agent_last_name text,
  agent_email text,
  agent_phone text,
  agent_picture text,
  -- kept up to date by the database
  city_search text generated always as (public.search_fold(city)) stored,
  lat double precision generated always as (public.parse_coordinate(geo_lat, 90)) stored,
  lng double precision generated always as (public.parse_coordinate(geo_lon, 180)) stored,
  -- the last change (a sitemap's lastmod; what changed since an alert), kept by touch_updated_at()
  updated_at timestamptz not null,
  -- where the map shows the listing (02_positions.sql): its coordinates, else its city's centre
  -- with a small offset of its own
  map_lat double precision generated always as ((public.map_position(id, city, state, geo_lat, geo_lon))[1]) stored,
  map_lng double precision generated always as ((public.map_position(id, city, state, geo_lat, geo_lon))[2]) stored,
  map_approximate boolean generated always as ((public.map_position(id, city, state, geo_lat, geo_lon))[3] = 1) stored,
  -- Web Mercator in [0, 1) from the top left, as map tiles count
  map_x double precision generated always as (((public.map_position(id, city, state, geo_lat, geo_lon))[2] + 180) / 360) stored,
  map_y double precision generated always as (
    (1 - ln(tan(radians(least(85.0511, greatest(-85.0511, (public.map_position(id, city, state, geo_lat, geo_lon))[1])))) +
            1 / cos(radians(least(85.0511, greatest(-85.0511, (public.map_position(id, city, state, geo_lat, geo_lon))[1]))))) / pi()) / 2
  ) stored,
  -- when it came on the market (inserted active, or made active again): what an alert calls new
  listed_at timestamptz not null default now(),
  sector text,
  features text[] not null default '{}'
    check (features <@ array['pool', 'view', 'waterfront', 'garage', 'new_construction', 'air_conditioning']::text[]),
  year_built integer check (year_built between 1500 and 2100),
  -- square metres, as square_feet
  lot_size numeric check (lot_size >= 0),
  state_slug text generated always as (public.slugify(state)) stored,
  city_slug text generated always as (public.slugify(city)) stored,
  sector_slug text generated always as (public.slugify(sector)) stored,
  -- what the free text of the location box reads: the city, the sector and the address, folded
  place_search text generated always as (public.search_fold(coalesce(city, '') || ' ' || coalesce(sector, '') || ' ' || coalesce(address, ''))) stored,
  -- the words of the title, the description and the features, and of the title and the features
  -- alone (what "Best match" ranks by), kept by listings_fill_words() (01_text.sql's rule)
  words tsvector,
  title_words tsvector,
  -- x = longitude, y = latitude (a generated column cannot read lat and lng, which are generated too)
  location point generated always as (point(public.parse_coordinate(geo_lon, 180), public.parse_coordinate(geo_lat, 90))) stored,
  -- the last price cut, kept by note_price_cut() (24_price_history.sql)
  price_cut_at timestamptz,
  price_before_cut numeric,
  -- the listing's identity in its feed (50_imports.sql): unique together, so a re-run updates what it inserted
  source text,
  source_key text,
  listing_ref text,
  source_status text,
  source_modified_at timestamptz,
  source_media jsonb,
  photos_from jsonb,
  -- its open houses still to come (or under way), kept by internal.open_houses_changed() from
  -- internal.open_houses (46_open_houses.sql): what cards show and "Open house this week" reads
  open_houses tstzmultirange not null default '{}',
  -- what an Ecuadorian asks first (docs/product.md "The facts of a listing"): the alícuota (the
  -- monthly condominium fee, USD a month), the parking spaces, a storage unit (bodega), whether it
  -- is furnished (yes, partly, no) and whether pets are allowed; null: the feed does not say
  hoa_fee numeric check (hoa_fee >= 0 and hoa_fee < 100000),
  parking_spaces smallint check (parking_spaces between 0 and 99),
  storage_unit boolean,
  furnished text check (furnished in ('yes', 'partly', 'no')),
  pets_allowed boolean,
  -- for sale or for rent (docs/product.md "Rent and buy"): a rent's price is USD a month
  operation text not null default 'sale' check (operation in ('sale', 'rent'))
);

alter table internal.listings enable row level security;
create policy "Active listings are public" on internal.listings for select to anon, authenticated using (status = '1');

comment on table internal.listings is 'Listings for sale and for rent, all of them. The public reads active ones through public.listings.';
comment on column internal.listings.operation is 'sale or rent; a rent''s price is USD a month.';
comment on column internal.listings.square_feet is 'Area in square metres (the column keeps the feed''s name).';
comment on column internal.listings.listed_at is 'When the listing came on the market (inserted active or made active again): new for the alerts.';
comment on column internal.listings.price_cut_at is 'When the price last went down (null if the last change raised it, or it never changed).';
comment on column internal.listings.price_before_cut is 'The price before that cut.';
comment on column internal.listings.source is 'The feed the listing came from (null: entered here, or the seed).';
comment on column internal.listings.source_key is 'The listing''s key in its feed (RESO ListingKey, Kyero id).';
comment on column internal.listings.source_media is 'The photos as the feed names them (address, key, order, change), before re-hosting.';
comment on column internal.listings.photos_from is 'The source_media the listing''s images were made from: photos are made again when they differ.';

-- What the search reads is active EC listings: partial indexes keep to those rows.
-- Newest / featured, and price in both directions (ties broken by id for stable pages).
create index listings_recent on internal.listings (created_at desc, id desc) where country_code = 'EC' and status = '1';

create index listings_price_asc on internal.listings (price asc nulls last, id asc) where country_code = 'EC' and status = '1';

create index listings_price_desc on internal.listings (price desc nulls last, id desc) where country_code = 'EC' and status = '1';

-- The physical order: searches are mostly by city, so the table is kept clustered on it (the seed
-- load does `cluster internal.listings using listings_city_order`; repeat after bulk imports). A
-- city's listings then sit on a few pages instead of every page of the table.
create index listings_city_order on internal.listings (city_search, created_at);

create index listings_types on internal.listings (property_type) where country_code = 'EC' and status = '1';

create index listings_agent on internal.listings (agent_id, created_at desc) where status = '1';

create index listings_position on internal.listings (lat, lng) where country_code = 'EC' and status = '1' and lat is not null and lng is not null;

create index listings_status on internal.listings (status, country_code);

create or replace function internal.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a new row was last changed when it was created (unless it says otherwise); a changed one now
  if tg_op = 'INSERT' then
    new.updated_at := coalesce(new.updated_at, new.created_at, now());
    new.listed_at := coalesce(new.listed_at, now());
  else
    new.updated_at := now();
    -- back on the market: new again for the alerts
    if new.status = '1' and old.status is distinct from '1' then
      new.listed_at := now();
    end if;
  end if;
  return new;
end
$$;

-- every insert and update counts (a BEFORE trigger's condition may not read the generated columns)
create trigger listings_touch_updated_at
  before insert or update on internal.listings
  for each row
  execute function internal.touch_updated_at();

-- the sitemap's listings in id order, active ones only
create index listings_sitemap on internal.listings (id) include (updated_at, title) where country_code = 'EC' and status = '1';

create index listings_listed on internal.listings (listed_at) where country_code = 'EC' and status = '1';

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

create index listings_search on internal.listings using gin (
  place_search extensions.gin_trgm_ops, property_type extensions.gin_trgm_ops
) where country_code = 'EC' and status = '1';

create index listings_features on internal.listings using gin (features) where country_code = 'EC' and status = '1';

create index listings_year_built on internal.listings (year_built) where country_code = 'EC' and status = '1';

create index listings_lot_size on internal.listings (lot_size) where country_code = 'EC' and status = '1';

create index listings_map on internal.listings (map_x, map_y)
  include (map_lat, map_lng, map_approximate, price, bedrooms, bathrooms, square_feet, property_type, place_search, agent_id, lat, lng, id,
           state_slug, city_slug, sector_slug, features, year_built, lot_size, operation)
  where country_code = 'EC' and status = '1';

create index listings_words on internal.listings using gin (words) where country_code = 'EC' and status = '1';

-- Word searches at the speed of the other filters (docs/decisions.md #27, "Speed of words").
--
-- A common word ("casa", "piscina") is in a quarter of the listings. Sorting every match to show 24
-- of them read 24,000 rows at 100,000 listings (50-70 ms), though the newest 24 matches are among
-- the newest few hundred listings. So a page with words is looked for in windows: the first
-- listings in the sort's order (an index holds that order, and a range of it is read with the
-- words' index), twenty times the rows the page needs; when a window holds enough matches, they
-- are the page's, since every match outside it comes later in the order. Else a larger window
-- (sized by the matches the first one held), and at last all the listings. Every window gives the
-- same page; the tests compare pages near and far with SQL written apart from this file.
--
-- "Best match" becomes an order windows can keep: the listings whose title or features hold the
-- words first, then those whose description does, newest first within each. ts_rank over the title
-- ordered the same listings almost the same way (a title names each word once or twice) and had to
-- rank every match first.
--
-- The page is chosen by id, then its columns are read for its rows only: sorting the whole rows of
-- 24,000 matches cost a third of the time.

-- Best match's first rank, read through an index of its own: a word seldom in titles ("chimenea")
-- finds its few first-rank listings without reading every match
create index listings_title_words on internal.listings using gin (title_words) where country_code = 'EC' and status = '1';

-- (and what the similar listings compare: public.similar_listings walks it nearest first)
create index listings_location on internal.listings using gist (location)
  include (map_x, map_y, map_lat, map_lng, map_approximate, price, id, property_type, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1';

create index listings_place on internal.listings (city_slug, sector_slug) include (property_type, id) where country_code = 'EC' and status = '1';

create index listings_province on internal.listings (state_slug) include (property_type, id) where country_code = 'EC' and status = '1';

-- null sources are distinct: the seed's and hand-entered listings never conflict
create unique index listings_source_key on internal.listings (source, source_key);

create or replace function internal.listings_fill_words()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.title is not distinct from old.title and new.description is not distinct from old.description
     and new.features is not distinct from old.features then
    new.words := old.words;
    new.title_words := old.title_words;
    return new;
  end if;
  -- import_merge hands over what it computed by the same rule, for many rows at once
  if pg_catalog.current_setting('exp.words_supplied', true) = 'on' and new.words is not null and new.title_words is not null then
    return new;
  end if;
  select w.words, w.title_words into new.words, new.title_words
    from internal.listing_words_pair(new.title, new.description, new.features) w;
  return new;
end
$$;

create trigger listings_fill_words before insert or update on internal.listings
  for each row execute function internal.listings_fill_words();

-- ─── supabase/schemas/21_listing_views.sql ───

-- What the public key reads of the listings (99_privileges.sql): the active ones, whether an id is
-- active, gone or unknown, the cities and the property types. Each view is owned by the listings'
-- owner and says itself which rows are public (internal.is_public_listing).

-- columns are only ever added at the end (search_listings reads the view's list from the catalogue)
create or replace view public.listings as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
       sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search,
       listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed,
       operation
from internal.listings
where internal.is_public_listing(country_code, status);

comment on view public.listings is 'Active listings (status 1): what the public key may read.';

-- the distinct types, each found by one index probe (a loose index scan), not by reading every row
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

-- whether a listing's page answers 200, 410 or 404, without reading anything private
create or replace view public.listing_availability as
select id, status = '1' as available, updated_at
from internal.listings
where country_code = 'EC';

comment on view public.listing_availability is 'Whether a listing id is active (true), was and is gone (false), or never was (no row): 200, 410 or 404 for its page.';

create or replace view public.listing_cities as
select city, count(*)::integer as listings
from internal.listings
where internal.is_public_listing(country_code, status) and city is not null and btrim(city) <> ''
group by city;

comment on view public.listing_cities is 'Cities with active listings in Ecuador and their number of listings (place pages).';

-- ─── supabase/schemas/22_listing_words.sql ───

-- The words of the public listings in a narrow table of their own (docs/decisions.md #27, "Speed
-- of words"), so counting a common word and listing its matches' ids read fewer, smaller pages.
--
-- A word's matches are found through a GIN index, which knows rows, not ids: counting them, or
-- listing their ids for the other filters and the map's clusters (internal.word_match_ids), visits
-- the row of every match. A listing's row is wide (its words, title words, description, photos and
-- some sixty other columns), so "casa" (a quarter of the market) visited 14,000 pages of the
-- listings, the p95 of a word search at 100,000 listings. internal.listing_words holds only the id
-- and the words: at 100,000 listings, "casa" is counted in about half the time, and the clusters of
-- a word in a drawn area lose a third (docs/benchmarks.md). The words stay in the row: PostgreSQL
-- moves a value out of line only from rows over about 2 KB (toast_tuple_target does not lower that
-- threshold), and these rows are about 1 KB.
--
-- It is a copy that statement triggers keep equal to the public listings' words, as the places'
-- counts are kept: internal.listing_matches() (l.words @@ ...) stays the rule, and the tests hold
-- the copy to it after inserts, edits, withdrawals, relistings and deletes (tests/contract/
-- word-copy.test.ts).

create table internal.listing_words (
  id bigint primary key,
  words tsvector not null,
  -- sale or rent: a count of words alone is of the sales (what no operation means)
  operation text not null default 'sale'
);

comment on table internal.listing_words is 'The words of each public listing (internal.listings.words), kept by triggers: counts and id lists of word searches read it.';

create index listing_words_words on internal.listing_words using gin (words);

-- keeps the copy: a listing that becomes public (or changes its words) is written, one that stops
-- being public (withdrawn, deleted) is taken out
create or replace function internal.listing_words_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a bulk load (the seed, a large import) makes the copy once at its end (listings_derived_rebuild)
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  -- each statement names only the transition tables its event has
  if tg_op = 'DELETE' then
    delete from internal.listing_words w using old_rows o where w.id = o.id;
  elsif tg_op = 'UPDATE' then
    delete from internal.listing_words w
     using old_rows o
     where w.id = o.id
       and not exists (select 1 from new_rows n where n.id = o.id and internal.is_public_listing(n.country_code, n.status) and n.words is not null);
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation
      from new_rows n
     where internal.is_public_listing(n.country_code, n.status) and n.words is not null
       and not exists (select 1 from old_rows o where o.id = n.id and o.words = n.words and o.operation = n.operation and internal.is_public_listing(o.country_code, o.status))
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
  else
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation from new_rows n where internal.is_public_listing(n.country_code, n.status) and n.words is not null
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
  end if;
  return null;
end
$$;

create trigger listing_words_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.listing_words_changed();

create trigger listing_words_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.listing_words_changed();

create trigger listing_words_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.listing_words_changed();

-- every copy of what the listings say, made again from them: the map's cells and the places'
-- counts (listing_cells_rebuild) and the words' copy, after a bulk load that deferred them
create or replace function internal.listings_derived_rebuild()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.listing_cells_rebuild();
  delete from internal.listing_words;
  insert into internal.listing_words (id, words, operation)
  select l.id, l.words, l.operation from internal.listings l where internal.is_public_listing(l.country_code, l.status) and l.words is not null;
end
$$;

-- ─── supabase/schemas/24_price_history.sql ───

-- Every change of a listing's price, for the alerts' price drops.
create table internal.listing_price_changes (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  old_price numeric,
  new_price numeric,
  changed_at timestamptz not null default now()
);

alter table internal.listing_price_changes enable row level security;

comment on table internal.listing_price_changes is 'Every price change of a listing, for the alerts'' price drops.';

create index listing_price_changes_at on internal.listing_price_changes (changed_at);

create or replace function internal.record_price_changes()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  insert into internal.listing_price_changes (listing_id, old_price, new_price)
  select n.id, o.price, n.price
    from new_rows n join old_rows o on o.id = n.id
   where o.price is distinct from n.price;
  return null;
end
$$;

-- once per statement: a bulk price update costs one insert, not one trigger call per row
create trigger listings_price_changes
  after update on internal.listings
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function internal.record_price_changes();

create or replace function internal.note_price_cut()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.price is distinct from old.price then
    if new.price < old.price then
      new.price_cut_at := now();
      new.price_before_cut := old.price;
    else
      new.price_cut_at := null;
      new.price_before_cut := null;
    end if;
  end if;
  return new;
end
$$;

create trigger listings_note_price_cut
  before update of price on internal.listings
  for each row
  execute function internal.note_price_cut();

create index listing_price_changes_listing on internal.listing_price_changes (listing_id, changed_at);

-- A listing's price since it came on the market, newest first (at most 50 rows).
create or replace function public.listing_price_history(listing_id bigint)
returns table (at timestamptz, event text, price numeric, change numeric)
language sql
stable
-- it reads the kept changes (closed to the public key) of a public listing only
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  with l as (
    select l.id, l.price, l.listed_at
      from internal.listings l
     where l.id = listing_id and internal.is_public_listing(l.country_code, l.status)
  ), c as (
    select c.id, c.changed_at, c.old_price, c.new_price
      from internal.listing_price_changes c
      join l on c.listing_id = l.id
     where c.changed_at >= l.listed_at and c.old_price is not null and c.new_price is not null
  )
  select h.at, h.event, h.price, h.change
    from (
      select c.changed_at as at, case when c.new_price < c.old_price then 'reduced' else 'increased' end as event,
             c.new_price as price, c.new_price - c.old_price as change, c.id as n
        from c
      union all
      select l.listed_at, 'listed', coalesce((select c.old_price from c order by c.changed_at, c.id limit 1), l.price), null, 0
        from l
    ) h
   order by h.at desc, h.n desc
   limit 50
$$;

-- The active listings most like one listing, best first.
create or replace function public.similar_listings(listing_id bigint, max_results integer default 8)
returns setof public.listings
language plpgsql
stable
-- it reads the listing itself even when it is no longer public (only to compare with it); it
-- returns public listings only, with the view's columns
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  columns text;
  s record;
begin
  if max_results is null or max_results not between 1 and 24 then
    raise exception 'max_results must be 1 to 24' using errcode = '22023';
  end if;
  select l.id, l.property_type, l.price, l.square_feet, l.bedrooms, l.city_slug, l.sector_slug, l.operation,
         point(l.map_lng, l.map_lat) as here, cos(radians(l.map_lat)) as shrink
    into s
    from internal.listings l
   where l.id = listing_id and l.price > 0 and l.map_lat is not null and l.map_lng is not null;
  if s.id is null then
    return;
  end if;
  select pg_catalog.string_agg('c.' || pg_catalog.quote_ident(a.attname), ', ' order by a.attnum) into columns
  from pg_catalog.pg_attribute a
  where a.attrelid = 'public.listings'::regclass and a.attnum > 0 and not a.attisdropped;
  return query execute format($q$
    with near as (
      -- the nearest of the same type in the price band, in the GiST index's distance order (an
      -- index-only scan: the index carries what is compared); a sale's are sales, a rent's rents
      select c.id, c.location, c.price, c.square_feet, c.bedrooms, c.sector_slug, c.city_slug
        from internal.listings c
       where c.country_code = 'EC' and c.status = '1' and c.id <> $1 and c.location is not null
         and c.property_type = $2 and c.operation = $11
         and c.price between $3 * 0.7 and $3 * 1.4
       order by c.location <-> $4
       limit 150
    ), best as (
      select n.id,
             -- km apart (a degree of latitude is 111 km; one of longitude shrinks with the latitude)
             least(sqrt(power((n.location[1] - $4[1]) * 111, 2) + power((n.location[0] - $4[0]) * 111 * $5, 2)), 40) / 4
             + abs(ln(n.price::float8 / $3::float8)) * 10
             + case when n.square_feet > 0 and $6 > 0 then abs(ln(n.square_feet::float8 / $6::float8)) * 6 else 1 end
             + abs(coalesce(n.bedrooms, 0)::float8 - coalesce($7, 0)::float8) * 1.5
             - case when n.sector_slug = $8 and n.city_slug = $9 then 2 else 0 end as score
        from near n
       order by score, n.id
       limit $10
    )
    -- the rows of the best only
    select %s
      from best x
      join internal.listings c on c.id = x.id
     order by x.score, c.id
  $q$, columns)
  using s.id, s.property_type, s.price, s.here, s.shrink, s.square_feet, s.bedrooms, s.sector_slug, s.city_slug, max_results, s.operation;
end
$$;

-- The listings most like one (public.similar_listings; docs/decisions.md #28) found as fast for an
-- office as for a house.
--
-- similar_listings walks the area's GiST index nearest first and keeps the listings of the same
-- type in the price band. Houses and apartments are two thirds of the market, so the first 150 of
-- them are near; offices, business premises and commercial buildings are 4 to 7% each, and the
-- walk read thousands of other listings' entries first (12 ms on average for an office at 100,000
-- listings, 50-70 ms at worst, against 2-4 ms for a house). An index per known type is walked
-- only through that type: every listing 2-3 ms, the worst about 10 ms.
--
-- The types are core/protocol/listing.ts KNOWN_TYPES (tests/contract/decide.test.ts holds the two
-- lists together). A type no index names (a feed's own value) still walks the area's index, as
-- before. The function's EXECUTE plans once per call with the type as a constant, so the planner
-- proves the partial index's predicate from the query.

create index listings_near_house on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'house';

create index listings_near_apartment on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'apartment';

create index listings_near_land on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'land';

create index listings_near_office on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'office';

create index listings_near_business_premises on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'business_premises';

create index listings_near_commercial_building on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'commercial_building';

create index listings_near_suite on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'suite';

create index listings_near_quinta on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where country_code = 'EC' and status = '1' and property_type = 'quinta';

-- ─── supabase/schemas/25_market.sql ───

-- The market in numbers (docs/market.md): when each listing was on the market, and from that the
-- monthly index of asking prices per m² for every place and type group.

-- Each time a listing was on the market: from when it came on (inserted active, or made active
-- again) to when it went off (withdrawn, sold, deleted from the feed); `off_at` null while it is on.
-- Written by the listings' trigger below, whoever changes the listings (imports, the seed, a
-- relisting); the seed also writes the spells of listings that came and went before it ran.
create table internal.listing_spells (
  listing_id bigint not null references internal.listings (id) on delete cascade,
  on_at timestamptz not null,
  off_at timestamptz,
  check (off_at is null or off_at >= on_at)
);

alter table internal.listing_spells enable row level security;

comment on table internal.listing_spells is 'Each time a listing was on the market: on_at to off_at (null while it is on).';

-- at most one open spell a listing
create unique index listing_spells_open on internal.listing_spells (listing_id) where off_at is null;

create index listing_spells_listing on internal.listing_spells (listing_id, on_at);

create or replace function internal.note_market_spells()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into internal.listing_spells (listing_id, on_at)
    select n.id, n.listed_at from new_rows n where internal.is_public_listing(n.country_code, n.status)
    on conflict do nothing;
    return null;
  end if;
  -- off the market: the open spell ends now
  update internal.listing_spells s
     set off_at = greatest(now(), s.on_at)
    from old_rows o join new_rows n using (id)
   where s.listing_id = n.id and s.off_at is null
     and internal.is_public_listing(o.country_code, o.status) and not internal.is_public_listing(n.country_code, n.status);
  -- back on it: a new spell from when it was listed again
  insert into internal.listing_spells (listing_id, on_at)
  select n.id, n.listed_at
    from old_rows o join new_rows n using (id)
   where not internal.is_public_listing(o.country_code, o.status) and internal.is_public_listing(n.country_code, n.status)
  on conflict do nothing;
  return null;
end
$$;

create trigger listings_market_spells_insert
  after insert on internal.listings
  referencing new table as new_rows
  for each statement
  execute function internal.note_market_spells();

create trigger listings_market_spells_update
  after update on internal.listings
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function internal.note_market_spells();

-- The index: for each place, type group and month, what the asking prices per m² of the listings
-- on the market that month were (docs/market.md has the rule). Rebuilt whole by
-- internal.rebuild_market_index(), on a schedule.
create table internal.market_index (
  -- 'ecuador', 'provincia/<province>', '<city>', '<city>/<sector>' (internal.places' paths)
  path text not null,
  kind text not null check (kind in ('country', 'province', 'city', 'sector')),
  -- as most of its listings write it
  name text not null,
  -- the place the figure is offered from when this one stands on too few listings
  parent text,
  type_group text not null check (type_group in ('all', 'house', 'apartment', 'land', 'commercial')),
  month date not null,
  listings integer not null,
  median numeric not null,
  p25 numeric not null,
  p75 numeric not null,
  new_listings integer not null,
  price_cuts integer not null,
  median_days integer not null,
  -- where its listings are, on average (the national report's map)
  lat double precision,
  lng double precision,
  primary key (path, type_group, month)
);

alter table internal.market_index enable row level security;

comment on table internal.market_index is 'The monthly asking price per m² of every place and type group (docs/market.md); rebuilt by internal.rebuild_market_index().';

create index market_index_parent on internal.market_index (parent, type_group, month);

-- The outlier bounds of each city and type group (docs/market.md, rule 5), as the last whole
-- rebuild judged them over its 25 months; the hourly refresh of the last months reads them.
create table internal.market_bounds (
  city_slug text not null,
  type_group text not null,
  lo double precision not null,
  hi double precision not null,
  primary key (city_slug, type_group)
);

alter table internal.market_bounds enable row level security;

-- What homes rent for now in every place with rentals (docs/market.md "Rents"), as the index's
-- last refresh found them: its active homes for rent by their rent a month per m² and a two-bedroom
-- flat's, each with how many it stands on. Written by internal.rebuild_market_index(), read by
-- internal.market_rents().
create table internal.market_rents_now (
  -- 'ecuador', 'provincia/<province>', '<city>', '<city>/<sector>'
  path text primary key,
  listings integer not null,
  median numeric not null,
  p25 numeric not null,
  p75 numeric not null,
  -- null when fewer than internal.market_minimum() two-bedroom flats stand on it
  two_bedroom numeric,
  two_bedroom_listings integer not null
);

alter table internal.market_rents_now enable row level security;

-- The type group of a property type (docs/market.md): one place for the rule.
create or replace function internal.market_type_group(property_type text)
returns text
language sql
immutable
parallel safe
as $$
  select case
    when property_type in ('house', 'apartment', 'land') then property_type
    -- a suite is a small flat; a quinta a house on its land (docs/market.md)
    when property_type = 'suite' then 'apartment'
    when property_type = 'quinta' then 'house'
    when property_type in ('office', 'business_premises', 'commercial_building') then 'commercial'
  end
$$;

-- The fewest listings a figure stands on for it to be shown (docs/market.md).
create or replace function internal.market_minimum()
returns integer
language sql
immutable
as $$
  select 8
$$;

-- Every figure of the index made again from the listings, their spells and their price changes:
-- the last 24 months and the month so far (docs/market.md), or only the months from `from_month`
-- (the hourly refresh: last month and this one), whose outliers are judged by the bounds of the
-- last whole rebuild (internal.market_bounds). Answers how many rows it wrote. Its cost is the
-- sorts of a row per listing and month (docs/benchmarks.md): those rows carry integer keys of the
-- places, not their names, and are made without a sort of their own.
create or replace function internal.rebuild_market_index(from_month date default null)
returns integer
language plpgsql
security definer
set search_path = ''
-- its sorts and groupings in memory (a job of the server's): the default 4 MB spills to disk
set work_mem = '256MB'
as $$
declare
  first_month date := (date_trunc('month', now()) - interval '24 months')::date;
  since date := greatest(coalesce(from_month, first_month), first_month);
  written integer;
begin
  -- each listing that can count: its type group, its area (land by its lot), and its places as
  -- small integer keys (the groupings below sort millions of rows: integers sort faster than names)
  drop table if exists pg_temp.market_listings;
  create temp table market_listings on commit drop as
  with counted as materialized (
    select l.id, l.price, l.state_slug, l.city_slug, nullif(l.sector_slug, '') as sector_slug, l.map_lat as lat, l.map_lng as lng,
           l.state as state_name, l.city as city_name, l.sector as sector_name,
           internal.market_type_group(l.property_type) as type_group,
           (case when l.property_type = 'land' then coalesce(nullif(l.lot_size, 0), l.square_feet) else l.square_feet end)::double precision as area,
           k.months as cut_months,
           k.listing_id is not null as repriced
      from internal.listings l
      -- whether its price ever changed, and the months in which it was cut
      left join (select c.listing_id, pg_catalog.array_agg(distinct date_trunc('month', c.changed_at)::date) filter (where c.new_price < c.old_price) as months
                   from internal.listing_price_changes c group by c.listing_id) k on k.listing_id = l.id
     where l.country_code = 'EC' and l.operation = 'sale' and coalesce(l.state_slug, '') <> '' and coalesce(l.city_slug, '') <> ''
       and internal.market_type_group(l.property_type) is not null
       and (case when l.property_type = 'land' then coalesce(nullif(l.lot_size, 0), l.square_feet) else l.square_feet end) >= 15
  ),
  places as (
    select d.state_slug, d.city_slug, coalesce(d.sector_slug, '') as sector_slug,
           pg_catalog.dense_rank() over (order by d.state_slug)::integer as state_key,
           pg_catalog.dense_rank() over (order by d.city_slug)::integer as city_key,
           case when d.sector_slug is not null then pg_catalog.dense_rank() over (order by d.city_slug, d.sector_slug)::integer end as sector_key
      from (select distinct c.state_slug, c.city_slug, c.sector_slug from counted c) d
  ),
  groups as (
    select g.type_group, pg_catalog.row_number() over (order by g.type_group)::smallint as group_key
      from (select distinct c.type_group from counted c) g
  )
  select c.*, g.group_key, p.state_key, p.city_key, p.sector_key
    from counted c
    join places p on p.state_slug = c.state_slug and p.city_slug = c.city_slug and p.sector_slug = coalesce(c.sector_slug, '')
    join groups g on g.type_group = c.type_group;
  analyze pg_temp.market_listings;

  -- the asking prices over time of the listings whose price changed: each price from when it was
  -- set until the next change (the others asked their price all along)
  drop table if exists pg_temp.market_prices;
  create temp table market_prices on commit drop as
  select c.listing_id,
         coalesce(pg_catalog.lag(c.changed_at) over w, '-infinity'::timestamptz) as valid_from,
         c.changed_at as valid_to,
         c.old_price as price
    from internal.listing_price_changes c
  window w as (partition by c.listing_id order by c.changed_at, c.id)
  union all
  (select distinct on (c.listing_id) c.listing_id, c.changed_at, 'infinity'::timestamptz, c.new_price
     from internal.listing_price_changes c
    order by c.listing_id, c.changed_at desc, c.id desc);
  create index on pg_temp.market_prices (listing_id, valid_from);
  analyze pg_temp.market_prices;

  -- each listing on the market in each month of the period, once, at its price per m² then
  drop table if exists pg_temp.market_priced;
  create temp table market_priced on commit drop as
  with months as materialized (
    select m::date as month, m as start, least(m + interval '1 month', now()) as cutoff
      from pg_catalog.generate_series(since, date_trunc('month', now()), interval '1 month') m
  ),
  -- each listing on the market in each month, once: a spell counts from the month it came on to
  -- the month it went off, until the month the listing's next spell begins (that one counts then)
  spells as (
    select s.listing_id, s.on_at, s.off_at, pg_catalog.lead(s.on_at) over (partition by s.listing_id order by s.on_at) as next_on
      from internal.listing_spells s
  ),
  on_market as (
    select mm.month, sp.listing_id as id, sp.on_at, least(mm.cutoff, coalesce(sp.off_at, 'infinity')) as until, sp.on_at >= mm.start as is_new
      from spells sp
      join months mm on sp.on_at < mm.cutoff and (sp.off_at is null or sp.off_at >= mm.start) and (sp.next_on is null or sp.next_on >= mm.cutoff)
  )
  -- its price in force at the month's end (or when it went off), per m²
    select o.month, l.group_key, l.state_key, l.city_key, l.sector_key,
           coalesce(case when l.repriced then (select p.price from pg_temp.market_prices p
                                                  where p.listing_id = o.id and p.valid_from <= o.until and p.valid_to > o.until
                                                  order by p.valid_from desc limit 1) end,
                    l.price)::double precision / l.area as usd_m2,
           o.is_new,
           coalesce(o.month = any (l.cut_months), false) as cut,
           pg_catalog.date_part('epoch', o.until - o.on_at) / 86400 as days
      from on_market o
      join pg_temp.market_listings l on l.id = o.id;

  -- the keys' places and type groups
  drop table if exists pg_temp.market_places;
  create temp table market_places on commit drop as
  select distinct l.state_key, l.city_key, l.sector_key, l.state_slug, l.city_slug, l.sector_slug from pg_temp.market_listings l;
  drop table if exists pg_temp.market_groups;
  create temp table market_groups on commit drop as
  select distinct l.group_key, l.type_group from pg_temp.market_listings l;

  -- a whole rebuild judges outliers anew: outside the 2nd-98th percentile of their city and type
  -- group over the whole period
  if from_month is null or not exists (select 1 from internal.market_bounds) then
    delete from internal.market_bounds;
    insert into internal.market_bounds (city_slug, type_group, lo, hi)
    select (select c.city_slug from pg_temp.market_places c where c.city_key = p.city_key limit 1),
           (select g.type_group from pg_temp.market_groups g where g.group_key = p.group_key),
           pg_catalog.percentile_cont(0.02) within group (order by p.usd_m2),
           pg_catalog.percentile_cont(0.98) within group (order by p.usd_m2)
      from pg_temp.market_priced p
     where p.usd_m2 > 0
     group by p.city_key, p.group_key;
  end if;
  delete from internal.market_index i where i.month >= since;
  with bounds as materialized (
    select c.city_key, g.group_key, b.lo, b.hi
      from internal.market_bounds b
      join (select distinct m.city_key, m.city_slug from pg_temp.market_places m) c on c.city_slug = b.city_slug
      join pg_temp.market_groups g on g.type_group = b.type_group
  ),
  kept as (
    select p.month, p.group_key, p.state_key, p.city_key, p.sector_key, p.usd_m2, p.is_new, p.cut, p.days
      from pg_temp.market_priced p
      join bounds b on b.city_key = p.city_key and b.group_key = p.group_key
     where p.usd_m2 between b.lo and b.hi
  ),
  -- every figure: each month for all types (a null group) and each group, in the country, each
  -- province, each city and each sector (`level` says which keys it is by)
  figures as (
    select k.month, k.group_key, k.state_key, k.city_key, k.sector_key,
           grouping(k.group_key, k.state_key, k.city_key, k.sector_key) as level,
           count(*)::integer as listings,
           pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2) as q,
           count(*) filter (where k.is_new)::integer as new_listings,
           count(*) filter (where k.cut)::integer as price_cuts,
           pg_catalog.percentile_cont(0.5) within group (order by k.days) as median_days
      from kept k
     group by grouping sets ((k.month), (k.month, k.group_key), (k.month, k.state_key), (k.month, k.group_key, k.state_key),
                             (k.month, k.city_key), (k.month, k.group_key, k.city_key),
                             (k.month, k.city_key, k.sector_key), (k.month, k.group_key, k.city_key, k.sector_key))
  ),
  -- where each place's listings of the group are, on average (the national report's map)
  centres as (
    select l.group_key, l.state_key, l.city_key, l.sector_key,
           grouping(l.group_key, l.state_key, l.city_key, l.sector_key) as level,
           avg(l.lat) as lat,
           avg(l.lng) as lng
      from pg_temp.market_listings l
     group by grouping sets ((), (l.group_key), (l.state_key), (l.group_key, l.state_key), (l.city_key), (l.group_key, l.city_key),
                             (l.city_key, l.sector_key), (l.group_key, l.city_key, l.sector_key))
  ),
  paths as (
    select f.*, c.lat, c.lng,
           coalesce((select g.type_group from pg_temp.market_groups g where g.group_key = f.group_key), 'all') as type_group,
           case
             when f.sector_key is not null then 'sector'
             when f.city_key is not null then 'city'
             when f.state_key is not null then 'province'
             else 'country'
           end as kind,
           case
             when f.sector_key is not null then (select m.city_slug || '/' || m.sector_slug from pg_temp.market_places m where m.sector_key = f.sector_key limit 1)
             when f.city_key is not null then (select m.city_slug from pg_temp.market_places m where m.city_key = f.city_key limit 1)
             when f.state_key is not null then 'provincia/' || (select m.state_slug from pg_temp.market_places m where m.state_key = f.state_key limit 1)
             else 'ecuador'
           end as path
      from figures f
      left join centres c on c.level = f.level and coalesce(c.group_key, 0) = coalesce(f.group_key, 0) and coalesce(c.state_key, 0) = coalesce(f.state_key, 0)
                         and coalesce(c.city_key, 0) = coalesce(f.city_key, 0) and coalesce(c.sector_key, 0) = coalesce(f.sector_key, 0)
     -- a sector's figure is of listings that name one (levels 4 and 12: by sector, with and without the group)
     where f.sector_key is not null or f.level not in (4, 12)
  ),
  -- each place's name as most of its listings write it, and the place its figure is offered from
  -- (a city's province: the one most of its listings name), once per place, not per month
  named as (
    select case
             when grouping(l.sector_slug) = 0 then l.city_slug || '/' || l.sector_slug
             when grouping(l.city_slug) = 0 then l.city_slug
             else 'provincia/' || l.state_slug
           end as path,
           case
             when grouping(l.sector_slug) = 0 then pg_catalog.mode() within group (order by l.sector_name)
             when grouping(l.city_slug) = 0 then pg_catalog.mode() within group (order by l.city_name)
             else pg_catalog.mode() within group (order by l.state_name)
           end as name,
           case
             when grouping(l.sector_slug) = 0 then l.city_slug
             when grouping(l.city_slug) = 0 then 'provincia/' || pg_catalog.mode() within group (order by l.state_slug)
             else 'ecuador'
           end as parent
      from pg_temp.market_listings l
     group by grouping sets ((l.state_slug), (l.city_slug), (l.city_slug, l.sector_slug))
    union all
    select 'ecuador', 'Ecuador', null
  )
  insert into internal.market_index (path, kind, name, parent, type_group, month, listings, median, p25, p75, new_listings, price_cuts, median_days, lat, lng)
  select f.path, f.kind, coalesce(n.name, f.path), n.parent, f.type_group, f.month, f.listings,
         round(f.q[2]::numeric, 2), round(f.q[1]::numeric, 2), round(f.q[3]::numeric, 2),
         f.new_listings, f.price_cuts, round(f.median_days)::integer, f.lat, f.lng
    from paths f
    left join named n on n.path = f.path;
  get diagnostics written = row_count;

  -- the rents now, every place at once: its active homes for rent (houses, quintas, flats and
  -- suites of 15 m² or more)
  delete from internal.market_rents_now;
  insert into internal.market_rents_now (path, listings, median, p25, p75, two_bedroom, two_bedroom_listings)
  select r.path, r.listings, round(r.q[2]::numeric, 2), round(r.q[1]::numeric, 2), round(r.q[3]::numeric, 2),
         case when r.two_n >= internal.market_minimum() then round(r.two::numeric) end, r.two_n
    from (
      select case
               when grouping(l.state_slug) = 0 then 'provincia/' || l.state_slug
               when grouping(l.sector_slug) = 0 then l.city_slug || '/' || l.sector_slug
               when grouping(l.city_slug) = 0 then l.city_slug
               else 'ecuador'
             end as path,
             count(*)::integer as listings,
             pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by (l.price / l.square_feet)::double precision) as q,
             pg_catalog.percentile_cont(0.5) within group (order by l.price::double precision) filter (where l.bedrooms = 2 and l.property_type in ('apartment', 'suite')) as two,
             (count(*) filter (where l.bedrooms = 2 and l.property_type in ('apartment', 'suite')))::integer as two_n
        from internal.listings l
       where internal.is_public_listing(l.country_code, l.status) and l.operation = 'rent'
         and l.property_type in ('house', 'quinta', 'apartment', 'suite') and l.square_feet >= 15 and l.price > 0
       group by grouping sets ((), (l.state_slug), (l.city_slug), (l.city_slug, l.sector_slug))
    ) r
   -- a place has a name in each part of its path (a listing without a sector is its city's only)
   where r.path ~ '^(ecuador|provincia/[^/]+|[^/]+|[^/]+/[^/]+)$';
  return written;
end
$$;

-- The index made again when it is older than `max_age` (the servers call it every few minutes; a
-- hosted project's pg_cron every hour: docs/deployment.md): once across servers (an advisory lock;
-- whoever comes second finds it fresh or busy). Answers the rows written, or null when nothing was due.
create or replace function internal.refresh_market_index(max_age interval default interval '1 hour')
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  built timestamptz;
  whole timestamptz;
  written integer;
begin
  if not pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('internal.market_index')) then
    return null;
  end if;
  select s.last_finished_at, s.last_full_at into built, whole from internal.job_schedule s where s.job = 'market-index';
  if built is not null and built > now() - max_age then
    return null;
  end if;
  -- whole once a day (or when asked with no age at all), else last month and this one
  if whole is null or whole < now() - interval '1 day' or max_age <= interval '0' then
    written := internal.rebuild_market_index();
    whole := now();
  else
    written := internal.rebuild_market_index((date_trunc('month', now()) - interval '1 month')::date);
  end if;
  insert into internal.job_schedule (job, due_at, last_started_at, last_finished_at, last_full_at)
  values ('market-index', now() + max_age, now(), pg_catalog.clock_timestamp(), whole)
  on conflict (job) do update
    set due_at = excluded.due_at, last_started_at = excluded.last_started_at,
        last_finished_at = excluded.last_finished_at, last_full_at = excluded.last_full_at;
  return written;
end
$$;

-- A place's index (docs/market.md), month by month, oldest first: the figure of the place itself
-- where it stands on enough listings, else its parent's (then `path` names the parent), else none.
-- `place`: 'ecuador', 'provincia/pichincha', 'quito', 'quito/cumbaya'; `type_group`: all, house,
-- apartment, land, commercial; `months`: how many, the month so far included (1 to 25).
create or replace function public.market_index(place text, type_group text default 'all', months integer default 13)
returns table (
  month date,
  path text,
  name text,
  listings integer,
  median numeric,
  p25 numeric,
  p75 numeric,
  new_listings integer,
  price_cuts integer,
  median_days integer
)
language plpgsql
stable
-- it reads the index (closed to the public key): figures of public listings only
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
begin
  if type_group is null or type_group not in ('all', 'house', 'apartment', 'land', 'commercial') then
    raise exception 'type_group must be all, house, apartment, land or commercial' using errcode = '22023';
  end if;
  if months is null or months not between 1 and 25 then
    raise exception 'months must be 1 to 25' using errcode = '22023';
  end if;
  if place is null or length(place) > 170 then
    raise exception 'place must name a place' using errcode = '22023';
  end if;
  return query
  with recursive chain as (
    -- the place and the places it is in, nearest first (a place has one parent: any row says it)
    select x.path, x.parent, 0 as depth
      from (select i.path, i.parent from internal.market_index i where i.path = place limit 1) x
    union all
    select p.path, p.parent, c.depth + 1
      from chain c
      join lateral (select i.path, i.parent from internal.market_index i where i.path = c.parent limit 1) p on true
     where c.depth < 3
  )
  -- each month, the nearest place's figure that stands on enough listings; each place's months by
  -- its key (`offset 0` keeps the lookups per place: joined whole, the planner reads every place's
  -- months and hashes them, ten times slower)
  select distinct on (f.month) f.month, f.path, f.name, f.listings, f.median, f.p25, f.p75, f.new_listings, f.price_cuts, f.median_days
    from chain c
    cross join lateral (
      select i.month, i.path, i.name, i.listings, i.median, i.p25, i.p75, i.new_listings, i.price_cuts, i.median_days
        from internal.market_index i
       where i.path = c.path and i.type_group = market_index.type_group
         and i.month >= (date_trunc('month', now()) - make_interval(months => months - 1))::date
         and i.listings >= internal.market_minimum()
      offset 0
    ) f
   order by f.month, c.depth;
end
$$;

-- A listing's market (docs/market.md, "Where it shows"): last month and this one of its sector's
-- index for its type group (or of the nearest place that has a figure), asked by the listing's id
-- so that a listing's page asks for it at the same time as the listing itself.
create or replace function public.listing_market(listing_id bigint)
returns table (
  month date,
  path text,
  name text,
  listings integer,
  median numeric,
  p25 numeric,
  p75 numeric,
  new_listings integer,
  price_cuts integer,
  median_days integer
)
language sql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select m.*
    from internal.listings l
   cross join lateral public.market_index(l.city_slug || coalesce('/' || nullif(l.sector_slug, ''), ''), internal.market_type_group(l.property_type), 2) m
   where l.id = listing_market.listing_id
     and internal.is_public_listing(l.country_code, l.status) and l.operation = 'sale'
     and internal.market_type_group(l.property_type) is not null
     and coalesce(l.city_slug, '') <> ''
$$;

-- The places in a place (a province's cities, a city's sectors; Ecuador's provinces or, with
-- `kind` 'city', its cities) with their figure of last month, of twelve months before that, and
-- the thirteen months between (oldest first; null where a month stands on too few listings), for
-- rankings and their small trend lines; only places whose last month stands on enough listings.
create or replace function public.market_ranking(place text, type_group text default 'all', kind text default null)
returns table (path text, name text, listings integer, median numeric, median_year_before numeric, trend numeric[], lat double precision, lng double precision)
language sql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  with last_month as (
    select (date_trunc('month', now()) - interval '1 month')::date as month
  )
  select i.path, i.name, i.listings, i.median,
         (select y.median from internal.market_index y
           where y.path = i.path and y.type_group = i.type_group and y.month = (lm.month - interval '12 months')::date and y.listings >= internal.market_minimum()),
         (select pg_catalog.array_agg(case when t.listings >= internal.market_minimum() then t.median end order by m.month)
            from pg_catalog.generate_series(lm.month - interval '12 months', lm.month, interval '1 month') m(month)
            left join internal.market_index t on t.path = i.path and t.type_group = i.type_group and t.month = m.month::date),
         i.lat, i.lng
    from internal.market_index i
    cross join last_month lm
   where i.type_group = market_ranking.type_group
     and i.month = lm.month
     and i.listings >= internal.market_minimum()
     and (case when market_ranking.kind = 'city' and market_ranking.place = 'ecuador' then i.kind = 'city' else i.parent = market_ranking.place end)
   order by i.median desc, i.path
   limit 200
$$;

-- The rents of a place (docs/market.md "Rents"), now (as the index's last refresh found them:
-- internal.market_rents_now): the place's, else the nearest place above it with at least
-- internal.market_minimum() rentals (its city, its province, Ecuador).
create or replace function internal.market_rents(place text)
returns table (path text, name text, listings integer, median numeric, p25 numeric, p75 numeric, two_bedroom numeric, two_bedroom_listings integer)
-- plpgsql: its body is checked when it runs (internal.places is made after this file)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
declare
  here text := market_rents.place;
  steps integer := 0;
  f internal.market_rents_now;
begin
  while here is not null and steps <= 4 loop
    select * into f from internal.market_rents_now r where r.path = here;
    if f.listings >= internal.market_minimum() then
      return query
      select f.path, coalesce((select pl.name from internal.places pl where pl.path = f.path), 'Ecuador'), f.listings,
             f.median, f.p25, f.p75, f.two_bedroom, f.two_bedroom_listings;
      return;
    end if;
    here := case
              when here = 'ecuador' then null
              when here ~ '^provincia/' then 'ecuador'
              when here ~ '/' then pg_catalog.split_part(here, '/', 1)
              else (select 'provincia/' || pl.state_slug from internal.places pl where pl.path = here)
            end;
    steps := steps + 1;
  end loop;
end
$$;

-- the homes for rent, read by the rents' figures (a narrow walk of the rentals)
create index listings_rents on internal.listings (city_slug, sector_slug) include (state_slug, price, square_feet, bedrooms, property_type)
  where country_code = 'EC' and status = '1' and operation = 'rent';

-- Everything a place's report shows (docs/market.md, "Where it shows"), in one answer: the place's
-- months for `type_group` (as public.market_index), each type group's last 14 months, the places
-- within ranked (a sector: its city's sectors) and, for Ecuador, every city ranked.
create or replace function public.market_report(place text, type_group text default 'all', months integer default 25)
returns jsonb
language sql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select pg_catalog.jsonb_build_object(
    'all', (select coalesce(pg_catalog.jsonb_agg(to_jsonb(m) order by m.month), '[]'::jsonb) from public.market_index(market_report.place, market_report.type_group, market_report.months) m),
    'by_type', (
      select pg_catalog.jsonb_object_agg(g.type_group, (select coalesce(pg_catalog.jsonb_agg(to_jsonb(m) order by m.month), '[]'::jsonb) from public.market_index(market_report.place, g.type_group, 14) m))
        from (values ('house'), ('apartment'), ('land'), ('commercial')) g(type_group)
    ),
    'ranking', (
      select coalesce(pg_catalog.jsonb_agg(to_jsonb(r) - 'n' order by r.n), '[]'::jsonb)
        from public.market_ranking(
               case when market_report.place !~ '^provincia/' and market_report.place ~ '/' then split_part(market_report.place, '/', 1) else market_report.place end,
               market_report.type_group
             ) with ordinality r(path, name, listings, median, median_year_before, trend, lat, lng, n)
    ),
    -- the rents beside the asking prices (docs/market.md "Rents"): the place's, or the nearest above it
    'rents', (select to_jsonb(r) from internal.market_rents(market_report.place) r),
    'cities', case when market_report.place = 'ecuador' then (
      select coalesce(pg_catalog.jsonb_agg(to_jsonb(r) - 'n' order by r.n), '[]'::jsonb)
        from public.market_ranking('ecuador', market_report.type_group, 'city') with ordinality r(path, name, listings, median, median_year_before, trend, lat, lng, n)
    ) end
  )
$$;

-- ─── supabase/schemas/30_search.sql ───

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
    -- an open house in the next seven days (or under way): docs/visits.md "Open houses"
    and (f->>'open_house' is null or l.open_houses && pg_catalog.tstzrange(now(), now() + interval '7 days'))
    -- for sale unless the search says rent (docs/product.md "Rent and buy")
    and l.operation = coalesce(f->>'operation', 'sale')
    -- the facts of docs/product.md "The facts of a listing": a listing that does not say its
    -- alícuota is kept by a maximum (as a house outside a condominium pays none)
    and (f->>'hoa_max' is null or coalesce(l.hoa_fee, 0) <= (f->>'hoa_max')::numeric)
    and (f->>'parking_min' is null or l.parking_spaces >= (f->>'parking_min')::integer)
    and (f->>'storage' is null or l.storage_unit)
    and (f->>'furnished' is null or l.furnished = 'yes')
    and (f->>'pets' is null or l.pets_allowed)
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
  -- a sale is what no operation means: one search, one set of filters (the map's kept cells)
  if f ? 'operation' and f->>'operation' not in ('sale', 'rent') then
    raise exception 'operation must be sale or rent' using errcode = '22023';
  end if;
  if f->>'operation' = 'sale' then
    f := f - 'operation';
  end if;
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
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  f jsonb := internal.search_filters(filters);
  walk text;
  columns text;
  need integer;
  ids bigint[];
begin
  if page_size is null or page_size not between 1 and 1000 or page_offset is null or page_offset < 0 then
    raise exception 'page_size must be 1 to 1000 and page_offset 0 or more' using errcode = '22023';
  end if;
  walk := case coalesce(sort, 'featured')
    when 'price_asc' then 'price_asc' when 'price_desc' then 'price_desc'
    when 'relevance' then 'newest' when 'featured' then 'newest' when 'newest' then 'newest' end;
  if walk is null then
    raise exception 'sort must be featured, newest, price_asc, price_desc or relevance' using errcode = '22023';
  end if;
  -- the view's columns, read from the catalogue: the view stays the one list of what is public
  select pg_catalog.string_agg('l.' || pg_catalog.quote_ident(a.attname), ', ' order by a.attnum) into columns
  from pg_catalog.pg_attribute a
  where a.attrelid = 'public.listings'::regclass and a.attnum > 0 and not a.attisdropped;

  if not (f ? 'words' and pg_catalog.numnode(public.words_query(f->>'words')) > 0) then
    return query execute
      'select ' || columns || ' from internal.listings l where internal.listing_matches(l, $1) order by ' || internal.walk_order(walk, 'l') || ' limit $2 offset $3'
      using f, page_size, page_offset;
    return;
  end if;

  need := page_offset + page_size;
  if sort = 'relevance' then
    ids := internal.first_matches(f, 'title', walk, need);
    ids := ids || internal.first_matches(f, 'not title', walk, need - pg_catalog.cardinality(ids));
  else
    ids := internal.first_matches(f, '', walk, need);
  end if;
  return query execute
    'select ' || columns || ' from pg_catalog.unnest($1) with ordinality as p(id, n) join internal.listings l on l.id = p.id order by p.n'
    using ids[page_offset + 1:];
end
$$;

-- The exact number of matching listings.
create or replace function public.search_listings_count(filters jsonb default '{}')
returns bigint
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  f jsonb := internal.search_filters(filters);
  n bigint;
begin
  if f - 'words' = '{}'::jsonb then
    if f->>'words' is not null and pg_catalog.numnode(public.words_query(f->>'words')) > 0 then
      -- words alone: counted in the narrow copy
      perform internal.prefer_word_index(f, true);
      select count(*) into n from internal.listing_words w where w.operation = 'sale' and w.words @@ public.words_query(f->>'words');
      perform internal.prefer_word_index(f, false);
      return n;
    end if;
    -- nothing asked (or only stop words): every public listing
    select count(*) into n from internal.listings l where internal.listing_matches(l, '{}'::jsonb);
    return n;
  end if;
  -- a null array folds away in EXECUTE's one-shot plan, and an array becomes a hashed condition
  execute 'select count(*) from internal.listings l where internal.listing_matches(l, $1) and ($2::bigint[] is null or l.id + 0 = any($2))'
    into n using f - 'words', internal.word_match_ids(f);
  return n;
end
$$;

-- the listing's words are in its title or its features (Best match's first rank)
create or replace function internal.title_match(l internal.listings, f jsonb)
returns boolean
language sql
stable
as $$
  select l.title_words @@ public.words_query(f->>'words')
$$;

-- a walk order of the search (newest, price_asc, price_desc) as the ORDER BY of a table alias:
-- the order an index holds (listings_recent, listings_price_asc, listings_price_desc)
create or replace function internal.walk_order(sort text, alias text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case sort
    when 'price_asc' then pg_catalog.format('%1$s.price asc nulls last, %1$s.id asc', alias)
    when 'price_desc' then pg_catalog.format('%1$s.price desc nulls last, %1$s.id desc', alias)
    else pg_catalog.format('%1$s.created_at desc, %1$s.id desc', alias) end
$$;

-- the first `need` matches' ids in a sort's order (a walk order of the search: newest, price_asc,
-- price_desc), of those whose title matches or does not when `title` is 'title' or 'not title'
create or replace function internal.first_matches(f jsonb, title text, sort text, need integer)
returns bigint[]
language plpgsql
stable
set search_path = ''
as $$
declare
  key text := case sort when 'newest' then 'created_at' else 'price' end;
  -- a window is the listings from the first in the order to its edge, ties included
  within text := case sort when 'price_asc' then 'l.price <= $2::numeric' when 'price_desc' then 'l.price >= $2::numeric' else 'l.created_at >= $2::timestamptz' end;
  -- words in the title are in the listing's words, unless the words exclude one (-ruido): then the
  -- title's match needs no test of the whole text, which is the cost of a common word
  condition text := case
    when title = 'title' and pg_catalog.strpos(public.words_query(f->>'words')::text, '!') = 0
      then 'internal.listing_matches(l, $1 - ''words'') and internal.title_match(l, $1)'
    when title = 'title' then 'internal.listing_matches(l, $1) and internal.title_match(l, $1)'
    when title = 'not title' then 'internal.listing_matches(l, $1) and not internal.title_match(l, $1)'
    else 'internal.listing_matches(l, $1)' end;
  size bigint := need::bigint * 20;
  edge text;
  ids bigint[];
begin
  if need <= 0 then
    return '{}';
  end if;
  loop
    -- the window's edge: the sort key of its last listing (none: the window is every listing)
    edge := null;
    -- (a window is read row by row: past a few thousand rows every match through the words' index
    -- is cheaper)
    if size <= 5000 then
      execute 'select w.' || key || '::text from internal.listings w where internal.is_public_listing(w.country_code, w.status) order by '
        || internal.walk_order(sort, 'w') || ' offset $1 limit 1'
        into edge using size - 1;
    end if;
    perform internal.prefer_word_index(f, true);
    if edge is null then
      execute 'select array(select l.id from internal.listings l where ' || condition || ' order by '
        || internal.walk_order(sort, 'l') || ' limit $2)'
        into ids using f, need;
      perform internal.prefer_word_index(f, false);
      exit;
    end if;
    execute 'select array(select l.id from internal.listings l where ' || condition || ' and ' || within
      || ' order by ' || internal.walk_order(sort, 'l') || ' limit $3)'
      into ids using f, edge, need;
    perform internal.prefer_word_index(f, false);
    exit when pg_catalog.cardinality(ids) >= need;
    -- the next window: large enough for the matches this one held to fill the page, twice over
    size := case when pg_catalog.cardinality(ids) = 0 then size * 20 else pg_catalog.ceil(size * need * 2.0 / pg_catalog.cardinality(ids))::bigint end;
  end loop;
  return ids;
end
$$;

-- the ids of the public listings whose words match, from the narrow copy (its GIN index: the
-- planner would otherwise test the words of every row of a common word's table)
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
  ids := array(select w.id from internal.listing_words w where w.words @@ public.words_query(f->>'words'));
  perform internal.prefer_word_index(f, false);
  return ids;
end
$$;

-- ─── supabase/schemas/31_places.sql ───

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

-- the other names people give places (folded, as searched)
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
           -- what a search of the place without an operation finds: its listings for sale
           (count(*) filter (where l.operation = 'sale'))::integer as n,
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
    where (o.state, o.city, o.sector, o.status, o.country_code, o.map_lat, o.map_lng, o.operation)
          is distinct from (n.state, n.city, n.sector, n.status, n.country_code, n.map_lat, n.map_lng, n.operation);
  end if;
  if provinces is not null then perform internal.places_recount(provinces, cities); end if;
  return null;
end
$$;

create trigger places_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.places_changed();

create trigger places_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.places_changed();

create trigger places_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.places_changed();

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
set plan_cache_mode = 'force_custom_plan'
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

-- ─── supabase/schemas/32_map.sql ───

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
    on internal.is_public_listing(l.country_code, l.status) and l.operation = 'sale'
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
  xs double precision[];
  ys double precision[];
begin
  -- a bulk load (the seed) counts every cell once at its end (internal.listing_cells_rebuild())
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  if tg_op = 'INSERT' then
    select array_agg(map_x), array_agg(map_y) into xs, ys from new_rows where internal.is_public_listing(country_code, status) and operation = 'sale';
  elsif tg_op = 'DELETE' then
    select array_agg(map_x), array_agg(map_y) into xs, ys from old_rows where internal.is_public_listing(country_code, status) and operation = 'sale';
  else
    -- a listing that moved, changed price or became (in)active: its old cell and its new one, each if public
    select array_agg(c.x), array_agg(c.y) into xs, ys
    from old_rows o
    join new_rows n using (id)
    cross join lateral (values (o.map_x, o.map_y, o.country_code, o.status, o.operation), (n.map_x, n.map_y, n.country_code, n.status, n.operation)) c(x, y, country_code, status, operation)
    where (o.map_x, o.map_y, o.price, o.status, o.country_code, o.map_approximate, o.operation)
          is distinct from (n.map_x, n.map_y, n.price, n.status, n.country_code, n.map_approximate, n.operation)
      and internal.is_public_listing(c.country_code, c.status) and c.operation = 'sale';
  end if;
  if xs is not null then perform internal.listing_cells_recount(internal.listing_cell_index(xs), internal.listing_cell_index(ys)); end if;
  return null;
end
$$;

create trigger listing_cells_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.listing_cells_changed();

create trigger listing_cells_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.listing_cells_changed();

create trigger listing_cells_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.listing_cells_changed();

-- the places of every listing, counted again (after a bulk load that deferred them, with the cells)
create or replace function internal.listing_cells_rebuild()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from internal.listing_cells;
  select internal.listing_cells_recount(internal.listing_cell_index(array_agg(map_x)), internal.listing_cell_index(array_agg(map_y)))
  from internal.listings where internal.is_public_listing(country_code, status) and operation = 'sale'
  having count(*) > 0;
  delete from internal.places;
  select internal.places_recount(array_agg(distinct state_slug), array_agg(distinct city_slug)) from internal.listings;
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

-- ─── supabase/schemas/34_valuation.sql ───

-- What a home may ask (docs/valuation.md): an estimate of its asking price from the active
-- listings around it, for a seller's first question. One rule, read by <exp-home-valuation>, the
-- seller's mails and the monthly home report alike, through /rest/v1/rpc/estimate_value.

-- A number of the facts, or null when it is not given; anything else is refused, naming the field.
create or replace function internal.fact_number(facts jsonb, field text, low double precision, high double precision)
returns double precision
language plpgsql
immutable
set search_path = ''
as $$
declare
  v jsonb := facts -> field;
begin
  if v is null or v = 'null'::jsonb then
    return null;
  end if;
  if pg_catalog.jsonb_typeof(v) <> 'number' or (v::text)::double precision not between low and high then
    raise exception '%: must be a number from % to %', field, low, high using errcode = '22023';
  end if;
  return (v::text)::double precision;
end
$$;

-- Solves a x = b for a square matrix (row by row in `a`) by Gaussian elimination with partial
-- pivoting; the estimate's weighted least squares (a handful of unknowns) are solved with it.
create or replace function internal.solve_linear(a double precision[], b double precision[])
returns double precision[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  n integer := pg_catalog.array_length(b, 1);
  m double precision[] := a;
  x double precision[] := b;
  best integer;
  f double precision;
  t double precision;
begin
  for col in 1..n loop
    best := col;
    for r in col + 1..n loop
      if abs(m[(r - 1) * n + col]) > abs(m[(best - 1) * n + col]) then
        best := r;
      end if;
    end loop;
    if abs(m[(best - 1) * n + col]) < 1e-12 then
      return null;
    end if;
    if best <> col then
      for c in 1..n loop
        t := m[(col - 1) * n + c]; m[(col - 1) * n + c] := m[(best - 1) * n + c]; m[(best - 1) * n + c] := t;
      end loop;
      t := x[col]; x[col] := x[best]; x[best] := t;
    end if;
    for r in col + 1..n loop
      f := m[(r - 1) * n + col] / m[(col - 1) * n + col];
      if f <> 0 then
        for c in col..n loop
          m[(r - 1) * n + c] := m[(r - 1) * n + c] - f * m[(col - 1) * n + c];
        end loop;
        x[r] := x[r] - f * x[col];
      end if;
    end loop;
  end loop;
  for r in reverse n..1 loop
    t := x[r];
    for c in r + 1..n loop
      t := t - m[(r - 1) * n + c] * x[c];
    end loop;
    x[r] := t / m[(r - 1) * n + r];
  end loop;
  return x;
end
$$;

-- The weighted quantile `q` of values with weights (both arrays the same length).
create or replace function internal.weighted_quantile(vals double precision[], weights double precision[], q double precision)
returns double precision
language sql
immutable
set search_path = ''
as $$
  with v as (
    select u.v, u.w, sum(u.w) over (order by u.v, u.n) as upto, sum(u.w) over () as total
      from unnest(vals, weights) with ordinality u(v, w, n)
     where u.w > 0
  )
  select v.v from v where v.upto >= q * v.total order by v.upto limit 1
$$;

-- The estimate (docs/valuation.md has the method and its measured accuracy). `facts`: `lat` and
-- `lng` (or `place`, a path of the location box), `property_type`, `area_m2` (the lot for land:
-- `lot_m2`), and what else is known: `bedrooms`, `bathrooms`, `year_built`, `lot_m2`, `features`;
-- `listing_id`, the home's own listing when it is on the market, is left out of its comparables.
-- Answers `value`, `low`, `high` (null, with `reason`, when too few listings are near), `usd_m2`,
-- `confidence`, the `comparables` it stood on (the closest in weight first), the `place` it is in
-- with its `market` (the index's figure), and `demand`: how many confirmed saved searches a home
-- like it matches (a count only).
create or replace function public.estimate_value(facts jsonb)
returns jsonb
language plpgsql
stable
-- it reads the listings' rows and the saved searches (closed to the public key) to answer figures and a count
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  f jsonb := facts;
  kind text;
  grp text;
  kinds text[];
  built double precision;
  lot double precision;
  area double precision;
  beds double precision;
  baths double precision;
  built_year double precision;
  feats text[];
  has_feats boolean;
  at_lat double precision;
  at_lng double precision;
  place text;
  own bigint;
  shrink double precision;
  -- the comparables: at most 80 nearest of the type, within 30 km
  c record;
  ids bigint[] := '{}';
  -- whether each comparable is in the home's sector (the place's, else the nearest comparable's)
  home_sector text;
  same boolean[] := '{}';
  d double precision[] := '{}';
  y double precision[] := '{}';
  xs double precision[] := '{}';
  w double precision[] := '{}';
  n integer := 0;
  p constant integer := 7;
  h double precision;
  x double precision[];
  ata double precision[];
  atb double precision[];
  prior constant double precision[] := array[0, -0.15, 0.03, 0.02, 0.04, 0.05, 0.03];
  mean double precision[];
  var double precision[];
  sw double precision;
  sw2 double precision;
  neff double precision;
  b double precision[];
  r double precision[] := '{}';
  fit double precision;
  lo double precision;
  hi double precision;
  inflate double precision;
  value double precision;
  low double precision;
  high double precision;
  confidence text;
  comps jsonb;
  near_path text;
  near_name text;
  market jsonb;
  agent jsonb;
  demand integer;
  subject internal.listings;
begin
  if f is null or pg_catalog.jsonb_typeof(f) <> 'object' then
    raise exception 'facts: must be a JSON object' using errcode = '22023';
  end if;
  kind := f ->> 'property_type';
  if kind is null or kind not in ('house', 'apartment', 'land', 'office', 'business_premises', 'commercial_building', 'suite', 'quinta') then
    raise exception 'property_type: must be house, apartment, land, office, business_premises, commercial_building, suite or quinta' using errcode = '22023';
  end if;
  grp := internal.market_type_group(kind);
  -- a suite is compared with flats too, a quinta with houses (there are few of either)
  kinds := case when grp = 'commercial' then array['office', 'business_premises', 'commercial_building']
                when kind = 'suite' then array['suite', 'apartment'] when kind = 'quinta' then array['quinta', 'house']
                else array[kind] end;
  built := internal.fact_number(f, 'area_m2', 15, 20000);
  lot := internal.fact_number(f, 'lot_m2', 15, 2000000);
  beds := internal.fact_number(f, 'bedrooms', 0, 30);
  baths := internal.fact_number(f, 'bathrooms', 0, 30);
  built_year := internal.fact_number(f, 'year_built', 1800, extract(year from now()) + 3);
  own := internal.fact_number(f, 'listing_id', 1, 9e15)::bigint;
  area := case when kind = 'land' then lot else built end;
  if area is null then
    raise exception '%: is needed for this type', case when kind = 'land' then 'lot_m2' else 'area_m2' end using errcode = '22023';
  end if;
  has_feats := f ? 'features' and f -> 'features' <> 'null'::jsonb;
  if has_feats then
    if pg_catalog.jsonb_typeof(f -> 'features') <> 'array'
       or exists (select 1 from pg_catalog.jsonb_array_elements(f -> 'features') e
                   where pg_catalog.jsonb_typeof(e) <> 'string' or e #>> '{}' not in ('pool', 'view', 'waterfront', 'garage', 'new_construction', 'air_conditioning')) then
      raise exception 'features: must be a list of pool, view, waterfront, garage, new_construction, air_conditioning' using errcode = '22023';
    end if;
    select coalesce(pg_catalog.array_agg(distinct e), '{}') into feats from pg_catalog.jsonb_array_elements_text(f -> 'features') e;
  end if;
  -- where: a point in Ecuador (the mainland or the Galápagos), else a place of the location box
  at_lat := internal.fact_number(f, 'lat', -90, 90);
  at_lng := internal.fact_number(f, 'lng', -180, 180);
  if (at_lat is null) <> (at_lng is null) then
    raise exception '%: lat and lng go together', case when at_lat is null then 'lat' else 'lng' end using errcode = '22023';
  end if;
  if at_lat is not null then
    if not ((at_lat between -5.1 and 1.7 and at_lng between -81.2 and -75.1) or (at_lat between -1.6 and 0.7 and at_lng between -92.1 and -89.2)) then
      raise exception 'lat: the point is not in Ecuador' using errcode = '22023';
    end if;
  else
    place := f ->> 'place';
    if place is null then
      raise exception 'lat: where the home is (lat and lng, or a place) is needed' using errcode = '22023';
    end if;
    select pl.lat, pl.lng into at_lat, at_lng from internal.places pl where pl.path = place;
    if at_lat is null then
      raise exception 'place: no place of ours is called %', pg_catalog.left(place, 80) using errcode = '22023';
    end if;
  end if;
  shrink := cos(radians(at_lat));

  -- the nearest active listings of the type, by the GiST index of their position
  for c in
    select l.id, l.price::double precision as price, l.square_feet::double precision as built, l.lot_size::double precision as lot,
           l.bedrooms::double precision as beds, l.bathrooms::double precision as baths, l.year_built::double precision as year, l.features,
           l.city_slug || '/' || coalesce(l.sector_slug, '') as sector,
           sqrt(power((l.location[1] - at_lat) * 111320, 2) + power((l.location[0] - at_lng) * 111320 * shrink, 2)) as dist
      from internal.listings l
     where l.country_code = 'EC' and l.status = '1' and l.operation = 'sale' and l.location is not null and l.property_type = any (kinds) and l.price > 0
       and l.id is distinct from own
     order by l.location <-> point(at_lng, at_lat)
     limit 80
  loop
    continue when c.dist > 30000;
    continue when (case when kind = 'land' then c.lot else c.built end) is null or (case when kind = 'land' then c.lot else c.built end) < 15;
    n := n + 1;
    home_sector := coalesce(home_sector, case when place like '%/%' then place end, c.sector);
    same := same || (c.sector = home_sector);
    ids := ids || c.id;
    d := d || c.dist;
    y := y || ln(c.price / (case when kind = 'land' then c.lot else c.built end));
    -- what the home and the comparable differ in, each 0 where either does not say
    xs := xs || array[
      1,
      ln((case when kind = 'land' then c.lot else c.built end) / area),
      case when built_year is null or c.year is null then 0 else (c.year - built_year) / 10 end,
      case when beds is null or c.beds is null then 0 else c.beds - beds end,
      case when baths is null or c.baths is null then 0 else c.baths - baths end,
      case when kind = 'land' or lot is null or c.lot is null then 0 else ln((1 + c.lot) / (1 + lot)) end,
      case when not has_feats then 0 else coalesce(pg_catalog.cardinality(c.features), 0) - coalesce(pg_catalog.cardinality(feats), 0) end
    ]::double precision[];
  end loop;

  if n < 5 then
    return pg_catalog.jsonb_build_object('value', null, 'low', null, 'high', null, 'usd_m2', null, 'confidence', 'none',
      'reason', 'too_few_comparables', 'comparables', '[]'::jsonb, 'place', null, 'market', null, 'agent', null, 'demand', 0, 'method', 'local-regression-1');
  end if;

  -- weights: nearer (a tricube over the distance of the 25th, at least 1 km), closer in size, and
  -- in the same sector (a sector's price level is its own: a street apart may be another market)
  h := greatest(d[least(n, 25)] * 1.2, 1000);
  for i in 1..n loop
    w := w || (case when d[i] >= h then 0.01 else power(1 - power(d[i] / h, 3), 3) end) * exp(-0.5 * power(xs[(i - 1) * p + 2] / 0.5, 2))
              * (case when same[i] then 3 else 1 end);
  end loop;
  sw := 0; sw2 := 0;
  for i in 1..n loop sw := sw + w[i]; sw2 := sw2 + w[i] * w[i]; end loop;
  neff := sw * sw / sw2;

  -- weighted least squares of ln(USD/m²) on the differences, each coefficient drawn toward its
  -- prior as much as its spread among the comparables is small (a ridge scaled per column)
  mean := pg_catalog.array_fill(0::double precision, array[p]);
  var := pg_catalog.array_fill(0::double precision, array[p]);
  for j in 1..p loop
    for i in 1..n loop mean[j] := mean[j] + w[i] * xs[(i - 1) * p + j] / sw; end loop;
    for i in 1..n loop var[j] := var[j] + w[i] * power(xs[(i - 1) * p + j] - mean[j], 2) / sw; end loop;
  end loop;
  ata := pg_catalog.array_fill(0::double precision, array[p * p]);
  atb := pg_catalog.array_fill(0::double precision, array[p]);
  for i in 1..n loop
    for j in 1..p loop
      atb[j] := atb[j] + w[i] * xs[(i - 1) * p + j] * y[i];
      for k in 1..p loop
        ata[(j - 1) * p + k] := ata[(j - 1) * p + k] + w[i] * xs[(i - 1) * p + j] * xs[(i - 1) * p + k];
      end loop;
    end loop;
  end loop;
  for j in 2..p loop
    ata[(j - 1) * p + j] := ata[(j - 1) * p + j] + sw * (0.5 * var[j] + 1e-6);
    atb[j] := atb[j] + sw * (0.5 * var[j] + 1e-6) * prior[j];
  end loop;
  b := internal.solve_linear(ata, atb);
  if b is null then
    b := array[internal.weighted_quantile(y, w, 0.5), prior[2], 0, 0, 0, 0, 0];
  end if;
  -- the home is where every difference is 0: its ln(USD/m²) is the intercept
  for i in 1..n loop
    fit := 0;
    for j in 1..p loop fit := fit + b[j] * xs[(i - 1) * p + j]; end loop;
    r := r || (y[i] - fit);
  end loop;
  -- the range: the comparables' misfit, widened for what the fit used up of them
  inflate := 1.05 * sqrt(neff / greatest(neff - 3, 1));
  lo := internal.weighted_quantile(r, w, 0.1) * inflate;
  hi := internal.weighted_quantile(r, w, 0.9) * inflate;
  value := exp(b[1]) * area;
  low := value * exp(least(lo, -0.04));
  high := value * exp(greatest(hi, 0.04));
  confidence := case when neff >= 12 and (high - low) / value <= 0.3 then 'high' when neff >= 5 and (high - low) / value <= 0.5 then 'medium' else 'low' end;

  -- the comparables, the heaviest first, with what each says the home asks
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', l.id, 'title', l.title, 'price', l.price, 'area_m2', l.square_feet, 'lot_m2', l.lot_size, 'bedrooms', l.bedrooms,
           'bathrooms', l.bathrooms, 'property_type', l.property_type, 'city', l.city, 'sector', l.sector, 'images', l.images,
           'distance_m', round(u.dist), 'usd_m2', round((exp(u.y))::numeric, 2),
           'adjusted', round((exp(b[1] + u.r) * area / 1000)::numeric) * 1000
         ) order by u.w desc, l.id), '[]'::jsonb)
    into comps
    from (
      select t.id, t.dist, t.y, t.r, t.w
        from unnest(ids, d, y, r, w) as t(id, dist, y, r, w)
       order by t.w desc, t.id
       limit 6
    ) u
    join internal.listings l on l.id = u.id;

  -- the place: the sector (else the city) of the nearest comparable, and its market figure
  select case when coalesce(l.sector_slug, '') <> '' then l.city_slug || '/' || l.sector_slug else l.city_slug end
    into near_path
    from internal.listings l where l.id = ids[1];
  select pl.name into near_name from internal.places pl where pl.path = near_path;
  select pg_catalog.jsonb_build_object('path', m.path, 'name', m.name, 'month', m.month, 'median', m.median, 'listings', m.listings,
           'year_before', (select y.median from public.market_index(near_path, grp, 14) y where y.month = (m.month - interval '12 months')::date and y.path = m.path))
    into market
    from public.market_index(near_path, grp, 2) m
   where m.month = (date_trunc('month', now()) - interval '1 month')::date;

  -- the agent who serves it (a seller's lead goes to them)
  select pg_catalog.jsonb_build_object('id', a.id, 'name', nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), ''), 'picture', a.picture)
    into agent
    from public.agents a
   where a.id = internal.area_agent(near_path);

  -- buyers whose confirmed saved searches a home like this, at this value, would match
  subject := pg_catalog.jsonb_populate_record(null::internal.listings, pg_catalog.jsonb_build_object(
    'country_code', 'EC', 'status', '1', 'operation', 'sale', 'property_type', kind, 'price', round(value), 'bedrooms', beds, 'bathrooms', baths,
    'square_feet', built, 'lot_size', lot, 'year_built', built_year, 'features', coalesce(feats, '{}'),
    'lat', at_lat, 'lng', at_lng, 'location', point(at_lng, at_lat)::text,
    'city_slug', (select l.city_slug from internal.listings l where l.id = ids[1]),
    'sector_slug', (select l.sector_slug from internal.listings l where l.id = ids[1]),
    'state_slug', (select l.state_slug from internal.listings l where l.id = ids[1]),
    'place_search', (select l.place_search from internal.listings l where l.id = ids[1])
  ));
  select count(*)::integer into demand
    from internal.saved_searches s
   where s.status = 'active' and s.market is null and s.home is null and not s.spam and internal.listing_matches(subject, s.filters);

  return pg_catalog.jsonb_build_object(
    'value', round(value / 1000) * 1000,
    'low', round(low / 1000) * 1000,
    'high', round(high / 1000) * 1000,
    'usd_m2', round((value / area)::numeric, 2),
    'confidence', confidence,
    'comparables', comps,
    'place', case when near_path is null then null else pg_catalog.jsonb_build_object('path', near_path, 'name', coalesce(near_name, near_path)) end,
    'market', market,
    'agent', agent,
    'demand', demand,
    'method', 'local-regression-1'
  );
end
$$;

-- The agents who serve a place (docs/valuation.md "The seller's lead"): those whose locations
-- served name its sector, then those who name its city (folded, as the directory compares names);
-- each kind, the one with the most active listings in that city first, then by id. Answers the
-- place they serve (the one asked for, or its city when none names the place itself) and the
-- agents' ids in that order (their public columns are read from
-- public.agents as the directory reads them); an unknown place, no ids.
create or replace function public.area_agents(place text)
returns jsonb
language sql
stable
-- it reads the places and the listings (closed to the public key) to answer ids and a place's name
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  with p as (
    select pl.path, pl.name, public.search_fold(pl.name) as folded,
           public.search_fold((select c.name from internal.places c where c.path = pg_catalog.split_part(area_agents.place, '/', 1))) as city
      from internal.places pl
     where pl.path = pg_catalog.left(area_agents.place, 200)
  ),
  serving as (
    select a.id,
           exists (select 1 from pg_catalog.unnest(a.locations_served) s(x) where public.search_fold(s.x) = p.folded) as names_it,
           (select count(*) from internal.listings l where l.agent_id = a.id and l.status = '1' and l.city_slug = pg_catalog.split_part(p.path, '/', 1)) as listings
      from public.agents a
      cross join p
     where a.country_code = 'EC'
       and exists (select 1 from pg_catalog.unnest(a.locations_served) s(x) where public.search_fold(s.x) in (p.folded, p.city))
  )
  -- the place they serve: the one asked for, or its city when they all name only the city
  select pg_catalog.jsonb_build_object(
           'place', (select case when exists (select 1 from serving s where not s.names_it) and not exists (select 1 from serving s where s.names_it)
                                 then (select pg_catalog.jsonb_build_object('path', c.path, 'name', c.name) from internal.places c where c.path = pg_catalog.split_part(p.path, '/', 1))
                                 else pg_catalog.jsonb_build_object('path', p.path, 'name', p.name) end
                       from p),
           'agents', coalesce((select pg_catalog.jsonb_agg(s.id order by s.names_it desc, s.listings desc, s.id) from serving s), '[]'::jsonb))
$$;

-- The agent a seller's lead about a place goes to: the first of public.area_agents() with an
-- e-mail. Null when none does.
create or replace function internal.area_agent(place text)
returns bigint
language sql
stable
set search_path = ''
as $$
  select a.id
    from pg_catalog.jsonb_array_elements_text(public.area_agents(area_agent.place) -> 'agents') with ordinality as o(id, n)
    join public.agents a on a.id = o.id::bigint
   where coalesce(btrim(a.email), '') <> ''
   order by o.n
   limit 1
$$;

-- ─── supabase/schemas/40_inquiries.sql ───

-- Property inquiries (docs/product.md §6; docs/leads.md): stored before any delivery, their e-mail
-- queued in the outbox (41_outbox.sql) in the same transaction. Row level security with no policy:
-- the public key reads and writes nothing; the inquiry function writes them.

create table public.inquiries (
  id uuid primary key default gen_random_uuid(),
  -- one inquiry per key: a double click or a retry never makes two
  idempotency_key text not null unique,
  listing_id bigint,
  agent_id bigint,
  name text not null,
  email text not null,
  phone text,
  message text,
  property_title text,
  property_address text,
  property_price text,
  -- what the browser asked for, and who really gets it (docs/decisions.md #9)
  requested_recipient text,
  recipient_email text not null,
  recipient_kind text not null,
  client_hash text,
  origin text,
  user_agent text,
  lang text,
  spam boolean not null default false,
  received_at timestamptz not null default now(),
  -- the lead's owner (an element's lead-agent-id, or the deployment's), and the copy for the listing's agent
  lead_agent_id bigint,
  copy_recipient text,
  -- where the visitor came from: the page (without its query), the element, the page's UTM parameters
  page_url text,
  element text,
  utm jsonb,
  -- a seller's lead (docs/valuation.md "The seller's lead"): the home's facts, when they plan to sell,
  -- whether they also buy, and the estimate the database made of it when the lead came
  seller jsonb,
  constraint inquiries_recipient_kind_check check (recipient_kind in ('listing_agent', 'agent', 'team', 'lead_agent', 'area_agent'))
);

alter table public.inquiries enable row level security;

comment on table public.inquiries is 'Property inquiries: stored before any delivery; their e-mail waits in internal.mail_outbox.';

create index inquiries_rate on public.inquiries (client_hash, received_at desc);

-- ─── supabase/schemas/41_outbox.sql ───

-- One outbox for every e-mail the site sends (inquiries, alert confirmations, alerts, webhooks). A mail is
-- queued in the same transaction as what it is about, then delivered from here by a worker that
-- claims it with a lease (a token, renewed while the SMTP server is talking), marks it sent, and on
-- a passing failure retries with backoff. The message is composed when it is sent, from `kind`,
-- `ref_id` and `payload`, so a mail whose subject went away (an alert unsubscribed) is dropped.
-- See docs/architecture.md, "Mail".

create table internal.mail_outbox (
  id bigint generated always as identity primary key,
  kind text not null,
  -- what the mail is about (an inquiry id, ...): one mail per kind and ref
  ref_id text not null,
  recipient text not null,
  payload jsonb not null default '{}'::jsonb,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'dropped')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  lease_token uuid,
  last_error text,
  -- failures that only time can fix (SMTP away); a successful probe of SMTP makes these due at once
  transient_failure boolean not null default false,
  message_id text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  unique (kind, ref_id)
);

alter table internal.mail_outbox enable row level security;

comment on table internal.mail_outbox is 'Every e-mail the site sends, queued with what it is about and delivered from here (leased, retried, never twice).';

create index mail_outbox_pending on internal.mail_outbox (next_attempt_at) where status = 'pending';

create index mail_outbox_sending on internal.mail_outbox (locked_until) where status = 'sending';

create index mail_outbox_webhooks on internal.mail_outbox (recipient, status) where kind = 'webhook';

-- ─── supabase/schemas/42_saved_searches.sql ───

create table internal.saved_searches (
  id bigint generated always as identity primary key,
  email text not null,
  -- one saved search per address and filters (the same request twice makes one)
  email_key text not null,
  filters jsonb not null,
  filters_key text not null,
  -- 'monthly' is a market follow's, and only its (the check below)
  frequency text not null check (frequency in ('instant', 'daily', 'weekly', 'monthly')),
  lang text not null check (lang in ('en', 'es')),
  status text not null default 'pending' check (status in ('pending', 'active', 'paused', 'unsubscribed', 'expired')),
  created_at timestamptz not null default now(),
  -- an unconfirmed request is gone after this
  expires_at timestamptz not null,
  confirmed_at timestamptz,
  unsubscribed_at timestamptz,
  -- the high-water mark: what came on the market or dropped in price until here has been looked at
  sent_through timestamptz,
  -- when the alert job next looks at this search
  next_run_at timestamptz,
  last_alert_at timestamptz,
  idempotency_key text not null unique,
  client_hash text not null,
  spam boolean not null default false,
  origin text,
  user_agent text,
  -- the lead's owner and where the visitor came from, as for an inquiry (40_inquiries.sql)
  lead_agent_id bigint,
  page_url text,
  element text,
  utm jsonb,
  -- a market follow (docs/market.md "Follow a market"): { place, type_group, name }, the place's
  -- report mailed each month; its filters are empty. Null for a search's alerts.
  market jsonb,
  -- a home report (docs/valuation.md "A report every month"): the home's facts, its estimate mailed
  -- each month with its comparables, its sector's trend and buyer demand. Null otherwise.
  home jsonb,
  constraint saved_searches_market check ((market is not null or home is not null) = (frequency = 'monthly') and (market is null or home is null))
);

alter table internal.saved_searches enable row level security;

comment on table internal.saved_searches is 'Saved searches with e-mail alerts, and market follows (double opt-in). Read and written only by the saved-searches function.';

create unique index saved_searches_one on internal.saved_searches (email_key, filters_key) where status in ('pending', 'active', 'paused') and not spam;

create index saved_searches_due on internal.saved_searches (next_run_at) where status = 'active';

create index saved_searches_rate on internal.saved_searches (client_hash, created_at desc);

-- Tokens of the links in the mails: 32 random bytes, kept as their SHA-256 only. A confirmation
-- token works once; manage and unsubscribe tokens work until they expire.
create table internal.saved_search_tokens (
  token_hash text primary key,
  search_id bigint not null references internal.saved_searches (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'manage', 'unsubscribe')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table internal.saved_search_tokens enable row level security;

comment on table internal.saved_search_tokens is 'SHA-256 of the tokens in the alert mails'' links (confirm, manage, unsubscribe).';

create index saved_search_tokens_search on internal.saved_search_tokens (search_id);

-- One alert: what one run found for one search. Its mail (kind 'alert') is composed from it when sent.
create table internal.search_alerts (
  id bigint generated always as identity primary key,
  search_id bigint not null references internal.saved_searches (id) on delete cascade,
  window_from timestamptz,
  window_to timestamptz not null,
  -- [{ id, kind: 'new' | 'drop', old_price }], newest first, at most ALERT_ITEMS
  items jsonb not null,
  new_count integer not null,
  drop_count integer not null,
  created_at timestamptz not null default now()
);

alter table internal.search_alerts enable row level security;

comment on table internal.search_alerts is 'What one alert run found for one saved search: the new listings and price drops its mail lists.';

create index search_alerts_search on internal.search_alerts (search_id, created_at desc);

-- When a market follow's next report is mailed (docs/market.md "Follow a market"): the 1st of the
-- month after `after`, at 08:00 in Ecuador, when the month before has closed and the index has it.
create or replace function internal.next_market_mail(after timestamptz)
returns timestamptz
language sql
immutable
set search_path = ''
as $$
  select (pg_catalog.date_trunc('month', after at time zone 'America/Guayaquil') + interval '1 month 8 hours') at time zone 'America/Guayaquil'
$$;

-- ─── supabase/schemas/43_settings.sql ───

-- Closed to abuse (docs/decisions.md #24).
--
-- Private settings of the deployment that the database keeps for every process that serves it
-- (our server, the deployed functions): the salt of the client hashes is made at random the first
-- time it is needed (core/functions/function-http.ts clientSalt), so it is in no code
-- and no two deployments share one. Closed to the public key.
create table internal.settings (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

alter table internal.settings enable row level security;

comment on table internal.settings is 'Private settings every server process reads alike (the salt of the client hashes). Never readable with the public key.';

-- ─── supabase/schemas/44_webhooks.sql ───

create table internal.webhook_endpoints (
  id bigint generated always as identity primary key,
  url text not null,
  events text[] not null check (cardinality(events) > 0 and events <@ array['inquiry.created', 'alert.confirmed', 'alert.unsubscribed', 'seller.lead.created', 'visit.requested', 'visit.confirmed', 'visit.cancelled']),
  -- whsec_<base64 of 24 random bytes>: the key the deliveries are signed with (Standard Webhooks)
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
  description text,
  -- a development endpoint on a private network or over http (npm run webhooks -- add --dev)
  allow_private boolean not null default false,
  created_at timestamptz not null default now(),
  disabled_at timestamptz
);

alter table internal.webhook_endpoints enable row level security;

-- ─── supabase/schemas/45_visits.sql ───

-- Visits (docs/visits.md): the times an agent can show a home, a visitor's request of up to three
-- of them, and the visit the agent confirms, held against double booking by a constraint.

-- An agent's weekly visiting hours in Ecuador's time (America/Guayaquil). An agent without a row
-- here visits Monday to Saturday, 9:00 to 18:00 (internal.visiting_hours).
create table internal.agent_visiting_hours (
  agent_id bigint not null references public.agents (id) on delete cascade,
  -- ISO day of the week: 1 Monday ... 7 Sunday
  weekday smallint not null check (weekday between 1 and 7),
  opens time not null,
  closes time not null,
  primary key (agent_id, weekday, opens),
  check (closes > opens)
);

alter table internal.agent_visiting_hours enable row level security;

-- A visitor's request to see a listing: how (in person or by video call), the times proposed (one
-- to three, each an hour), who asks, and where it went (the lead's owner rules, as an inquiry).
create table internal.visit_requests (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  -- whose calendar the times are of: the agent the request went to (null: the team's)
  agent_id bigint references public.agents (id) on delete set null,
  recipient_email text not null,
  mode text not null check (mode in ('in_person', 'video')),
  proposed timestamptz[] not null check (cardinality(proposed) between 1 and 3),
  name text not null,
  email text not null,
  phone text,
  message text,
  -- the visitor's language and time zone (an IANA name), for their mails and times
  lang text not null default 'es' check (lang in ('en', 'es')),
  time_zone text not null default 'America/Guayaquil',
  status text not null default 'requested' check (status in ('requested', 'confirmed', 'cancelled')),
  created_at timestamptz not null default now(),
  -- the inquiry it came as (its idempotency key, client, attribution and lead's owner are there)
  inquiry_id uuid unique references public.inquiries (id) on delete cascade
);

alter table internal.visit_requests enable row level security;

create index visit_requests_listing on internal.visit_requests (listing_id, created_at);

-- A confirmed visit: one of its request's times, in the agent's calendar. No two confirmed visits
-- of one agent overlap: an exclusion constraint, so two confirmations at once cannot both win.
create table internal.visits (
  id bigint generated always as identity primary key,
  request_id bigint not null unique references internal.visit_requests (id) on delete cascade,
  agent_id bigint references public.agents (id) on delete set null,
  during tstzrange not null,
  status text not null default 'confirmed' check (status in ('confirmed', 'cancelled')),
  -- RFC 5545 SEQUENCE: 0 when confirmed, one more for each change (a cancellation)
  sequence integer not null default 0,
  -- the address, or the video call's link the agent gave
  location text,
  confirmed_at timestamptz not null default now(),
  cancelled_at timestamptz,
  constraint visits_no_double_booking exclude using gist (agent_id with =, during with &&) where (status = 'confirmed')
);

alter table internal.visits enable row level security;

-- How long a visit takes, how soon it may be, how far ahead, and the step of its start times.
create or replace function internal.visit_rules()
returns table (length interval, lead_time interval, horizon interval, step interval)
language sql
immutable
as $$
  select interval '1 hour', interval '2 hours', interval '14 days', interval '30 minutes'
$$;

-- An agent's hours, each day of the week (the default when the agent has none, or for the team).
create or replace function internal.visiting_hours(agent bigint)
returns table (weekday smallint, opens time, closes time)
language sql
stable
set search_path = ''
as $$
  select h.weekday, h.opens, h.closes from internal.agent_visiting_hours h where h.agent_id = visiting_hours.agent
  union all
  select d::smallint, time '09:00', time '18:00'
    from pg_catalog.generate_series(1, 6) d
   where not exists (select 1 from internal.agent_visiting_hours h where h.agent_id = visiting_hours.agent)
$$;

-- The times a visit may start with this agent (null: the team) between `from_at` and `to_at`:
-- within the agent's hours in Ecuador's time, on the step, from the lead time to the horizon, and
-- never over a visit already confirmed.
create or replace function internal.open_visit_times(agent bigint, from_at timestamptz, to_at timestamptz)
returns setof timestamptz
language sql
stable
set search_path = ''
as $$
  with r as (select * from internal.visit_rules()),
  days as (
    select d::date as day
      from pg_catalog.generate_series((greatest(from_at, now()) at time zone 'America/Guayaquil')::date,
                                      (least(to_at, now() + (select r.horizon from r)) at time zone 'America/Guayaquil')::date, interval '1 day') d
  )
  select t.start
    from days
    join internal.visiting_hours(agent) h on h.weekday = extract(isodow from days.day)
    cross join r
    cross join lateral pg_catalog.generate_series((days.day + h.opens) at time zone 'America/Guayaquil',
                                                  (days.day + h.closes) at time zone 'America/Guayaquil' - r.length, r.step) t(start)
   where t.start >= greatest(from_at, now() + r.lead_time) and t.start <= least(to_at, now() + r.horizon)
     and not exists (select 1 from internal.visits v
                      where v.agent_id = open_visit_times.agent and v.status = 'confirmed'
                        and v.during && pg_catalog.tstzrange(t.start, t.start + r.length))
   order by t.start
$$;

-- The times a visitor may propose to see a listing over the next 14 days, in its agent's calendar
-- (`agent_id`: an element's lead owner, else the listing's agent). Times only: nobody's visits.
create or replace function public.visit_times(listing_id bigint, agent_id bigint default null)
returns setof timestamptz
language sql
stable
-- it reads the listings' agents and the confirmed visits (closed to the public key) to answer times
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select t
    from internal.listings l
    cross join lateral internal.open_visit_times(
      coalesce((select a.id from public.agents a where a.id = visit_times.agent_id and a.country_code = 'EC'), l.agent_id),
      now(), now() + interval '14 days') t
   where l.id = visit_times.listing_id and l.country_code = 'EC' and l.status = '1'
$$;

-- The links of the visit mails (docs/visits.md "The links"): each does one thing for one request
-- (confirm its first, second or third time; propose another; cancel; ask for another time), kept
-- only as the SHA-256 of its token (the mail has the token), until it expires; used once.
create table internal.visit_tokens (
  token_hash text primary key,
  request_id bigint not null references internal.visit_requests (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'propose', 'cancel', 'reschedule')),
  -- a confirmation's time (1 to 3)
  choice smallint check ((purpose = 'confirm') = (choice is not null)),
  -- whose link it is: the agent's or the visitor's
  holder text not null check (holder in ('agent', 'visitor')),
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table internal.visit_tokens enable row level security;

create index visit_tokens_request on internal.visit_tokens (request_id);

-- The visit confirmed: the request's `choice` (1 to 3) becomes a visit in its agent's calendar.
-- Answers 'confirmed', or why not: 'taken' (another visit holds that time: the constraint says so
-- even when two confirmations run at once), 'past' (the time is no longer ahead), 'done' (the
-- request is confirmed or cancelled already), 'unknown' (no such request or time).
create or replace function internal.confirm_visit(request bigint, choice integer, at_location text default null)
returns text
language plpgsql
set search_path = ''
as $$
declare
  proposed timestamptz[];
begin
  select r.proposed into proposed from internal.visit_requests r where r.id = request;
  if proposed is null or choice not between 1 and pg_catalog.cardinality(proposed) then
    return 'unknown';
  end if;
  return internal.confirm_visit_at(request, proposed[choice], at_location);
end
$$;

-- The visit confirmed at `start`: one of the request's times, or another the agent proposed (the
-- caller checks that one against internal.open_visit_times). The same answers as confirm_visit.
create or replace function internal.confirm_visit_at(request bigint, start timestamptz, at_location text default null)
returns text
language plpgsql
set search_path = ''
as $$
declare
  req internal.visit_requests;
begin
  select * into req from internal.visit_requests r where r.id = request for update;
  if req.id is null then
    return 'unknown';
  end if;
  if req.status <> 'requested' then
    return 'done';
  end if;
  if start <= now() then
    return 'past';
  end if;
  begin
    insert into internal.visits (request_id, agent_id, during, location)
    values (req.id, req.agent_id, pg_catalog.tstzrange(start, start + (select r.length from internal.visit_rules() r)), at_location);
  exception when exclusion_violation then
    return 'taken';
  end;
  update internal.visit_requests set status = 'confirmed' where id = req.id;
  return 'confirmed';
end
$$;

-- A visit cancelled (by the visitor or the agent): its time is free again, its sequence one more.
-- Answers 'cancelled', 'done' (cancelled already), or 'unknown'.
create or replace function internal.cancel_visit(request bigint)
returns text
language plpgsql
set search_path = ''
as $$
declare
  changed integer;
begin
  update internal.visits v set status = 'cancelled', cancelled_at = now(), sequence = v.sequence + 1
   where v.request_id = request and v.status = 'confirmed';
  get diagnostics changed = row_count;
  update internal.visit_requests r set status = 'cancelled' where r.id = request and r.status <> 'cancelled';
  if changed > 0 or found then
    return 'cancelled';
  end if;
  return case when exists (select 1 from internal.visit_requests r where r.id = request) then 'done' else 'unknown' end;
end
$$;

-- ─── supabase/schemas/46_open_houses.sql ───

-- Open houses (docs/visits.md "Open houses"): the times a listing is open to anyone who comes, as
-- its feed says them (the RESO OpenHouse resource; the seed has some). Kept per source and key, so
-- each import replaces its source's; a listing's still to come are copied onto it
-- (internal.listings.open_houses) for the cards and the "this week" filter; past ones drop out of
-- everything the public reads by themselves (each read asks for those not ended).
create table internal.open_houses (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  -- where it came from: the import source and its OpenHouseKey ('seed' for the seed's)
  source text not null,
  source_key text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  -- the feed's remarks (plain text) and a livestream's link (https only)
  remarks text,
  livestream_url text check (livestream_url is null or livestream_url ~ '^https://'),
  appointment_required boolean not null default false,
  unique (source, source_key),
  check (ends_at > starts_at and ends_at <= starts_at + interval '12 hours')
);

alter table internal.open_houses enable row level security;

create index open_houses_listing on internal.open_houses (listing_id, ends_at);

-- A listing's open houses not ended yet, as one multirange (empty when none).
create or replace function internal.upcoming_open_houses(listing bigint)
returns tstzmultirange
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.range_agg(pg_catalog.tstzrange(o.starts_at, o.ends_at)), '{}'::pg_catalog.tstzmultirange)
    from internal.open_houses o
   where o.listing_id = upcoming_open_houses.listing and o.ends_at > now()
$$;

-- The listings whose open houses changed get their copy made again.
create or replace function internal.open_houses_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  update internal.listings l
     set open_houses = internal.upcoming_open_houses(l.id)
   where l.id in (select c.listing_id from changed_rows c)
     and l.open_houses is distinct from internal.upcoming_open_houses(l.id);
  return null;
end
$$;

create trigger open_houses_insert after insert on internal.open_houses referencing new table as changed_rows for each statement execute function internal.open_houses_changed();

create trigger open_houses_update_new after update on internal.open_houses referencing new table as changed_rows for each statement execute function internal.open_houses_changed();

create trigger open_houses_update_old after update on internal.open_houses referencing old table as changed_rows for each statement execute function internal.open_houses_changed();

create trigger open_houses_delete after delete on internal.open_houses referencing old table as changed_rows for each statement execute function internal.open_houses_changed();

-- The copies of open houses that have ended, dropped (the hourly refresh calls it; a copy that is
-- late changes nothing the public sees: every read asks for those not ended).
create or replace function internal.forget_past_open_houses()
returns integer
language sql
set search_path = ''
as $$
  with gone as (
    delete from internal.open_houses o where o.ends_at < now() - interval '1 day' returning o.listing_id
  ), stale as (
    update internal.listings l set open_houses = internal.upcoming_open_houses(l.id)
     where l.open_houses <> '{}'::pg_catalog.tstzmultirange and pg_catalog.upper(l.open_houses) <= now()
     returning l.id
  )
  select (select count(*)::integer from gone) + (select count(*)::integer from stale)
$$;

-- A listing's open houses not ended yet, first first: what its page and its detail show.
create or replace function public.listing_open_houses(listing_id bigint)
returns table (id bigint, starts_at timestamptz, ends_at timestamptz, remarks text, livestream_url text, appointment_required boolean)
language sql
stable
-- it reads internal.open_houses (closed to the public key) for an active listing only
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select o.id, o.starts_at, o.ends_at, o.remarks, o.livestream_url, o.appointment_required
    from internal.open_houses o
    join internal.listings l on l.id = o.listing_id
   where o.listing_id = listing_open_houses.listing_id and o.ends_at > now()
     and internal.is_public_listing(l.country_code, l.status)
   order by o.starts_at
   limit 20
$$;

-- An import's open houses (server/import/open-houses.ts, already checked): they become the
-- source's, matched to its listings on the market by the listing's key; those the source no
-- longer has go. Answers how many it keeps, removes, and could not place.
create or replace function internal.import_open_houses(from_source text, rows jsonb)
returns jsonb
language sql
set search_path = ''
as $$
  with incoming as (
    select l.id as listing_id, e->>'source_key' as source_key, (e->>'starts_at')::timestamptz as starts_at, (e->>'ends_at')::timestamptz as ends_at,
           e->>'remarks' as remarks, e->>'livestream_url' as livestream_url, coalesce((e->>'appointment_required')::boolean, false) as appointment_required
      from pg_catalog.jsonb_array_elements(rows) e
      join internal.listings l on l.source = from_source and l.source_key = e->>'listing_key' and l.status = '1'
  ), gone as (
    delete from internal.open_houses o
     where o.source = from_source and not exists (select 1 from incoming i where i.source_key = o.source_key)
    returning 1
  ), put as (
    insert into internal.open_houses as o (listing_id, source, source_key, starts_at, ends_at, remarks, livestream_url, appointment_required)
    select i.listing_id, from_source, i.source_key, i.starts_at, i.ends_at, i.remarks, i.livestream_url, i.appointment_required from incoming i
    on conflict (source, source_key) do update
       set listing_id = excluded.listing_id, starts_at = excluded.starts_at, ends_at = excluded.ends_at, remarks = excluded.remarks,
           livestream_url = excluded.livestream_url, appointment_required = excluded.appointment_required
     where (o.listing_id, o.starts_at, o.ends_at, o.remarks, o.livestream_url, o.appointment_required)
           is distinct from (excluded.listing_id, excluded.starts_at, excluded.ends_at, excluded.remarks, excluded.livestream_url, excluded.appointment_required)
    returning 1
  )
  select pg_catalog.jsonb_build_object(
    'kept', (select count(*) from incoming),
    'removed', (select count(*) from gone),
    'written', (select count(*) from put),
    'unknown_listings', pg_catalog.jsonb_array_length(rows) - (select count(*) from incoming))
$$;

-- ─── supabase/schemas/50_imports.sql ───

create table internal.import_sources (
  name text primary key,
  kind text not null check (kind in ('reso', 'reso-json', 'csv', 'kyero')),
  location text not null,
  -- RESO: the greatest ModificationTimestamp read; the next incremental run reads from it (minus an overlap)
  high_water timestamptz,
  last_full_at timestamptz,
  last_run_at timestamptz
);

alter table internal.import_sources enable row level security;

create table internal.import_runs (
  id bigint generated always as identity primary key,
  source text not null,
  kind text not null,
  mode text not null check (mode in ('full', 'incremental')),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  -- running, done, held (withdrawals held back), empty (the feed had nothing), failed
  outcome text not null default 'running',
  new integer not null default 0,
  updated integer not null default 0,
  unchanged integer not null default 0,
  withdrawn integer not null default 0,
  quarantined integer not null default 0,
  photos_fetched integer not null default 0,
  photos_failed integer not null default 0,
  message text,
  report jsonb not null default '{}'
);

alter table internal.import_runs enable row level security;

create index import_runs_source on internal.import_runs (source, started_at desc);

create table internal.import_staging (
  run_id bigint not null references internal.import_runs (id) on delete cascade,
  source_key text not null,
  listing jsonb not null,
  primary key (run_id, source_key)
);

alter table internal.import_staging enable row level security;

-- keys a feed lists (a RESO full run's key listing, quarantined records): still in the feed, not withdrawn
create table internal.import_seen (
  run_id bigint not null references internal.import_runs (id) on delete cascade,
  source_key text not null,
  primary key (run_id, source_key)
);

alter table internal.import_seen enable row level security;

create table internal.photos (
  -- one feed photo as named: fetched again only when one of these changes
  url text not null,
  media_key text not null,
  modified text not null default '',
  hash text,
  width integer,
  height integer,
  bytes integer,
  error text,
  fetched_at timestamptz not null default now(),
  primary key (url, media_key, modified)
);

alter table internal.photos enable row level security;

create or replace function internal.import_merge(run bigint, source_name text, absent_withdraws boolean, max_share numeric, allow_withdrawals boolean)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  active_before integer;
  staged integer;
  leaving integer;
  absent integer;
  held boolean;
  added integer;
  changed integer;
  gone integer := 0;
  unknown_agents jsonb;
  bulk boolean;
begin
  select count(*) > 10000 into bulk from internal.import_staging where run_id = run;
  if bulk then perform pg_catalog.set_config('exp.listing_cells', 'deferred', true); end if;
  select count(*) into active_before from internal.listings where source = source_name and status = '1';
  select count(*) into staged from internal.import_staging where run_id = run;
  select count(*) into leaving
    from internal.listings l join internal.import_staging s on s.run_id = run and s.source_key = l.source_key
   where l.source = source_name and l.status = '1' and s.listing->>'status' <> '1';
  select count(*) into absent
    from internal.listings l
   where absent_withdraws and l.source = source_name and l.status = '1'
     and not exists (select 1 from internal.import_staging s where s.run_id = run and s.source_key = l.source_key)
     and not exists (select 1 from internal.import_seen s where s.run_id = run and s.source_key = l.source_key);
  held := not allow_withdrawals and leaving + absent > 5 and leaving + absent > max_share * active_before;

  -- each agent named once (a feed names a few hundred agents over a hundred thousand listings)
  select coalesce(jsonb_agg(distinct coalesce(d.agent_key, d.agent_email)), '[]') into unknown_agents
    from (select distinct s.listing->>'agent_key' as agent_key, s.listing->>'agent_email' as agent_email
            from internal.import_staging s where s.run_id = run) d
   where coalesce(d.agent_key, d.agent_email) is not null
     and not exists (select 1 from public.agents a where a.agent_key = d.agent_key or lower(a.email) = d.agent_email);

  -- every staged listing's words, in one query PostgreSQL runs on every core (an INSERT runs on one).
  -- The planner chooses that from the staging table's statistics (those of an empty table left
  -- 100,000 listings' words on one core: 12.3 s) and from the function's cost, which it counts per
  -- row only in a select list (in FROM, once); `offset 0` keeps it there, called once per listing.
  analyze internal.import_staging;
  create temp table import_words on commit drop as
    select x.source_key, (x.w).words, (x.w).title_words
      from (select s.source_key, internal.listing_words_pair(r.title, r.description, coalesce(r.features, '{}')) as w
              from internal.import_staging s,
                   pg_catalog.jsonb_to_record(s.listing) as r(title text, description text, features text[])
             where s.run_id = run
            offset 0) x;
  perform pg_catalog.set_config('exp.words_supplied', 'on', true);

  with input as (
    select s.source_key, r.*, w.words, w.title_words
      from internal.import_staging s,
           jsonb_to_record(s.listing) as r(
             listing_ref text, status text, source_status text, title text, address text, price numeric, bedrooms integer,
             bathrooms numeric, square_feet numeric, lot_size numeric, year_built integer, property_type text, city text,
             sector text, state text, country_code text, geo_lat text, geo_lon text, description text, features text[],
             agent_key text, agent_email text, agent_first_name text, agent_last_name text, agent_phone text,
             listed_at timestamptz, source_modified_at timestamptz, media jsonb,
             hoa_fee numeric, parking_spaces smallint, storage_unit boolean, furnished text, pets_allowed boolean, operation text),
           pg_temp.import_words w
     where s.run_id = run and w.source_key = s.source_key
  ), owners as (
    -- whose each agent named is: looked up once per agent, not once per listing
    select k.agent_key, k.agent_email, pg_catalog.jsonb_build_array(k.agent_key, k.agent_email) as named,
           a.id as agent_id, a.first_name as our_first_name, a.last_name as our_last_name, a.email as our_email,
           a.phone as our_phone, a.picture as our_picture
      from (select distinct i.agent_key, i.agent_email from input i) k
      left join lateral (
        select a.* from public.agents a
         where (k.agent_key is not null and a.agent_key = k.agent_key) or (k.agent_email is not null and lower(a.email) = k.agent_email)
         order by (a.agent_key is not distinct from k.agent_key) desc, a.id
         limit 1
      ) a on true
  ), matched as (
    -- joined by a key that tells a missing name from an empty one, and hashes
    select i.*, o.agent_id, o.our_first_name, o.our_last_name, o.our_email, o.our_phone, o.our_picture
      from input i
      join owners o on o.named = pg_catalog.jsonb_build_array(i.agent_key, i.agent_email)
  ), merged as (
    insert into internal.listings as l (
      source, source_key, listing_ref, status, source_status, title, address, price, bedrooms, bathrooms, square_feet,
      lot_size, year_built, property_type, city, sector, state, country_code, geo_lat, geo_lon, description, features,
      agent_id, agent_first_name, agent_last_name, agent_email, agent_phone, agent_picture, listed_at, source_modified_at,
      source_media, images, words, title_words, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed, operation)
    select source_name, m.source_key, m.listing_ref, m.status, m.source_status, m.title, m.address, m.price, m.bedrooms,
           m.bathrooms, m.square_feet, m.lot_size, m.year_built, m.property_type, m.city, m.sector, m.state, m.country_code,
           m.geo_lat, m.geo_lon, m.description, coalesce(m.features, '{}'),
           m.agent_id, coalesce(m.our_first_name, m.agent_first_name), coalesce(m.our_last_name, m.agent_last_name),
           coalesce(m.our_email, m.agent_email), coalesce(m.our_phone, m.agent_phone), m.our_picture,
           m.listed_at, m.source_modified_at, coalesce(m.media, '[]'), '[]'::jsonb, m.words, m.title_words,
           m.hoa_fee, m.parking_spaces, m.storage_unit, m.furnished, m.pets_allowed, coalesce(m.operation, 'sale')
      from matched m
     -- new listings take their ids in the order of their changes (the feed's), whatever the plan:
     -- one merge of a feed and several of its parts number the same listings alike
     order by m.source_modified_at nulls first, m.source_key
    on conflict (source, source_key) do update set
      listing_ref = excluded.listing_ref,
      -- held back: an active listing stays on the market whatever this run says
      status = case when held and l.status = '1' and excluded.status <> '1' then l.status else excluded.status end,
      source_status = excluded.source_status,
      title = excluded.title, address = excluded.address, price = excluded.price, bedrooms = excluded.bedrooms,
      bathrooms = excluded.bathrooms, square_feet = excluded.square_feet, lot_size = excluded.lot_size,
      year_built = excluded.year_built, property_type = excluded.property_type, city = excluded.city,
      sector = excluded.sector, state = excluded.state, country_code = excluded.country_code,
      geo_lat = excluded.geo_lat, geo_lon = excluded.geo_lon, description = excluded.description,
      features = excluded.features, agent_id = excluded.agent_id, agent_first_name = excluded.agent_first_name,
      agent_last_name = excluded.agent_last_name, agent_email = excluded.agent_email, agent_phone = excluded.agent_phone,
      agent_picture = excluded.agent_picture, source_modified_at = excluded.source_modified_at,
      source_media = excluded.source_media, words = excluded.words, title_words = excluded.title_words,
      hoa_fee = excluded.hoa_fee, parking_spaces = excluded.parking_spaces, storage_unit = excluded.storage_unit,
      furnished = excluded.furnished, pets_allowed = excluded.pets_allowed, operation = excluded.operation
    where (l.listing_ref, l.status, l.source_status, l.title, l.address, l.price, l.bedrooms, l.bathrooms, l.square_feet,
           l.lot_size, l.year_built, l.property_type, l.city, l.sector, l.state, l.country_code, l.geo_lat, l.geo_lon,
           l.description, l.features, l.agent_id, l.agent_first_name, l.agent_last_name, l.agent_email, l.agent_phone,
           l.agent_picture, l.source_modified_at, l.source_media, l.hoa_fee, l.parking_spaces, l.storage_unit, l.furnished,
           l.pets_allowed, l.operation)
      is distinct from
          (excluded.listing_ref, case when held and l.status = '1' and excluded.status <> '1' then l.status else excluded.status end,
           excluded.source_status, excluded.title, excluded.address, excluded.price, excluded.bedrooms, excluded.bathrooms,
           excluded.square_feet, excluded.lot_size, excluded.year_built, excluded.property_type, excluded.city,
           excluded.sector, excluded.state, excluded.country_code, excluded.geo_lat, excluded.geo_lon,
           excluded.description, excluded.features, excluded.agent_id, excluded.agent_first_name,
           excluded.agent_last_name, excluded.agent_email, excluded.agent_phone, excluded.agent_picture,
           excluded.source_modified_at, excluded.source_media, excluded.hoa_fee, excluded.parking_spaces,
           excluded.storage_unit, excluded.furnished, excluded.pets_allowed, excluded.operation)
    returning (xmax = 0) as inserted
  )
  select count(*) filter (where inserted), count(*) filter (where not inserted) into added, changed from merged;
  perform pg_catalog.set_config('exp.words_supplied', '', true);
  drop table pg_temp.import_words;

  if not held then
    gone := leaving;
    if absent_withdraws and absent > 0 then
      update internal.listings l
         set status = 'absent', source_status = 'not in the feed'
       where l.source = source_name and l.status = '1'
         and not exists (select 1 from internal.import_staging s where s.run_id = run and s.source_key = l.source_key)
         and not exists (select 1 from internal.import_seen s where s.run_id = run and s.source_key = l.source_key);
      gone := gone + absent;
    end if;
  end if;

  if bulk then
    perform pg_catalog.set_config('exp.listing_cells', '', true);
    perform internal.listings_derived_rebuild();
  end if;
  delete from internal.import_staging where run_id = run;
  delete from internal.import_seen where run_id = run;
  return jsonb_build_object(
    'new', added, 'updated', changed, 'unchanged', staged - added - changed, 'withdrawn', gone,
    'withdrawals_held', held, 'would_withdraw', leaving + absent, 'active_before', active_before,
    'unknown_agents', unknown_agents);
end
$$;

-- ─── supabase/schemas/60_jobs.sql ───

-- The scheduled jobs every server on this database shares (an import source each): when each is
-- next due and when it last ran fully. A server runs a job only while it holds the job's advisory
-- lock (server/import/service.ts), so a job runs once per schedule across servers, never twice at
-- once; a server that dies mid-run lets go of the lock with its connection and leaves `due_at`
-- where it was, so the next server to look runs it again.
create table if not exists internal.job_schedule (
  job text primary key,
  due_at timestamptz not null default now(),
  last_full_at timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_runner text
);

-- ─── supabase/schemas/99_privileges.sql ───

-- Who may do what (docs/deployment.md "The database"), after every object exists. A Supabase
-- project grants all on whatever is made in `public` to anon and authenticated (and PostgreSQL lets
-- PUBLIC execute every new function), and PostgREST writes through views: so nothing is left to
-- those defaults. The public key reads the relations we publish (the listings, the agents' public
-- columns, the listings' availability, cities and types) and calls the six functions the elements
-- call; nothing else, anywhere (tests/contract/privileges.test.ts holds a database migrated by the
-- Supabase CLI to it).

-- schemas: `internal` is the service's alone
grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
revoke all on schema internal from public;
grant usage on schema internal to service_role;

-- the listings, the agents, the inquiries (the agents' private notes and feed key are not public)
revoke all on internal.listings from anon, authenticated;
revoke all on public.listings, public.agents, public.inquiries, public.listing_property_types from anon, authenticated;
grant select on public.listings, public.listing_property_types to anon, authenticated, service_role;
grant select (id, first_name, last_name, email, phone, picture, country_code, location, about, languages,
  specializations, certifications, locations_served, facebook, instagram, linkedin, website,
  first_name_search, last_name_search, email_search)
  on public.agents to anon, authenticated;
grant all on internal.listings, public.agents, public.inquiries to service_role;
revoke all on public.listing_availability, public.listing_cities from public, anon, authenticated;
grant select on public.listing_availability, public.listing_cities to anon, authenticated;
grant all on public.listing_availability, public.listing_cities to service_role;

-- what only the service reads and writes
revoke all on internal.mail_outbox, internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens,
  internal.search_alerts, internal.settings, internal.places, internal.place_aliases, internal.import_sources,
  internal.import_runs, internal.import_staging, internal.import_seen, internal.photos, internal.webhook_endpoints,
  internal.job_schedule, internal.listing_spells, internal.market_index, internal.market_bounds, internal.market_rents_now,
  internal.agent_visiting_hours, internal.visit_requests, internal.visits, internal.visit_tokens, internal.open_houses from anon, authenticated;
revoke all on internal.job_schedule, internal.listing_words, internal.listing_spells, internal.market_index, internal.market_bounds,
  internal.market_rents_now from public;
grant all on internal.mail_outbox, internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens,
  internal.search_alerts, internal.settings, internal.places, internal.place_aliases, internal.job_schedule,
  internal.listing_spells, internal.market_index, internal.market_bounds, internal.market_rents_now,
  internal.agent_visiting_hours, internal.visit_requests, internal.visits, internal.visit_tokens, internal.open_houses to service_role;

-- functions: the service's; the public key calls the data API's (docs/data-api.md)
revoke execute on function internal.listing_cells_rebuild(), internal.places_recount(text[], text[]), internal.first_matches,
  internal.word_match_ids, internal.note_price_cut, internal.listing_words_changed, internal.listings_derived_rebuild,
  internal.import_merge, internal.note_market_spells, internal.rebuild_market_index,
  internal.refresh_market_index, internal.confirm_visit, internal.confirm_visit_at, internal.cancel_visit,
  internal.upcoming_open_houses, internal.open_houses_changed, internal.forget_past_open_houses, internal.import_open_houses from public;
revoke all on all functions in schema public from public, anon, authenticated;
grant execute on all functions in schema public to service_role;
grant execute on function
  public.search_listings(jsonb, text, integer, integer),
  public.search_listings_count(jsonb),
  public.listing_clusters(integer, double precision, double precision, double precision, double precision, jsonb),
  public.place_suggestions(text, integer),
  public.listing_price_history(bigint),
  public.similar_listings(bigint, integer),
  public.market_index(text, text, integer),
  public.market_ranking(text, text, text),
  public.listing_market(bigint),
  public.market_report(text, text, integer),
  public.estimate_value(jsonb),
  public.area_agents(text),
  public.visit_times(bigint, bigint),
  public.listing_open_houses(bigint)
  to anon, authenticated;

-- sequences: nobody but the service writes
revoke all on all sequences in schema public from public, anon, authenticated;
grant all on all sequences in schema public to service_role;

-- and what is made in `public` from now on is granted to nobody until its file says so
alter default privileges in schema public revoke all on tables from public, anon, authenticated;
alter default privileges in schema public revoke all on sequences from public, anon, authenticated;
alter default privileges in schema public revoke all on functions from public, anon, authenticated;
