-- The baseline: the schema as supabase/schemas/ declares it, file by file, made on 2026-12-05 when the
-- migrations were squashed a third time (the 33 since the second squash of 2026-11-26, the last of them
-- 20261204165216; docs/deployment.md "Migrations" says how a database or project that applied them
-- takes this one instead). From here on a change edits its schema file and adds a migration that makes
-- the same change, restating only the functions it changes; tests/contract/schema-files.test.ts holds
-- the database the migrations build equal to the one the schema files build.

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
  -- the role PostgREST logs in as, which holds its in-database settings (98_data_api_gate.sql)
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator nologin noinherit;
  end if;
end
$$;

-- Supabase Auth's schema where the database has none (a bare PostgreSQL: our server, the tests):
-- its users, and the functions row level security reads the request's JWT with, as Auth defines
-- them. On a hosted project Auth owns the schema and nothing here runs (docs/agent-area.md).
do $$
begin
  if to_regnamespace('auth') is null then
    create schema auth;
    grant usage on schema auth to anon, authenticated, service_role;
    create table auth.users (
      id uuid primary key default gen_random_uuid(),
      email text unique,
      created_at timestamptz not null default now(),
      last_sign_in_at timestamptz,
      raw_app_meta_data jsonb not null default '{}',
      raw_user_meta_data jsonb not null default '{}'
    );
    create function auth.jwt() returns jsonb language sql stable as
      'select coalesce(nullif(current_setting(''request.jwt.claim'', true), ''''), nullif(current_setting(''request.jwt.claims'', true), ''''))::jsonb';
    create function auth.uid() returns uuid language sql stable as
      'select coalesce(nullif(current_setting(''request.jwt.claim.sub'', true), ''''), (nullif(current_setting(''request.jwt.claims'', true), '''')::jsonb ->> ''sub''))::uuid';
    create function auth.role() returns text language sql stable as
      'select coalesce(nullif(current_setting(''request.jwt.claim.role'', true), ''''), (nullif(current_setting(''request.jwt.claims'', true), '''')::jsonb ->> ''role''))::text';
    grant execute on function auth.jwt(), auth.uid(), auth.role() to anon, authenticated, service_role;
  end if;
end
$$;

-- A time limit on every statement of the public key: a hosted project sets 3 s (authenticated 8 s);
-- ours is 500 ms, so that no request of the public key holds a connection of the data API's pool
-- longer (docs/deployment.md "What the public key may ask"; the slowest call the site makes takes
-- 66 ms on 20,000 listings, docs/benchmarks.md). Our server applies the anon role's settings to its
-- public sessions, as PostgREST does for the role it impersonates (server/db/postgres.ts).
alter role anon set statement_timeout = '500ms';
alter role authenticated set statement_timeout = '8s';

-- The plans our benchmarks measured, as a hosted project runs the calls (docs/deployment.md
-- "The database"): PostgREST binds every value as a parameter, and after five runs PostgreSQL may
-- keep a generic plan, which cannot prove that `country_code = $1` implies a partial index's
-- predicate. So the public roles ask for custom plans, and so does each function the elements call.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';

-- Everything private lives in `internal` (20_listings.sql says why the listings do too).
create schema if not exists internal;

-- The clock every rule that reads the time reads (docs/decisions.md #33): now(), moved by the
-- offset a session carries in `exp.clock_offset` (an interval). Only the tests set it, for the
-- sessions our code opens (core/clock.ts); a hosted project never does, and there this is now().
-- Its search path pinned (Supabase's advisor): so not inlined, and a filter over many rows reads it
-- once (as an index scan's bound, or from a statement's own parameter).
create or replace function internal.now()
returns timestamptz
language sql
stable
parallel safe
set search_path = ''
as $$
  select pg_catalog.now() + coalesce(nullif(pg_catalog.current_setting('exp.clock_offset', true), '')::interval, interval '0')
$$;

-- The month it is in Ecuador now (its first day): the brokerage's calendar is Ecuador's
-- (America/Guayaquil, UTC-5 all year), whatever the session's time zone.
create or replace function internal.this_month()
returns date
language sql
stable
parallel safe
set search_path = ''
as $$
  select pg_catalog.date_trunc('month', internal.now() at time zone 'America/Guayaquil')::date
$$;

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
set search_path = ''
as $$
  select pg_catalog.lower(
    pg_catalog.regexp_replace(pg_catalog.normalize(coalesce(value, ''), 'NFD'), E'[\u0300-\u036f]', '', 'g') collate pg_catalog."C")
$$;

create or replace function public.parse_coordinate(value text, max_abs double precision)
returns double precision
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when value ~ '^\s*[-+]?([0-9]+([.,][0-9]+)?|[.,][0-9]+)\s*$' then
      case when abs(replace(btrim(value, E' \t\n\r\f\v'), ',', '.')::double precision) <= max_abs
           then replace(btrim(value, E' \t\n\r\f\v'), ',', '.')::double precision end
  end
$$;

-- The mailbox an e-mail address reaches, to count mails to one person however the address is
-- written (docs/decisions.md #24): lower case, without a "+tag" after the local part
-- (ana+x@example.org and Ana@Example.org are one mailbox). Never stored: counted by.
create or replace function internal.mailbox(email text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.btrim(email)), '\+[^@]*@', '@')
$$;

-- part of a text, taken literally in a LIKE: %, _ and \ are plain characters
create or replace function internal.contains_pattern(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
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
set search_path = ''
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
set search_path = ''
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
set search_path = ''
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
set search_path = ''
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

-- ─── supabase/schemas/03_public_types.sql ───

-- What the public key may ask of a column (docs/deployment.md "What the public key may ask").
--
-- On a hosted project the data API is Supabase's PostgREST: our server's bounds on a request
-- (server/stand-in/rest/parse.ts) never run there, and a filter of a hundred bytes may cost the database
-- seconds: a regular expression with back-references (`match`, `imatch`) takes 45 s on one title of
-- 60 characters, a LIKE pattern of a thousand wildcards half a second over the listings. So the
-- public relations give their columns types that offer no such operator, and the database refuses
-- the request before it runs:
-- - `public.plain_text`, the text a visitor may filter on: `match`/`imatch` take literal text only
--   (each of \^$.|?*+()[]{} escaped, as our directory sends a visitor's words) and are answered by
--   a plain search for that text; `like`/`ilike` take at most 200 characters and 8 wildcards;
-- - `public.plain_json`, JSON a client reads whole: its paths (`->`, `->>`), which would hand
--   their text to the regular expressions, are refused;
-- - long text a client reads but never filters (a listing's description) is `json`, which has
--   no comparison, pattern or order at all.
-- PostgREST sends every filter's value as a parameter of unknown type, which PostgreSQL reads as
-- the column's own type: so these operators, declared for the domain, are the ones that run.

create domain public.plain_text as text;
comment on domain public.plain_text is 'Text the public key may filter: match and imatch take literal text; like and ilike short patterns (docs/deployment.md).';

create domain public.plain_json as jsonb;
comment on domain public.plain_json is 'JSON the public key reads whole: no paths (docs/deployment.md).';

-- match (~) and imatch (~*): the pattern's text, unescaped, found in the value
create or replace function internal.literal_match(value text, pattern text, insensitive boolean)
returns boolean
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
begin
  if pattern !~ '^(?:[^\\^$.|?*+()[\]{}]|\\[\\^$.|?*+()[\]{}])*$' then
    raise exception 'match and imatch take literal text here: escape each of \^$.|?*+()[]{} with a backslash'
      using errcode = '22023', hint = 'No classes, repetitions or back-references (docs/data-api.md); ilike finds a part of a value.';
  end if;
  pattern := pg_catalog.regexp_replace(pattern, '\\(.)', '\1', 'g');
  if insensitive then
    return pg_catalog.strpos(pg_catalog.lower(value), pg_catalog.lower(pattern)) > 0;
  end if;
  return pg_catalog.strpos(value, pattern) > 0;
end
$$;

-- like (~~) and ilike (~~*): PostgreSQL's own, on a pattern of bounded size
create or replace function internal.bounded_like(value text, pattern text, insensitive boolean)
returns boolean
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
begin
  if pg_catalog.length(pattern) > 200 or pg_catalog.length(pattern) - pg_catalog.length(pg_catalog.replace(pattern, '%', '')) > 8 then
    raise exception 'like and ilike take patterns of at most 200 characters and 8 wildcards here'
      using errcode = '22023', hint = 'docs/data-api.md';
  end if;
  if insensitive then
    return value operator(pg_catalog.~~*) pattern;
  end if;
  return value operator(pg_catalog.~~) pattern;
end
$$;

create or replace function internal.plain_match(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.literal_match(value, pattern, false) $$;
create or replace function internal.plain_imatch(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.literal_match(value, pattern, true) $$;
create or replace function internal.plain_like(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.bounded_like(value, pattern, false) $$;
create or replace function internal.plain_ilike(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.bounded_like(value, pattern, true) $$;

create operator public.~ (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_match);
create operator public.~* (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_imatch);
create operator public.~~ (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_like);
create operator public.~~* (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_ilike);

-- a JSON path of plain_json: refused, whatever its key (a number, or text PostgREST sends untyped)
create or replace function internal.no_json_key(value public.plain_json, key text)
returns public.plain_text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
begin
  raise exception 'this column is read whole: its JSON paths are not offered'
    using errcode = '22023', hint = 'docs/data-api.md';
end
$$;
create or replace function internal.no_json_index(value public.plain_json, key integer) returns public.plain_text
language sql immutable parallel safe set search_path = '' as $$ select internal.no_json_key(value, key::text) $$;
create or replace function internal.no_json_path(value public.plain_json, key public.plain_json) returns public.plain_text
language sql immutable parallel safe set search_path = '' as $$ select internal.no_json_key(value, key::text) $$;

create operator public.-> (leftarg = public.plain_json, rightarg = integer, function = internal.no_json_index);
create operator public.->> (leftarg = public.plain_json, rightarg = integer, function = internal.no_json_index);
create operator public.-> (leftarg = public.plain_json, rightarg = text, function = internal.no_json_key);
create operator public.->> (leftarg = public.plain_json, rightarg = text, function = internal.no_json_key);
create operator public.-> (leftarg = public.plain_json, rightarg = public.plain_json, function = internal.no_json_path);
create operator public.->> (leftarg = public.plain_json, rightarg = public.plain_json, function = internal.no_json_path);

-- ─── supabase/schemas/10_agents.sql ───

-- The brokerage's agents (docs/product.md §4). The public key reads the public columns only
-- (99_privileges.sql); private_notes and agent_key never.

create table public.agents (
  id bigint generated by default as identity primary key,
  -- what the public key reads is public.plain_text: no operator that can run long (03_public_types.sql)
  first_name public.plain_text,
  last_name public.plain_text,
  email public.plain_text,
  phone public.plain_text,
  picture public.plain_text,
  country_code public.plain_text not null default 'EC',
  location public.plain_text,
  about public.plain_text,
  languages text[],
  specializations text[],
  certifications text[],
  locations_served text[],
  facebook public.plain_text,
  instagram public.plain_text,
  linkedin public.plain_text,
  website public.plain_text,
  -- internal: never readable with the public key
  private_notes text,
  created_at timestamptz not null default internal.now(),
  -- the agent's key in the brokerage's feeds (RESO ListAgentKey)
  agent_key text,
  -- accent- and case-folded copies for the directory search (docs/decisions.md #10)
  first_name_search public.plain_text generated always as (public.search_fold(first_name)) stored,
  last_name_search public.plain_text generated always as (public.search_fold(last_name)) stored,
  email_search public.plain_text generated always as (public.search_fold(email)) stored,
  -- her sign-in (Supabase Auth's user), and whether she still works here (docs/agent-area.md)
  user_id uuid unique references auth.users (id) on delete set null,
  active boolean not null default true,
  -- an agent of the Ecuador office who still works here: in the directory, on profiles, and given
  -- leads (every rule that picks an agent reads this column)
  is_ours boolean generated always as (active and country_code = 'EC') stored,
  -- her "about" in Spanish (`about` is the English, or her only one): she keeps both in her area
  about_es public.plain_text
);

alter table public.agents enable row level security;
create policy "Agents are public" on public.agents for select to anon, authenticated using (is_ours);

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
  created_at timestamptz not null default internal.now(),
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
  -- when it came on the market (the feed's date, else when it was inserted active or made active
  -- again); a time (not 'infinity'), as the market index counts from it (docs/market.md)
  listed_at timestamptz not null default internal.now() check (isfinite(listed_at)),
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
  operation text not null default 'sale' check (operation in ('sale', 'rent', 'project')),
  -- when it appeared here: inserted active, or made active again (never from a feed, whose
  -- OnMarketDate is listed_at): what an alert calls new
  appeared_at timestamptz not null default internal.now(),
  -- an active listing of the Ecuador site: the one definition every public read uses (the public
  -- views, the search's conditions, the partial indexes), a column so that each says it alike
  is_public boolean generated always as (country_code = 'EC' and status = '1') stored,
  -- a new development's own listing (operation 'project'): the project it stands for and what its
  -- card says of it, written by internal.project_listing_sync() alone (47_projects.sql)
  project_id bigint,
  project jsonb,
  constraint listings_project_operation check ((operation = 'project') = (project_id is not null)),
  -- a unit of a new development for sale (docs/projects.md "Its units"): the type it is one of, and
  -- what its card says of its project, written by internal.listing_unit_of() alone (47_projects.sql)
  unit_type_id bigint,
  unit_of jsonb
);

-- No row level security here: the public key reads this table only through the views of
-- 21_listing_views.sql, which run with its rights (security_invoker) and say themselves which rows
-- are public (is_public), and only the columns 99_privileges.sql grants it; the schema is not one the
-- data API serves. A policy would add nothing they do not say, and it would cost every search: where
-- a policy applies, PostgreSQL plans the reader's filters without the table's statistics (a filter
-- that is not leakproof may not read them), and a page of Quito's listings took 40 ms instead of
-- 0.3 (docs/deployment.md "The advisor").

comment on table internal.listings is 'Listings for sale and for rent, all of them. The public reads active ones through public.listings.';
comment on column internal.listings.operation is 'sale, rent or project; a rent''s price is USD a month, a project''s the lowest of its unit types''.';
comment on column internal.listings.square_feet is 'Area in square metres (the column keeps the feed''s name).';
comment on column internal.listings.listed_at is 'When the listing came on the market: the feed''s date, else when it was inserted active or made active again.';
comment on column internal.listings.is_public is 'An active listing of the Ecuador site (country EC, status 1): what the public reads.';
comment on column internal.listings.appeared_at is 'When it appeared here (inserted, or made active again): new for the alerts, whatever date its feed gives.';
comment on column internal.listings.price_cut_at is 'When the price last went down (null if the last change raised it, or it never changed).';
comment on column internal.listings.price_before_cut is 'The price before that cut.';
comment on column internal.listings.source is 'The feed the listing came from (null: entered here, or the seed).';
comment on column internal.listings.source_key is 'The listing''s key in its feed (RESO ListingKey, Kyero id).';
comment on column internal.listings.source_media is 'The photos as the feed names them (address, key, order, change), before re-hosting.';
comment on column internal.listings.photos_from is 'The source_media the listing''s images were made from: photos are made again when they differ.';

-- What the search reads is active EC listings: partial indexes keep to those rows.
-- Newest / featured, and price in both directions (ties broken by id for stable pages).
create index listings_recent on internal.listings (created_at desc, id desc) where is_public;

create index listings_price_asc on internal.listings (price asc nulls last, id asc) where is_public;

create index listings_price_desc on internal.listings (price desc nulls last, id desc) where is_public;

-- The physical order: searches are mostly by city, so the table is kept clustered on it (the seed
-- load does `cluster internal.listings using listings_city_order`; repeat after bulk imports). A
-- city's listings then sit on a few pages instead of every page of the table.
create index listings_city_order on internal.listings (city_search, created_at);

create index listings_types on internal.listings (property_type) where is_public;

-- an agent's listings, newest first (the profile); with the city, so that counting an agent's
-- listings in a city (public.area_agents: who serves a seller's place) reads the index alone
create index listings_agent on internal.listings (agent_id, created_at desc) include (city_slug) where status = '1';

create index listings_position on internal.listings (lat, lng) where is_public and lat is not null and lng is not null;

create index listings_status on internal.listings (status, country_code);

create or replace function internal.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a new row was last changed when it was created (unless it says otherwise); a changed one now
  if tg_op = 'INSERT' then
    new.updated_at := coalesce(new.updated_at, new.created_at, internal.now());
    new.listed_at := coalesce(new.listed_at, internal.now());
    new.appeared_at := coalesce(new.appeared_at, internal.now());
  else
    new.updated_at := internal.now();
    -- back on the market: new again for the alerts
    if new.status = '1' and old.status is distinct from '1' then
      new.listed_at := internal.now();
      new.appeared_at := internal.now();
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
create index listings_sitemap on internal.listings (id) include (updated_at, title) where is_public;

create index listings_listed on internal.listings (listed_at) where is_public;

-- the alerts' new listings: those that appeared here since a search's mark
create index listings_appeared on internal.listings (appeared_at) where is_public;

-- One definition of what a search matches (docs/decisions.md #25), which every reader uses:
-- - an active Ecuador listing is the column is_public: the public views of the listings (what the
--   REST reads: the search's list and count, the listing and agent pages, the sitemaps), the cities
--   and property types, the map's kept cells, the market and the alerts all say it through it, and
--   the partial indexes are of its rows;
-- - a listing matching a search's filters is internal.listing_conditions() (30_search.sql): the
--   search, the count, the map's clusters and the alerts read it.

create index listings_search on internal.listings using gin (
  place_search extensions.gin_trgm_ops, property_type extensions.gin_trgm_ops
) where is_public;

create index listings_features on internal.listings using gin (features) where is_public;

create index listings_year_built on internal.listings (year_built) where is_public;

create index listings_lot_size on internal.listings (lot_size) where is_public;

create index listings_map on internal.listings (map_x, map_y)
  include (map_lat, map_lng, map_approximate, price, bedrooms, bathrooms, square_feet, property_type, place_search, agent_id, lat, lng, id,
           state_slug, city_slug, sector_slug, features, year_built, lot_size, operation)
  where is_public;

create index listings_words on internal.listings using gin (words) where is_public;

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
create index listings_title_words on internal.listings using gin (title_words) where is_public;

-- (and what the similar listings compare: public.similar_listings walks it nearest first)
create index listings_location on internal.listings using gist (location)
  include (map_x, map_y, map_lat, map_lng, map_approximate, price, id, property_type, square_feet, bedrooms, city_slug, sector_slug)
  where is_public;

create index listings_place on internal.listings (city_slug, sector_slug) include (property_type, id) where is_public;

create index listings_province on internal.listings (state_slug) include (property_type, id) where is_public;

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

-- What the public key reads of the listings (99_privileges.sql): the active ones, the cities and
-- the property types, as views that run with the reader's rights (security_invoker: the table's
-- row level security and column grants hold for them, as Supabase's advisor asks), and whether an
-- id is active, gone or unknown (a function: that reads rows the public may not).

-- columns are only ever added at the end (search_listings reads the view's list from the catalogue)
create or replace view public.listings with (security_invoker = true) as
-- text as public.plain_text, JSON as public.plain_json, the description as json (what the public
-- key may ask of each: 03_public_types.sql)
select id, title::public.plain_text as title, address::public.plain_text as address, price, bedrooms, bathrooms, square_feet,
       property_type::public.plain_text as property_type, city::public.plain_text as city, state::public.plain_text as state,
       images::public.plain_json as images, geo_lat::public.plain_text as geo_lat, geo_lon::public.plain_text as geo_lon,
       pg_catalog.to_json(description) as description, created_at, status::public.plain_text as status,
       country_code::public.plain_text as country_code, agent_id, agent_first_name::public.plain_text as agent_first_name,
       agent_last_name::public.plain_text as agent_last_name, agent_email::public.plain_text as agent_email,
       agent_phone::public.plain_text as agent_phone, agent_picture::public.plain_text as agent_picture,
       city_search::public.plain_text as city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
       sector::public.plain_text as sector, features, year_built, lot_size, state_slug::public.plain_text as state_slug,
       city_slug::public.plain_text as city_slug, sector_slug::public.plain_text as sector_slug,
       place_search::public.plain_text as place_search, listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee,
       parking_spaces, storage_unit, furnished::public.plain_text as furnished, pets_allowed, operation::public.plain_text as operation,
       project::public.plain_json as project, unit_type_id, unit_of::public.plain_json as unit_of
from internal.listings
where is_public;

comment on view public.listings is 'Active listings (status 1): what the public key may read.';

-- The view's columns as a select list over internal.listings under an alias, each as the view
-- shows it (its type, the description as JSON), read from the catalogue: the functions that
-- return the view's rows (search_listings, similar_listings) build them from it, so the view
-- stays the one list of what is public and how.
create or replace function internal.public_listing_columns(alias text)
returns text
language sql
stable
parallel safe
set search_path = ''
as $$
  select pg_catalog.string_agg(
           case when a.atttypid = 'pg_catalog.json'::pg_catalog.regtype
                then pg_catalog.format('pg_catalog.to_json(%I.%I)', alias, a.attname)
                else pg_catalog.format('%I.%I::%s', alias, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)) end,
           ', ' order by a.attnum)
    from pg_catalog.pg_attribute a
   where a.attrelid = 'public.listings'::pg_catalog.regclass and a.attnum > 0 and not a.attisdropped
$$;

-- the distinct types, each found by one index probe (a loose index scan), not by reading every row
create or replace view public.listing_property_types with (security_invoker = true) as
with recursive types(property_type) as (
  select min(property_type) from internal.listings
  where is_public and property_type is not null
  union all
  select (select min(l.property_type) from internal.listings l
          where l.is_public and l.property_type > t.property_type)
  from types t
  where t.property_type is not null
)
select property_type::public.plain_text as property_type from types where property_type is not null and btrim(property_type) <> '';

-- whether a listing's page answers 200, 410 or 404, without reading anything private: one row
-- (available or not, and when it last changed) for an id the site ever had, none for another
create or replace function public.listing_availability(listing_id bigint)
returns table (available boolean, updated_at timestamptz)
language sql
stable
-- it reads whether a listing that is no longer public was ever here (nothing else of it)
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select l.is_public, l.updated_at from internal.listings l where l.id = listing_availability.listing_id and l.country_code = 'EC'
$$;

comment on function public.listing_availability is 'Whether a listing id is active (true), was and is gone (false), or never was (no row): 200, 410 or 404 for its page.';

create or replace view public.listing_cities with (security_invoker = true) as
select city::public.plain_text as city, count(*)::integer as listings
from internal.listings
where is_public and city is not null and btrim(city) <> ''
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

-- kept as the listings change, and made again after a bulk load: 33_listing_copies.sql

-- ─── supabase/schemas/24_price_history.sql ───

-- Every change of a listing's price, for the alerts' price drops.
create table internal.listing_price_changes (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  old_price numeric,
  new_price numeric,
  changed_at timestamptz not null default internal.now()
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
      new.price_cut_at := internal.now();
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
returns table (at timestamptz, event public.plain_text, price numeric, change numeric)
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
     where l.id = listing_id and l.is_public
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
  columns := internal.public_listing_columns('c');
  return query execute format($q$
    with near as (
      -- the nearest of the same type in the price band, in the GiST index's distance order (an
      -- index-only scan: the index carries what is compared); a sale's are sales, a rent's rents
      select c.id, c.location, c.price, c.square_feet, c.bedrooms, c.sector_slug, c.city_slug
        from internal.listings c
       where c.is_public and c.id <> $1 and c.location is not null
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
  where is_public and property_type = 'house';

create index listings_near_apartment on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'apartment';

create index listings_near_land on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'land';

create index listings_near_office on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'office';

create index listings_near_business_premises on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'business_premises';

create index listings_near_commercial_building on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'commercial_building';

create index listings_near_suite on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'suite';

create index listings_near_quinta on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'quinta';

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
    select n.id, n.listed_at from new_rows n where n.is_public
    on conflict do nothing;
    return null;
  end if;
  -- off the market: the open spell ends now
  update internal.listing_spells s
     set off_at = greatest(internal.now(), s.on_at)
    from old_rows o join new_rows n using (id)
   where s.listing_id = n.id and s.off_at is null
     and o.is_public and not n.is_public;
  -- back on it: a new spell from when it was listed again
  insert into internal.listing_spells (listing_id, on_at)
  select n.id, n.listed_at
    from old_rows o join new_rows n using (id)
   where not o.is_public and n.is_public
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
  -- the ranking's (public.market_ranking), written for last month and this one: the median twelve
  -- months before, and the medians of the 13 months to this one (null where they stand on too few)
  median_year_before numeric,
  trend numeric[],
  primary key (path, type_group, month)
);

alter table internal.market_index enable row level security;

comment on table internal.market_index is 'The monthly asking price per m² of every place and type group (docs/market.md); rebuilt by internal.rebuild_market_index().';

create index market_index_parent on internal.market_index (parent, type_group, month);

-- What each place's report shows (docs/market.md, rule 7): for each type group and month, the
-- place's own figure where it stands on enough listings, else the nearest place above it that has
-- one (`path` says whose). Written with the index, so a report reads its rows instead of walking
-- the places above it.
create table internal.market_shown (
  -- the place asked for
  place text not null,
  type_group text not null,
  month date not null,
  -- the place the figure is of
  path text not null,
  name text not null,
  listings integer not null,
  median numeric not null,
  p25 numeric not null,
  p75 numeric not null,
  new_listings integer not null,
  price_cuts integer not null,
  median_days integer not null,
  primary key (place, type_group, month)
);

alter table internal.market_shown enable row level security;

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

-- The rebuild's times on the market, each at one price per m² over a run of months, while it runs
-- (emptied when it ends): a table of its own, not a temporary one, so that parallel workers can
-- read it and make the rows of each listing and month from it (docs/market.md "Freshness");
-- unlogged, as nothing in it outlives the rebuild. Two rebuilds at once take turns on it.
create unlogged table internal.market_runs (
  group_key smallint not null,
  state_key integer not null,
  city_key integer not null,
  sector_key integer,
  usd_m2 double precision,
  -- the months it counts in, numbered from the first month of the rebuild (0)
  first_i integer not null,
  last_i integer not null,
  -- its time on the market, in microseconds since 1970 (exact, and integers sort faster)
  on_us bigint not null,
  off_us bigint,
  -- the months in which its price was cut
  cut_months date[]
);

alter table internal.market_runs enable row level security;

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
set search_path = ''
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
set search_path = ''
as $$
  select 8
$$;

-- ─── supabase/schemas/26_market_figures.sql ───

-- The market index made (docs/market.md "Freshness"), its first stages: the listings that count,
-- their times on the market and prices, the outliers out, and every figure of every place and month.
-- internal.rebuild_market_index (27_market_rebuild.sql) runs them in order.

-- A stage of internal.rebuild_market_index, run in its settings (Ecuador's clock, work_mem):
-- the listings that can count (pg_temp.market_found).
create or replace function internal.market_found()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- each listing that can count: its type group, its area (land by its lot) and its asking price
  -- per m² (of its price now: one that changed is priced month by month below)
  drop table if exists pg_temp.market_found;
  create temp table market_found on commit drop as
  select l.id, l.state_slug, l.city_slug, nullif(l.sector_slug, '') as sector_slug, l.map_lat as lat, l.map_lng as lng,
         l.state as state_name, l.city as city_name, l.sector as sector_name,
         g.type_group,
         a.area,
         l.price::double precision / a.area as usd_m2,
         k.months as cut_months,
         k.listing_id is not null as repriced
    from internal.listings l
    cross join lateral (select (case when l.property_type = 'land' then coalesce(nullif(l.lot_size, 0), l.square_feet) else l.square_feet end) as counted) c
    cross join lateral (select c.counted::double precision as area) a
    -- whether its price ever changed, and the months in which it was cut
    left join (select c.listing_id, pg_catalog.array_agg(distinct date_trunc('month', c.changed_at)::date) filter (where c.new_price < c.old_price) as months
                 from internal.listing_price_changes c group by c.listing_id) k on k.listing_id = l.id
    -- each type's group, asked once a type (not once a listing: the rule pins its search path, so
    -- each call costs a setting of it)
    join (select t.property_type, internal.market_type_group(t.property_type) as type_group
            from (select distinct x.property_type from internal.listings x) t) g on g.property_type = l.property_type
   where l.country_code = 'EC' and l.operation = 'sale' and coalesce(l.state_slug, '') <> '' and coalesce(l.city_slug, '') <> ''
     and g.type_group is not null
     and c.counted >= 15;
end
$$;

-- A stage of internal.rebuild_market_index: the places and type groups as integer keys, and the
-- listings with them (pg_temp.market_places, market_groups, market_listings).
create or replace function internal.market_keys()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- its places and type group as small integer keys: the groupings below sort millions of rows,
  -- and integers sort faster than names
  drop table if exists pg_temp.market_places;
  create temp table market_places on commit drop as
  select d.state_slug, d.city_slug, d.sector_slug,
         -- one key to join the listings by (slugs are parts of paths: none holds a '/')
         d.state_slug || '/' || d.city_slug || '/' || coalesce(d.sector_slug, '') as place,
         pg_catalog.dense_rank() over (order by d.state_slug)::integer as state_key,
         pg_catalog.dense_rank() over (order by d.city_slug)::integer as city_key,
         case when d.sector_slug is not null then pg_catalog.dense_rank() over (order by d.city_slug, d.sector_slug)::integer end as sector_key
    from (select distinct l.state_slug, l.city_slug, l.sector_slug from pg_temp.market_found l) d;
  analyze pg_temp.market_places;
  drop table if exists pg_temp.market_groups;
  create temp table market_groups on commit drop as
  select g.type_group, pg_catalog.row_number() over (order by g.type_group)::smallint as group_key
    from (select distinct l.type_group from pg_temp.market_found l) g;
  analyze pg_temp.market_groups;
  drop table if exists pg_temp.market_listings;
  create temp table market_listings on commit drop as
  select l.*, g.group_key, p.state_key, p.city_key, p.sector_key
    from pg_temp.market_found l
    join pg_temp.market_places p on p.place = l.state_slug || '/' || l.city_slug || '/' || coalesce(l.sector_slug, '')
    join pg_temp.market_groups g on g.type_group = l.type_group;
  analyze pg_temp.market_listings;
end
$$;

-- A stage of internal.rebuild_market_index: each price a repriced listing asked, and when
-- (pg_temp.market_prices).
create or replace function internal.market_prices()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- the asking prices over time of the listings whose price changed: each price from when it was
  -- set until the next change (the others asked their price all along)
  drop table if exists pg_temp.market_prices;
  create temp table market_prices on commit drop as
  select c.listing_id,
         coalesce(pg_catalog.lag(c.changed_at) over w, '-infinity'::timestamptz) as valid_from,
         c.changed_at as valid_to,
         c.old_price::double precision as price
    from internal.listing_price_changes c
  window w as (partition by c.listing_id order by c.changed_at, c.id)
  union all
  (select distinct on (c.listing_id) c.listing_id, c.changed_at, 'infinity'::timestamptz, c.new_price::double precision
     from internal.listing_price_changes c
    order by c.listing_id, c.changed_at desc, c.id desc);
  create index on pg_temp.market_prices (listing_id, valid_from);
  analyze pg_temp.market_prices;
end
$$;

-- A stage of internal.rebuild_market_index: the months of the period from `since`
-- (pg_temp.market_months). How many.
create or replace function internal.market_months(since date, at_now timestamptz)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- the months of the period, numbered from 0
  drop table if exists pg_temp.market_months;
  create temp table market_months on commit drop as
  select (pg_catalog.row_number() over (order by m) - 1)::integer as i, m::date as month, m as start, least(m + interval '1 month', at_now) as cutoff
    from pg_catalog.generate_series(since::timestamptz, internal.this_month()::timestamptz, interval '1 month') m;
  return (select count(*)::integer from pg_temp.market_months);
end
$$;

-- A stage of internal.rebuild_market_index: each time on the market of a listing that counts,
-- with the months it counts in (pg_temp.market_spells).
create or replace function internal.market_spells(months integer, at_now timestamptz)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  starts timestamptz[];
begin
  -- when each month of the period begins
  select pg_catalog.array_agg(m.start order by m.i) into starts from pg_temp.market_months m;
  -- each time on the market of a listing that counts, with the months it counts in (docs/market.md
  -- rule 1): from the month it came on (this month only if it came on before now) to the month it
  -- went off, and not from the month the listing's next time on the market began (that one counts
  -- then; this month only if that one begins after now)
  drop table if exists pg_temp.market_spells;
  create temp table market_spells on commit drop as
  select s.id, s.on_at, s.off_at, s.first_i, s.last_i, l.usd_m2, l.area, l.repriced, l.cut_months, l.group_key, l.state_key, l.city_key, l.sector_key
    from (select s.id, s.on_at, s.off_at,
                 case when s.on_i < months - 1 or (s.on_i = months - 1 and s.on_at < at_now) then greatest(s.on_i, 0) end as first_i,
                 least(months - 1,
                       case when s.off_at is null then months - 1 else s.off_i end,
                       case when s.next_on is null or s.next_on >= at_now then months - 1 else s.next_i - 1 end) as last_i
            from (select s.id, s.on_at, s.off_at, s.next_on,
                         -- the number of the month a time falls in (-1 before the period; this month's for later)
                         pg_catalog.width_bucket(s.on_at, starts) - 1 as on_i,
                         pg_catalog.width_bucket(s.off_at, starts) - 1 as off_i,
                         pg_catalog.width_bucket(s.next_on, starts) - 1 as next_i
                    from (select s.listing_id as id, s.on_at, s.off_at, pg_catalog.lead(s.on_at) over (partition by s.listing_id order by s.on_at) as next_on
                            from internal.listing_spells s) s) s) s
    join pg_temp.market_listings l on l.id = s.id
   where s.first_i <= s.last_i;
end
$$;

-- A stage of internal.rebuild_market_index: the runs of months each listing asked one price per
-- m² (internal.market_runs).
create or replace function internal.market_runs_made()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- each time on the market at one price per m² over a run of months (one whose price changed has
  -- a run for each price it asked at a month's end): the rows the figures count, one per listing
  -- and month, are made from these runs where they are counted (below); in the order of the places
  -- and type group, so that within a month they come in the order the largest grouping sorts them in
  truncate internal.market_runs;
  insert into internal.market_runs (group_key, state_key, city_key, sector_key, usd_m2, first_i, last_i, on_us, off_us, cut_months)
  select r.group_key, r.state_key, r.city_key, r.sector_key, r.usd_m2, r.first_i, r.last_i,
         (extract(epoch from r.on_at) * 1000000)::bigint, (extract(epoch from r.off_at) * 1000000)::bigint, r.cut_months
    from (select sp.group_key, sp.state_key, sp.city_key, sp.sector_key, sp.usd_m2, sp.first_i, sp.last_i, sp.on_at, sp.off_at, sp.cut_months
            from pg_temp.market_spells sp
           where not sp.repriced
          union all
          -- a repriced time on the market month by month, at its price in force at the month's end
          -- (or when it went off), and the months in a row at one price made one run
          select p.group_key, p.state_key, p.city_key, p.sector_key, p.usd_m2, min(p.i), max(p.i), p.on_at, p.off_at, p.cut_months
            from (select p.*, p.i - pg_catalog.row_number() over (partition by p.id, p.on_at, p.usd_m2 order by p.i) as run
                    from (select sp.id, sp.on_at, sp.off_at, sp.cut_months, sp.group_key, sp.state_key, sp.city_key, sp.sector_key, mm.i,
                                 coalesce((select p.price from pg_temp.market_prices p
                                            where p.listing_id = sp.id and p.valid_from <= u.until and p.valid_to > u.until
                                            order by p.valid_from desc limit 1) / sp.area, sp.usd_m2) as usd_m2
                            from pg_temp.market_spells sp
                            join pg_temp.market_months mm on mm.i between sp.first_i and sp.last_i
                           cross join lateral (select least(mm.cutoff, coalesce(sp.off_at, 'infinity')) as until) u
                           where sp.repriced) p) p
           group by p.id, p.on_at, p.run, p.usd_m2, p.off_at, p.cut_months, p.group_key, p.state_key, p.city_key, p.sector_key) r
   order by r.city_key, r.sector_key, r.group_key;
  analyze internal.market_runs;
end
$$;

-- A stage of internal.rebuild_market_index: the outliers out of the runs, by the bounds of
-- the last whole rebuild, made anew on a `whole` one (internal.market_bounds).
create or replace function internal.market_outliers_out(whole boolean)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- a whole rebuild judges outliers anew: outside the 2nd-98th percentile of their city and type
  -- group over the whole period (percentile_cont() of the listing-months, worked out from how many
  -- months each price per m² was asked in)
  if whole or not exists (select 1 from internal.market_bounds) then
    delete from internal.market_bounds;
    insert into internal.market_bounds (city_slug, type_group, lo, hi)
    with counted as (
      select r.city_key, r.group_key, r.usd_m2, sum(r.last_i - r.first_i + 1) as n
        from internal.market_runs r
       where r.usd_m2 > 0
       group by r.city_key, r.group_key, r.usd_m2
    ),
    -- how many listing-months ask at most each price, and of how many in all
    running as (
      select c.city_key, c.group_key, c.usd_m2, sum(c.n) over (partition by c.city_key, c.group_key order by c.usd_m2) as upto,
             sum(c.n) over (partition by c.city_key, c.group_key) as total
        from counted c
    ),
    -- percentile_cont(p): the values at rows floor(p × (total − 1)) and ceil(p × (total − 1)) of
    -- the sorted listing-months (from 0), and the fraction between them
    placed as (
      select r.city_key, r.group_key, r.usd_m2, r.upto, 0.02::double precision * (r.total - 1)::double precision as lo_at,
             0.98::double precision * (r.total - 1)::double precision as hi_at
        from running r
    ),
    picked as (
      select q.city_key, q.group_key, q.lo_at, q.hi_at,
             min(q.usd_m2) filter (where q.upto > pg_catalog.floor(q.lo_at)) as lo_a, min(q.usd_m2) filter (where q.upto > pg_catalog.ceil(q.lo_at)) as lo_b,
             min(q.usd_m2) filter (where q.upto > pg_catalog.floor(q.hi_at)) as hi_a, min(q.usd_m2) filter (where q.upto > pg_catalog.ceil(q.hi_at)) as hi_b
        from placed q
       group by q.city_key, q.group_key, q.lo_at, q.hi_at
    )
    select c.city_slug, g.type_group,
           k.lo_a + (k.lo_at - pg_catalog.floor(k.lo_at)) * (k.lo_b - k.lo_a),
           k.hi_a + (k.hi_at - pg_catalog.floor(k.hi_at)) * (k.hi_b - k.hi_a)
      from picked k
      join (select distinct m.city_key, m.city_slug from pg_temp.market_places m) c on c.city_key = k.city_key
      join pg_temp.market_groups g on g.group_key = k.group_key;
  end if;
  -- the outliers out (and the runs of a city and group that has no bounds)
  delete from internal.market_runs r
   where not exists (select 1 from internal.market_bounds b
                       join (select distinct m.city_key, m.city_slug from pg_temp.market_places m) c on c.city_slug = b.city_slug
                       join pg_temp.market_groups g on g.type_group = b.type_group
                      where c.city_key = r.city_key and g.group_key = r.group_key and r.usd_m2 between b.lo and b.hi);
  analyze internal.market_runs;
end
$$;

-- A stage of internal.rebuild_market_index: every figure, each month, of every place and type
-- group (pg_temp.market_figures); the runs they were made of emptied.
create or replace function internal.market_figures_made(months integer)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- each month (its first day), and when it begins and ends (now, for this month) in microseconds
  month_dates date[];
  start_us bigint[];
  cutoff_us bigint[];
begin
  select pg_catalog.array_agg(m.month order by m.i), pg_catalog.array_agg((extract(epoch from m.start) * 1000000)::bigint order by m.i),
         pg_catalog.array_agg((extract(epoch from m.cutoff) * 1000000)::bigint order by m.i)
    into month_dates, start_us, cutoff_us
    from pg_temp.market_months m;

  -- every figure: each month for all types (a null group) and each group, in the country, each
  -- province, each city and each sector (`level` says which keys it is by, as grouping() over the
  -- group, province, city and sector would). Three sorts make the eight groupings (each a chain of
  -- groupings within groupings); parallel workers share the three out, each making the rows of a
  -- listing and month from the runs as it reads them. A sector's figure is of listings that name one.
  drop table if exists pg_temp.market_figures;
  create temp table market_figures on commit drop as
  with counted as not materialized (
    -- each listing on the market in each month (i) at its price per m² then; month by month
    select m.i, r.group_key, r.state_key, r.city_key, r.sector_key, r.usd_m2,
           r.on_us >= start_us[m.i + 1] as is_new,
           coalesce(month_dates[m.i + 1] = any (r.cut_months), false) as cut,
           -- its time on the market at the month's end (or when it went off), in microseconds
           least(cutoff_us[m.i + 1], r.off_us) - r.on_us as on_for
      from pg_catalog.generate_series(0, months - 1) m(i)
      join internal.market_runs r on m.i between r.first_i and r.last_i
  )
  select month_dates[k.i + 1] as month, k.group_key, null::integer as state_key, k.city_key, k.sector_key,
         4 + 8 * grouping(k.group_key) + 2 * grouping(k.city_key) + grouping(k.sector_key) as level,
         count(*)::integer as listings, pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2) as q,
         count(*) filter (where k.is_new)::integer as new_listings, count(*) filter (where k.cut)::integer as price_cuts,
         -- the two middle times on the market (of an odd count, the middle one twice): row ⌈q × n⌉
         -- of n for q = 0.5 and a hair above it (n < a billion); their median in days below
         pg_catalog.percentile_disc(array[0.5, 0.500000001]::double precision[]) within group (order by k.on_for) as middle_for
    from counted k
   group by grouping sets ((k.i, k.city_key, k.sector_key, k.group_key), (k.i, k.city_key, k.sector_key), (k.i, k.city_key))
  having grouping(k.sector_key) = 1 or k.sector_key is not null
  union all
  select month_dates[k.i + 1], k.group_key, k.state_key, null, null, 3 + 8 * grouping(k.group_key), count(*)::integer,
         pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2),
         count(*) filter (where k.is_new)::integer, count(*) filter (where k.cut)::integer,
         pg_catalog.percentile_disc(array[0.5, 0.500000001]::double precision[]) within group (order by k.on_for)
    from counted k group by grouping sets ((k.i, k.state_key, k.group_key), (k.i, k.state_key))
  union all
  select month_dates[k.i + 1], k.group_key, null, k.city_key, null, 5 + 8 * grouping(k.group_key) + 2 * grouping(k.city_key), count(*)::integer,
         pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2),
         count(*) filter (where k.is_new)::integer, count(*) filter (where k.cut)::integer,
         pg_catalog.percentile_disc(array[0.5, 0.500000001]::double precision[]) within group (order by k.on_for)
    from counted k group by grouping sets ((k.i, k.group_key, k.city_key), (k.i, k.group_key), (k.i));
  truncate internal.market_runs;
end
$$;

-- ─── supabase/schemas/27_market_rebuild.sql ───

-- The market index made (docs/market.md "Freshness"), its last stages: the places told, the index's
-- rows, trends, what each report shows and the rents; internal.rebuild_market_index, which runs the
-- stages of 26_market_figures.sql and these in order, and the schedule that calls it.

-- A stage of internal.rebuild_market_index: what each place's listings say of it, once per
-- place (not per month): its listings by the names they write, where they are on average, its name
-- and the place above it (pg_temp.market_written, market_centres, market_named, market_provinces).
create or replace function internal.market_places_told()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- the listings of each place and type group by the names they write for its places, counted,
  -- with the sums of their positions
  drop table if exists pg_temp.market_written;
  create temp table market_written on commit drop as
  select l.state_slug, l.state_name, l.city_slug, l.city_name, l.sector_slug, l.sector_name, l.type_group, count(*) as n,
         sum(l.lat) as lat, count(l.lat) as lats, sum(l.lng) as lng, count(l.lng) as lngs
    from pg_temp.market_listings l
   group by l.state_slug, l.state_name, l.city_slug, l.city_name, l.sector_slug, l.sector_name, l.type_group;
  -- where each place's listings of the group are, on average (the national report's map)
  drop table if exists pg_temp.market_centres;
  create temp table market_centres on commit drop as
  select case
           when grouping(w.sector_slug) = 0 then w.city_slug || '/' || w.sector_slug
           when grouping(w.city_slug) = 0 then w.city_slug
           when grouping(w.state_slug) = 0 then 'provincia/' || w.state_slug
           else 'ecuador'
         end as path,
         coalesce(w.type_group, 'all') as type_group,
         sum(w.lat) / nullif(sum(w.lats), 0) as lat,
         sum(w.lng) / nullif(sum(w.lngs), 0) as lng
    from pg_temp.market_written w
   group by grouping sets ((), (w.type_group), (w.state_slug), (w.type_group, w.state_slug), (w.city_slug), (w.type_group, w.city_slug),
                           (w.city_slug, w.sector_slug), (w.type_group, w.city_slug, w.sector_slug));
  -- each place's name as most of its listings write it (the first in order of those written as
  -- often, as mode() answers), and the place its figure is offered from (a city's province: the one
  -- most of its listings name), once per place, not per month
  drop table if exists pg_temp.market_named;
  create temp table market_named on commit drop as
  select distinct on (w.path) w.path, w.name, w.parent
    from (select 'provincia/' || w.state_slug as path, w.state_name as name, 'ecuador' as parent, sum(w.n) as n
            from pg_temp.market_written w group by w.state_slug, w.state_name
          union all
          select w.city_slug, w.city_name, null, sum(w.n) from pg_temp.market_written w group by w.city_slug, w.city_name
          union all
          select w.city_slug || '/' || w.sector_slug, w.sector_name, w.city_slug, sum(w.n)
            from pg_temp.market_written w where w.sector_slug is not null group by w.city_slug, w.sector_slug, w.sector_name) w
   order by w.path, w.name is null, w.n desc, w.name;
  drop table if exists pg_temp.market_provinces;
  create temp table market_provinces on commit drop as
  select distinct on (w.city_slug) w.city_slug as path, 'provincia/' || w.state_slug as parent
    from (select w.city_slug, w.state_slug, sum(w.n) as n from pg_temp.market_written w group by w.city_slug, w.state_slug) w
   order by w.city_slug, w.n desc, w.state_slug;
end
$$;

-- A stage of internal.rebuild_market_index: the index's rows from `since`, each figure with its
-- place's path, kind, name, parent and centre (internal.market_index). How many.
create or replace function internal.market_index_made(since date)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  written integer;
begin
  delete from internal.market_index i where i.month >= since;
  with
  -- each figure's place (its path) and type group
  paths as (
    select f.*, coalesce(g.type_group, 'all') as type_group,
           case
             when f.sector_key is not null then 'sector'
             when f.city_key is not null then 'city'
             when f.state_key is not null then 'province'
             else 'country'
           end as kind,
           coalesce(s.path, c.path, 'provincia/' || p.state_slug, 'ecuador') as path
      from pg_temp.market_figures f
      left join pg_temp.market_groups g on g.group_key = f.group_key
      left join (select distinct m.sector_key, m.city_slug || '/' || m.sector_slug as path from pg_temp.market_places m where m.sector_key is not null) s on s.sector_key = f.sector_key
      left join (select distinct m.city_key, m.city_slug as path from pg_temp.market_places m) c on c.city_key = f.city_key and f.sector_key is null
      left join (select distinct m.state_key, m.state_slug from pg_temp.market_places m) p on p.state_key = f.state_key
  )
  insert into internal.market_index (path, kind, name, parent, type_group, month, listings, median, p25, p75, new_listings, price_cuts, median_days, lat, lng)
  select f.path, f.kind, coalesce(n.name, case when f.path = 'ecuador' then 'Ecuador' end, f.path), coalesce(n.parent, v.parent), f.type_group, f.month, f.listings,
         round(f.q[2]::numeric, 2), round(f.q[1]::numeric, 2), round(f.q[3]::numeric, 2),
         f.new_listings, f.price_cuts, round((
           -- the median days on the market of the two middle times on the market, in microseconds
           -- (of an odd count, the middle one twice): as percentile_cont(0.5) gives it over the days
           -- that date_part('epoch', interval) / 86400 gives for each (whole days, then the rest in
           -- seconds), to the last bit, from times that sort as integers (docs/market.md "Freshness")
           select min(d.days) + 0.5::double precision * (max(d.days) - min(d.days))
             from (select ((u % 86400000000)::double precision / 1000000::double precision + ((u / 86400000000) * 86400)::double precision) / 86400::double precision as days
                     from pg_catalog.unnest(f.middle_for) u) d))::integer, c.lat, c.lng
    from paths f
    left join pg_temp.market_centres c on c.path = f.path and c.type_group = f.type_group
    left join pg_temp.market_named n on n.path = f.path
    left join pg_temp.market_provinces v on v.path = f.path;
  get diagnostics written = row_count;
  return written;
end
$$;

-- A stage of internal.rebuild_market_index: each figure's trend, beside the months a ranking
-- reads.
create or replace function internal.market_trends(since date)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- beside the months a ranking reads (last month and this one): each figure's trend
  update internal.market_index i
     set median_year_before = (select y.median from internal.market_index y
                                where y.path = i.path and y.type_group = i.type_group and y.month = (i.month - interval '12 months')::date
                                  and y.listings >= internal.market_minimum()),
         trend = (select pg_catalog.array_agg(case when t.listings >= internal.market_minimum() then t.median end order by m.month)
                    from pg_catalog.generate_series(i.month - interval '12 months', i.month, interval '1 month') m(month)
                    left join internal.market_index t on t.path = i.path and t.type_group = i.type_group and t.month = m.month::date)
   where i.month >= greatest(since, (internal.this_month() - interval '1 month')::date);
end
$$;

-- A stage of internal.rebuild_market_index: what each place's report shows from `since`
-- (internal.market_shown).
create or replace function internal.market_shown_made(since date)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- what each place's report shows: each month, the nearest place of its chain (itself, then the
  -- places above it) whose figure stands on enough listings
  delete from internal.market_shown s where s.month >= since;
  insert into internal.market_shown (place, type_group, month, path, name, listings, median, p25, p75, new_listings, price_cuts, median_days)
  with recursive places as (
    -- a place has one parent: any row says it
    select distinct on (i.path) i.path, i.parent from internal.market_index i order by i.path
  ),
  chain as (
    select p.path as place, p.path, p.parent, 0 as depth from places p
    union all
    select c.place, q.path, q.parent, c.depth + 1 from chain c join places q on q.path = c.parent where c.depth < 3
  )
  select distinct on (c.place, i.type_group, i.month) c.place, i.type_group, i.month, i.path, i.name, i.listings, i.median, i.p25, i.p75,
         i.new_listings, i.price_cuts, i.median_days
    from chain c
    join internal.market_index i on i.path = c.path and i.month >= since and i.listings >= internal.market_minimum()
   order by c.place, i.type_group, i.month, c.depth;
end
$$;

-- A stage of internal.rebuild_market_index: the rents now, every place at once
-- (internal.market_rents_now).
create or replace function internal.market_rents_made()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
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
       where l.is_public and l.operation = 'rent'
         and l.property_type in ('house', 'quinta', 'apartment', 'suite') and l.square_feet >= 15 and l.price > 0
       group by grouping sets ((), (l.state_slug), (l.city_slug), (l.city_slug, l.sector_slug))
    ) r
   -- a place has a name in each part of its path (a listing without a sector is its city's only);
   -- no rentals at all: no row (the grand total of nothing is a row of nulls)
   where r.listings > 0 and r.path ~ '^(ecuador|provincia/[^/]+|[^/]+|[^/]+/[^/]+)$';
end
$$;

-- Every figure of the index made again from the listings, their spells and their price changes:
-- the last 24 months and the month so far (docs/market.md), or only the months from `from_month`
-- (the hourly refresh: last month and this one), whose outliers are judged by the bounds of the
-- last whole rebuild (internal.market_bounds). Answers how many rows it wrote. Its cost is its
-- row per listing and month and the sorts of them (docs/market.md "Freshness"): the rows are made
-- where they are counted, from each time on the market at one price (its run of months), carry
-- integer keys of the places and come in the order the largest grouping sorts them in; the
-- outlier bounds and outliers are worked out on the runs. Its stages, each a function of its own
-- above, in the order it runs them; each makes what the next reads (temporary tables, dropped at
-- the transaction's end).
create or replace function internal.rebuild_market_index(from_month date default null)
returns integer
language plpgsql
security definer
set search_path = ''
-- its sorts and groupings in memory (a job of the server's): the default 4 MB spills to disk
set work_mem = '256MB'
-- its months are Ecuador's: a month begins at midnight in Guayaquil (docs/market.md rule 1)
set timezone = 'America/Guayaquil'
as $$
declare
  -- one instant for the whole rebuild
  at_now timestamptz := internal.now();
  first_month date := (internal.this_month() - interval '24 months')::date;
  since date := greatest(coalesce(from_month, first_month), first_month);
  months integer;
  written integer;
begin
  perform internal.market_found();
  perform internal.market_keys();
  perform internal.market_prices();
  months := internal.market_months(since, at_now);
  perform internal.market_spells(months, at_now);
  perform internal.market_runs_made();
  perform internal.market_outliers_out(from_month is null);
  perform internal.market_figures_made(months);
  perform internal.market_places_told();
  written := internal.market_index_made(since);
  perform internal.market_trends(since);
  perform internal.market_shown_made(since);
  perform internal.market_rents_made();
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
  if built is not null and built > internal.now() - max_age then
    return null;
  end if;
  -- whole once a day (or when asked with no age at all), else last month and this one
  if whole is null or whole < internal.now() - interval '1 day' or max_age <= interval '0' then
    written := internal.rebuild_market_index();
    whole := internal.now();
  else
    written := internal.rebuild_market_index((internal.this_month() - interval '1 month')::date);
  end if;
  insert into internal.job_schedule (job, due_at, last_started_at, last_finished_at, last_full_at)
  -- finished: the clock's time now, at the end of the rebuild (not the transaction's start)
  values ('market-index', internal.now() + max_age, internal.now(), internal.now() + (pg_catalog.clock_timestamp() - pg_catalog.now()), whole)
  on conflict (job) do update
    set due_at = excluded.due_at, last_started_at = excluded.last_started_at,
        last_finished_at = excluded.last_finished_at, last_full_at = excluded.last_full_at;
  return written;
end
$$;

-- ─── supabase/schemas/28_market_read.sql ───

-- The market index read (docs/market.md): a place's months, a listing's place, the rankings, the
-- rents and the report, as the data API serves them.

-- A place's index (docs/market.md), month by month, oldest first: the figure of the place itself
-- where it stands on enough listings, else its parent's (then `path` names the parent), else none.
-- `place`: 'ecuador', 'provincia/pichincha', 'quito', 'quito/cumbaya'; `type_group`: all, house,
-- apartment, land, commercial; `months`: how many, the month so far included (1 to 25).
create or replace function public.market_index(place text, type_group text default 'all', months integer default 13)
returns table (
  month date,
  path public.plain_text,
  name public.plain_text,
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
  -- written with the index (internal.market_shown): each month, the nearest place's figure that
  -- stands on enough listings
  return query
  select s.month, s.path::public.plain_text, s.name::public.plain_text, s.listings, s.median, s.p25, s.p75, s.new_listings, s.price_cuts, s.median_days
    from internal.market_shown s
   where s.place = market_index.place and s.type_group = market_index.type_group
     and s.month >= (internal.this_month() - make_interval(months => months - 1))::date
   order by s.month;
end
$$;

-- A listing's market (docs/market.md, "Where it shows"): last month and this one of its sector's
-- index for its type group (or of the nearest place that has a figure), asked by the listing's id
-- so that a listing's page asks for it at the same time as the listing itself.
create or replace function public.listing_market(listing_id bigint)
returns table (
  month date,
  path public.plain_text,
  name public.plain_text,
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
     and l.is_public and l.operation = 'sale'
     and internal.market_type_group(l.property_type) is not null
     and coalesce(l.city_slug, '') <> ''
$$;

-- The places in a place (a province's cities, a city's sectors; Ecuador's provinces or, with
-- `kind` 'city', its cities) with their figure of last month, of twelve months before that, and
-- the thirteen months between (oldest first; null where a month stands on too few listings), for
-- rankings and their small trend lines; only places whose last month stands on enough listings.
create or replace function public.market_ranking(place text, type_group text default 'all', kind text default null)
returns table (path public.plain_text, name public.plain_text, listings integer, median numeric, median_year_before numeric, trend numeric[], lat double precision, lng double precision)
language sql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select i.path, i.name, i.listings, i.median, i.median_year_before, i.trend, i.lat, i.lng
    from internal.market_index i
   where i.type_group = market_ranking.type_group
     and i.month = (internal.this_month() - interval '1 month')::date
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
  where is_public and operation = 'rent';

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

-- What a search's filters `f` ask of a listing `l` (docs/decisions.md #25): the one text of the
-- conditions. The search, its count and the map's clusters write it into the statement they run
-- (EXECUTE, planned for the filters given: each filter not given folds away and each given one is a
-- condition on its index, as an inlined function would plan); internal.listing_matches() below is
-- made from it, for those that test one listing against many searches (the alerts, buyer demand).
-- As text, not an inlinable SQL function, because the functions pin their search path (Supabase's
-- advisor, docs/deployment.md "The advisor"), which stops the planner from inlining them.
create or replace function internal.listing_conditions()
returns text
language sql
immutable
parallel safe
set search_path = ''
as $body$
  select $conditions$
    l.is_public
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
    and (f->>'open_house' is null or l.open_houses && pg_catalog.tstzrange(internal.now(), internal.now() + interval '7 days'))
    -- for sale unless the search says rent or new developments (docs/product.md "Rent and buy")
    and l.operation = coalesce(f->>'operation', 'sale')
    -- a new development delivered by the end of a year (its listing's year built), or already (docs/projects.md)
    and (f->>'delivery_by' is null or l.project->>'stage' = 'delivered' or l.year_built <= (f->>'delivery_by')::integer)
    and (f->>'stage' is null or l.project->>'stage' = f->>'stage')
    -- the facts of docs/product.md "The facts of a listing": a listing that does not say its
    -- alícuota is kept by a maximum (as a house outside a condominium pays none)
    and (f->>'hoa_max' is null or coalesce(l.hoa_fee, 0) <= (f->>'hoa_max')::numeric)
    and (f->>'parking_min' is null or l.parking_spaces >= (f->>'parking_min')::integer)
    and (f->>'storage' is null or l.storage_unit)
    and (f->>'furnished' is null or l.furnished = 'yes')
    and (f->>'pets' is null or l.pets_allowed)
  $conditions$
$body$;

-- The filters `f` in a statement that runs internal.listing_conditions(): `filters`, an expression
-- of the statement (a parameter, '$1'), as the relation the conditions read `f` from.
create or replace function internal.filters_as_f(filters text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select '(select (' || filters || ')::jsonb as f) as filters_f'
$$;

-- whether a listing matches a search's filters, one at a time
do $$
begin
  execute pg_catalog.format(
    'create or replace function internal.listing_matches(l internal.listings, f jsonb) returns boolean language sql stable parallel safe set search_path = %L as %L',
    '', 'select ' || internal.listing_conditions());
end
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
  if f ? 'operation' and f->>'operation' not in ('sale', 'rent', 'project') then
    raise exception 'operation must be sale, rent or project' using errcode = '22023';
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
-- it reads internal.listings for the public key; only the public listings (the conditions check
-- is_public) and only the view's columns
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
  -- more than a page, asked through a hosted project's PostgREST by the public key: one of the two
  -- turns of a read whose size the client chooses (98_data_api_gate.sql)
  if page_size > 48 and pg_catalog.current_setting('role', true) = 'anon' and pg_catalog.current_setting('request.path', true) is not null then
    perform internal.take_bulk_turn();
  end if;
  walk := case coalesce(sort, 'featured')
    when 'price_asc' then 'price_asc' when 'price_desc' then 'price_desc'
    when 'relevance' then 'newest' when 'featured' then 'newest' when 'newest' then 'newest' end;
  if walk is null then
    raise exception 'sort must be featured, newest, price_asc, price_desc or relevance' using errcode = '22023';
  end if;
  columns := internal.public_listing_columns('l');

  if not (f ? 'words' and pg_catalog.numnode(public.words_query(f->>'words')) > 0) then
    return query execute
      'select ' || columns || ' from internal.listings l, ' || internal.filters_as_f('$1') || ' where ' || internal.listing_conditions()
        || ' order by ' || internal.walk_order(walk, 'l') || ' limit $2 offset $3'
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
    execute 'select count(*) from internal.listings l, ' || internal.filters_as_f('$1') || ' where ' || internal.listing_conditions()
      into n using '{}'::jsonb;
    return n;
  end if;
  -- a null array folds away in EXECUTE's one-shot plan, and an array becomes a hashed condition
  execute 'select count(*) from internal.listings l, ' || internal.filters_as_f('$1') || ' where ' || internal.listing_conditions()
    || ' and ($2::bigint[] is null or l.id + 0 = any($2))'
    into n using f - 'words', internal.word_match_ids(f);
  return n;
end
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
  -- the listing's words are in its title or its features (Best match's first rank); words in the
  -- title are in the listing's words, unless the words exclude one (-ruido): then the title's match
  -- needs no test of the whole text, which is the cost of a common word
  in_title constant text := 'l.title_words @@ public.words_query($1->>''words'')';
  matching text := 'internal.listings l, '
    || internal.filters_as_f(case when title = 'title' and pg_catalog.strpos(public.words_query(f->>'words')::text, '!') = 0 then '$1 - ''words''' else '$1' end)
    || ' where ' || internal.listing_conditions()
    || case title when 'title' then ' and ' || in_title when 'not title' then ' and not ' || in_title else '' end;
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
      execute 'select w.' || key || '::text from internal.listings w where w.is_public order by '
        || internal.walk_order(sort, 'w') || ' offset $1 limit 1'
        into edge using size - 1;
    end if;
    perform internal.prefer_word_index(f, true);
    if edge is null then
      execute 'select array(select l.id from ' || matching || ' order by '
        || internal.walk_order(sort, 'l') || ' limit $2)'
        into ids using f, need;
      perform internal.prefer_word_index(f, false);
      exit;
    end if;
    execute 'select array(select l.id from ' || matching || ' and ' || within
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

-- counted again as the listings change (33_listing_copies.sql)
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
    where l.is_public
      and (l.state_slug = any(provinces) or l.city_slug = any(cities))
    group by grouping sets ((l.state_slug), (l.city_slug), (l.city_slug, l.sector_slug))
  ) g
  where case g.kind
          when 'province' then g.state_slug <> '' and g.state_slug = any(provinces)
          when 'city' then g.city_slug <> '' and g.city_slug = any(cities)
          else g.city_slug <> '' and g.sector_slug <> '' and g.city_slug = any(cities)
        end;
$$;

-- The location box: places whose name (or other name) holds the text, begins with it, or is near
-- it (a typo: trigram similarity), the best first; then a listing by its code (the listing's
-- number), or by its street when the text names no place. From the second letter; at most
-- `max_results` (10).
create or replace function public.place_suggestions(q text, max_results integer default 8)
returns table (kind public.plain_text, path public.plain_text, name public.plain_text, city public.plain_text, province public.plain_text, listings integer,
  lat double precision, lng double precision, west double precision, south double precision, east double precision, north double precision)
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
    where t.text ~ '^#?[0-9]{1,15}$' and l.id = pg_catalog.ltrim(t.text, '#')::bigint and l.is_public
  ),
  addresses as (
    select 'listing'::text as kind, l.id::text as path, l.address as name, l.city, l.state as province, 1 as listings,
           l.map_lat as lat, l.map_lng as lng, l.map_lng as west, l.map_lat as south, l.map_lng as east, l.map_lat as north
    from internal.listings l, t
    where pg_catalog.length(t.text) >= 4 and t.text !~ '^#?[0-9]+$'
      and l.is_public
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

-- counted again as the listings change (33_listing_copies.sql)
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
returns void
language sql
security definer
set search_path = ''
as $$
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

-- ─── supabase/schemas/33_listing_copies.sql ───

-- Every copy made from the listings, in one place: the words' copy (22_listing_words.sql), the
-- places' counts (31_places.sql) and the map's cells (32_map.sql). Kept by one statement trigger
-- for each kind of change, and made again, all three, at the end of a bulk load that deferred them.

-- A listing that becomes public (or changes its words) is written into the words' copy, one that
-- stops being public (withdrawn, deleted) is taken out; the cells and the places it was in, or is
-- in now, are counted again. Each statement names only the transition tables its event has.
create or replace function internal.listing_copies_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- the map cells to count again (listings for sale, public, before or after)
  xs double precision[];
  ys double precision[];
  -- the places to count again
  provinces text[];
  cities text[];
begin
  -- a bulk load (the seed, a large import) makes every copy once at its end (listings_derived_rebuild)
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  if tg_op = 'INSERT' then
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation from new_rows n where n.is_public and n.words is not null
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
    select array_agg(map_x) filter (where is_public and operation = 'sale'),
           array_agg(map_y) filter (where is_public and operation = 'sale'),
           array_agg(distinct state_slug), array_agg(distinct city_slug)
      into xs, ys, provinces, cities
      from new_rows;
  elsif tg_op = 'DELETE' then
    delete from internal.listing_words w using old_rows o where w.id = o.id;
    select array_agg(map_x) filter (where is_public and operation = 'sale'),
           array_agg(map_y) filter (where is_public and operation = 'sale'),
           array_agg(distinct state_slug), array_agg(distinct city_slug)
      into xs, ys, provinces, cities
      from old_rows;
  else
    delete from internal.listing_words w
     using old_rows o
     where w.id = o.id
       and not exists (select 1 from new_rows n where n.id = o.id and n.is_public and n.words is not null);
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation
      from new_rows n
     where n.is_public and n.words is not null
       and not exists (select 1 from old_rows o where o.id = n.id and o.words = n.words and o.operation = n.operation and o.is_public)
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
    -- a listing that moved, changed price or became (in)active: its old cell and its new one, each if public
    select array_agg(c.x), array_agg(c.y) into xs, ys
    from old_rows o
    join new_rows n using (id)
    cross join lateral (values (o.map_x, o.map_y, o.is_public, o.operation), (n.map_x, n.map_y, n.is_public, n.operation)) c(x, y, is_public, operation)
    where (o.map_x, o.map_y, o.price, o.status, o.country_code, o.map_approximate, o.operation)
          is distinct from (n.map_x, n.map_y, n.price, n.status, n.country_code, n.map_approximate, n.operation)
      and c.is_public and c.operation = 'sale';
    -- a listing that moved or changed what a place counts: the places it was in and is in
    select array_agg(distinct c.state_slug), array_agg(distinct c.city_slug) into provinces, cities
    from old_rows o
    join new_rows n using (id)
    cross join lateral (values (o.state_slug, o.city_slug), (n.state_slug, n.city_slug)) c(state_slug, city_slug)
    where (o.state, o.city, o.sector, o.status, o.country_code, o.map_lat, o.map_lng, o.operation)
          is distinct from (n.state, n.city, n.sector, n.status, n.country_code, n.map_lat, n.map_lng, n.operation);
  end if;
  if xs is not null then perform internal.listing_cells_recount(internal.listing_cell_index(xs), internal.listing_cell_index(ys)); end if;
  if provinces is not null then perform internal.places_recount(provinces, cities); end if;
  return null;
end
$$;

create trigger listing_copies_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.listing_copies_changed();

create trigger listing_copies_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.listing_copies_changed();

create trigger listing_copies_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.listing_copies_changed();

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
  select l.id, l.words, l.operation from internal.listings l where l.is_public and l.words is not null;
end
$$;

-- ─── supabase/schemas/33_numbers.sql ───

-- Numbers the estimate works with (docs/valuation.md): linear systems, an inverse, weighted
-- quantiles and robust weights.

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

-- The inverse of a square matrix (row by row) by Gauss-Jordan elimination with partial pivoting;
-- null when it has none. The estimate's leverages are read from it.
create or replace function internal.inverse_matrix(a double precision[])
returns double precision[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  n integer := round(sqrt(pg_catalog.array_length(a, 1)));
  m double precision[] := a;
  inv double precision[] := pg_catalog.array_fill(0::double precision, array[n * n]);
  best integer;
  f double precision;
  t double precision;
begin
  for i in 1..n loop inv[(i - 1) * n + i] := 1; end loop;
  for col in 1..n loop
    best := col;
    for r in col + 1..n loop
      if abs(m[(r - 1) * n + col]) > abs(m[(best - 1) * n + col]) then best := r; end if;
    end loop;
    if abs(m[(best - 1) * n + col]) < 1e-12 then
      return null;
    end if;
    for c in 1..n loop
      t := m[(col - 1) * n + c]; m[(col - 1) * n + c] := m[(best - 1) * n + c]; m[(best - 1) * n + c] := t;
      t := inv[(col - 1) * n + c]; inv[(col - 1) * n + c] := inv[(best - 1) * n + c]; inv[(best - 1) * n + c] := t;
    end loop;
    f := m[(col - 1) * n + col];
    for c in 1..n loop m[(col - 1) * n + c] := m[(col - 1) * n + c] / f; inv[(col - 1) * n + c] := inv[(col - 1) * n + c] / f; end loop;
    for r in 1..n loop
      continue when r = col or m[(r - 1) * n + col] = 0;
      f := m[(r - 1) * n + col];
      for c in 1..n loop
        m[(r - 1) * n + c] := m[(r - 1) * n + c] - f * m[(col - 1) * n + c];
        inv[(r - 1) * n + c] := inv[(r - 1) * n + c] - f * inv[(col - 1) * n + c];
      end loop;
    end loop;
  end loop;
  return inv;
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

-- Robust weights (docs/valuation.md, step 3): each weight times Tukey's bisquare of its deviation
-- over six median deviations; a deviation beyond that weighs nothing. The median deviation is the
-- plain one of all that count (weight above 0): weighed, it would stand on the few heaviest, and one
-- of them priced unlike the rest would move the scale that is to find it.
create or replace function internal.bisquare_weights(weights double precision[], deviations double precision[])
returns double precision[]
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.array_agg(u.w * power(greatest(0, 1 - power(u.dev / greatest(s.scale, 1e-6), 2)), 2) order by u.n)
    from unnest(weights, deviations) with ordinality u(w, dev, n),
         (select pg_catalog.percentile_cont(0.5) within group (order by abs(v.dev)) * 6 as scale
            from unnest(weights, deviations) v(w, dev) where v.w > 0) s
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

-- A stage of public.estimate_value: the home's facts, checked (a refused one names its field).
create or replace function internal.valuation_home(facts jsonb, out kind text, out grp text, out kinds text[], out built double precision, out lot double precision,
  out area double precision, out beds double precision, out baths double precision, out built_year double precision, out feats text[], out has_feats boolean, out own bigint)
language plpgsql
stable
set search_path = ''
as $$
declare
  f jsonb := facts;
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
  built_year := internal.fact_number(f, 'year_built', 1800, extract(year from internal.this_month()) + 3);
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
end
$$;

-- A stage of public.estimate_value: where the home is: a point in Ecuador (the mainland or the
-- Galápagos), else a place of the location box.
create or replace function internal.valuation_point(facts jsonb, out at_lat double precision, out at_lng double precision, out place text)
language plpgsql
stable
set search_path = ''
as $$
declare
  f jsonb := facts;
begin
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
end
$$;

-- A stage of public.estimate_value: its comparables, at most 80 nearest active listings of the type
-- within 30 km, each with its distance, its ln(USD/m²), whether it is in the home's sector, and
-- what it differs from the home in (`xs`: p = 10 a comparable, row by row).
create or replace function internal.valuation_comparables(kind text, kinds text[], area double precision, built_year double precision, beds double precision, baths double precision, lot double precision,
  has_feats boolean, feats text[], at_lat double precision, at_lng double precision, place text, own bigint,
  out n integer, out ids bigint[], out same boolean[], out d double precision[], out y double precision[], out xs double precision[])
language plpgsql
stable
set search_path = ''
as $$
declare
  shrink double precision := cos(radians(at_lat));
  -- when the estimate is for: the home's own listing date when it is a listing, else now
  at_time timestamptz := coalesce((select l.listed_at from internal.listings l where l.id = own), internal.now());
  -- the home's sector (the place's, else the nearest comparable's)
  home_sector text;
  c record;
begin
  n := 0; ids := '{}'; same := '{}'; d := '{}'; y := '{}'; xs := '{}';
  -- the nearest active listings of the type, by the GiST index of their position
  for c in
    select l.id, l.price::double precision as price, l.square_feet::double precision as built, l.lot_size::double precision as lot,
           l.bedrooms::double precision as beds, l.bathrooms::double precision as baths, l.year_built::double precision as year, l.features,
           l.city_slug || '/' || coalesce(l.sector_slug, '') as sector,
           extract(epoch from l.listed_at - at_time) / 31557600 as years,
           (l.location[0] - at_lng) * 111.32 * shrink as east_km, (l.location[1] - at_lat) * 111.32 as north_km,
           sqrt(power((l.location[1] - at_lat) * 111320, 2) + power((l.location[0] - at_lng) * 111320 * shrink, 2)) as dist
      from internal.listings l
     where l.is_public and l.operation = 'sale' and l.location is not null and l.property_type = any (kinds) and l.price > 0
       and l.id is distinct from own
     -- listings at one distance (flats of one building) in the order of their ids, so that the same
     -- market gives the same comparables however its rows were written (docs/valuation.md, step 1)
     order by l.location <-> point(at_lng, at_lat), l.id
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
      case when not has_feats then 0 else coalesce(pg_catalog.cardinality(c.features), 0) - coalesce(pg_catalog.cardinality(feats), 0) end,
      -- when it was listed (the market moves), and where it stands from the home (a local slope)
      c.years,
      c.east_km,
      c.north_km
    ]::double precision[];
  end loop;
end
$$;

-- A stage of public.estimate_value: the six heaviest comparables, with what each says the home asks.
create or replace function internal.valuation_comparables_told(ids bigint[], d double precision[], y double precision[], r double precision[], w double precision[], b double precision[], area double precision)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', l.id, 'title', l.title, 'price', l.price, 'area_m2', l.square_feet, 'lot_m2', l.lot_size, 'bedrooms', l.bedrooms,
           'bathrooms', l.bathrooms, 'property_type', l.property_type, 'city', l.city, 'sector', l.sector, 'images', l.images,
           'distance_m', round(u.dist), 'usd_m2', round((exp(u.y))::numeric, 2),
           'adjusted', round((exp(b[1] + u.r) * area / 1000)::numeric) * 1000
         ) order by u.w desc, l.id), '[]'::jsonb)
    from (
      select t.id, t.dist, t.y, t.r, t.w
        from unnest(ids, d, y, r, w) as t(id, dist, y, r, w)
       order by t.w desc, t.id
       limit 6
    ) u
    join internal.listings l on l.id = u.id
$$;

-- A stage of public.estimate_value: what is around the home: its place (the sector, else the city,
-- of the nearest comparable) and its market figure, the agent who serves it, and the buyers whose
-- confirmed saved searches a home like it, at its value, would match.
create or replace function internal.valuation_context(ids bigint[], grp text, kind text, value double precision, area double precision, beds double precision, baths double precision, built double precision,
  lot double precision, built_year double precision, feats text[], at_lat double precision, at_lng double precision,
  out near_path text, out near_name text, out market jsonb, out agent jsonb, out demand jsonb)
language plpgsql
stable
set search_path = ''
as $$
declare
  nearest record;
  serving bigint;
  subject internal.listings;
begin
  -- the place: the sector (else the city) of the nearest comparable, and its market figure (its
  -- row read once: the place and the buyers' match below both read it)
  select l.city_slug, l.sector_slug, l.state_slug, l.place_search,
         case when coalesce(l.sector_slug, '') <> '' then l.city_slug || '/' || l.sector_slug else l.city_slug end as path
    into nearest
    from internal.listings l where l.id = ids[1];
  near_path := nearest.path;
  select pl.name into near_name from internal.places pl where pl.path = near_path;
  select pg_catalog.jsonb_build_object('path', m.path, 'name', m.name, 'month', m.month, 'median', m.median, 'listings', m.listings,
           'year_before', (select y.median from public.market_index(near_path, grp, 14) y where y.month = (m.month - interval '12 months')::date and y.path = m.path))
    into market
    from public.market_index(near_path, grp, 2) m
   where m.month = (internal.this_month() - interval '1 month')::date;

  -- the agent who serves it (a seller's lead goes to them), asked once: written in the query's
  -- condition, the planner would also run it to estimate the rows (docs/valuation.md "Accuracy", speed)
  serving := internal.area_agent(near_path);
  select pg_catalog.jsonb_build_object('id', a.id, 'name', nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), ''), 'picture', a.picture)
    into agent
    from public.agents a
   where a.id = serving;

  -- buyers whose confirmed saved searches a home like this, at this value, would match
  subject := pg_catalog.jsonb_populate_record(null::internal.listings, pg_catalog.jsonb_build_object(
    'country_code', 'EC', 'status', '1', 'is_public', true, 'operation', 'sale', 'property_type', kind, 'price', round(value), 'bedrooms', beds, 'bathrooms', baths,
    'square_feet', built, 'lot_size', lot, 'year_built', built_year, 'features', coalesce(feats, '{}'),
    'lat', at_lat, 'lng', at_lng, 'location', point(at_lng, at_lat)::text,
    'city_slug', nearest.city_slug, 'sector_slug', nearest.sector_slug, 'state_slug', nearest.state_slug, 'place_search', nearest.place_search
  ));
  demand := internal.buyer_demand(subject, ids, area);
end
$$;

-- The estimate (docs/valuation.md has the method and its measured accuracy). `facts`: `lat` and
-- `lng` (or `place`, a path of the location box), `property_type`, `area_m2` (the lot for land:
-- `lot_m2`), and what else is known: `bedrooms`, `bathrooms`, `year_built`, `lot_m2`, `features`;
-- `listing_id`, the home's own listing when it is on the market, is left out of its comparables.
-- Answers `value`, `low`, `high` (null, with `reason`, when too few listings are near), `usd_m2`,
-- `confidence`, the `comparables` it stood on (the closest in weight first), the `place` it is in
-- with its `market` (the index's figure), and `demand`: how many confirmed saved searches a home
-- like it matches, from a floor (else `demand_fewer_than`; neither for facts no home near it has:
-- internal.buyer_demand).
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
  -- each stage's answer, in the order they run
  h record;
  pt record;
  c record;
  est record;
  x record;
begin
  select * into h from internal.valuation_home(facts);
  select * into pt from internal.valuation_point(facts);
  select * into c from internal.valuation_comparables(h.kind, h.kinds, h.area, h.built_year, h.beds, h.baths, h.lot, h.has_feats, h.feats, pt.at_lat, pt.at_lng, pt.place, h.own);
  if c.n < 5 then
    return pg_catalog.jsonb_build_object('value', null, 'low', null, 'high', null, 'usd_m2', null, 'confidence', 'none',
      'reason', 'too_few_comparables', 'comparables', '[]'::jsonb, 'place', null, 'market', null, 'agent', null, 'demand', null, 'demand_fewer_than', null, 'method', 'blend-conformal-1');
  end if;
  select * into est from internal.valuation_of(c.n, c.d, c.xs, c.same, c.y, h.area, internal.valuation_constants());
  select * into x from internal.valuation_context(c.ids, h.grp, h.kind, est.value, h.area, h.beds, h.baths, h.built, h.lot, h.built_year, h.feats, pt.at_lat, pt.at_lng);
  return pg_catalog.jsonb_build_object(
    'value', round(est.value / 1000) * 1000,
    'low', round(est.low / 1000) * 1000,
    'high', round(est.high / 1000) * 1000,
    'usd_m2', round((est.value / h.area)::numeric, 2),
    'confidence', est.confidence,
    'comparables', internal.valuation_comparables_told(c.ids[1:est.used], c.d[1:est.used], c.y[1:est.used], est.r, est.w, est.b, h.area),
    'place', case when x.near_path is null then null else pg_catalog.jsonb_build_object('path', x.near_path, 'name', coalesce(x.near_name, x.near_path)) end,
    'market', x.market,
    'agent', x.agent,
    'demand', (x.demand ->> 'count')::integer,
    'demand_fewer_than', (x.demand ->> 'fewer_than')::integer,
    'method', 'blend-conformal-1'
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
     where a.is_ours
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

-- ─── supabase/schemas/34_valuation_method.sql ───

-- The estimate's method (docs/valuation.md "The method"): from the comparables that
-- internal.valuation_comparables finds (34_valuation.sql), their weights, the local regression,
-- the median rule, their blend by leave-one-out errors and the conformal range, each a stage, with
-- the constants chosen out of sample.

-- The estimate's constants (docs/valuation.md "Constants"): how many comparables it reads, the
-- comparable whose distance sets the nearness weights, the likeness in size, the weight of the
-- home's own sector, the ridge and how much of the prior it pulls toward, the neighbours of the
-- median rule, how much wider the regression it may take instead of the home's own is (`wide`, 0:
-- none) and the range's widening. Chosen by nested cross-validation across the benchmark's
-- markets (`npm run bench -- valuation`, which says whether these are still what it would choose).
create or replace function internal.valuation_constants()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select '{"count": 80, "bandwidth_rank": 12, "size_sigma": 0.3, "sector_weight": 2, "ridge": 0.05, "prior": 1, "median_k": 12, "lean": 1, "wide": 2, "widen": 0.85}'::jsonb
$$;

-- A stage of public.estimate_value: each comparable's weight of nearness and likeness (`w0`), and
-- that weighed down by how far its USD/m² is from their weighted median (`w`).
create or replace function internal.valuation_weights(n integer, d double precision[], xs double precision[], same boolean[], y double precision[], k jsonb,
  out w0 double precision[], out w double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  sigma constant double precision := (k ->> 'size_sigma')::double precision;
  sector constant double precision := (k ->> 'sector_weight')::double precision;
  h double precision;
  typical double precision;
begin
  w0 := '{}';
  -- weights: nearer (a tricube over the distance of the `bandwidth_rank`th, at least 1 km), closer
  -- in size, and in the same sector (a sector's price level is its own: a street apart may be another market)
  h := greatest(d[least(n, (k ->> 'bandwidth_rank')::integer)] * 1.2, 1000);
  for i in 1..n loop
    w0 := w0 || (case when d[i] >= h then 0.01 else power(1 - power(d[i] / h, 3), 3) end) * exp(-0.5 * power(xs[(i - 1) * p + 2] / sigma, 2))
              * (case when same[i] then sector else 1 end);
  end loop;
  -- a listing priced unlike its neighbours (a typo, a wreck, a sale between relatives) must not
  -- pull the estimate: each comparable weighed down by how far its USD/m² is from their weighted
  -- median (Tukey's bisquare over six median deviations), and again below by how far it misses the fit
  typical := internal.weighted_quantile(y, w0, 0.5);
  w := internal.bisquare_weights(w0, (select pg_catalog.array_agg(u.ln_usd - typical order by u.ord) from unnest(y) with ordinality u(ln_usd, ord)));
end
$$;

-- A stage of public.estimate_value: weighted least squares of ln(USD/m²) on the differences, each
-- coefficient drawn toward its prior as much as its spread among the comparables is small (a ridge
-- scaled per column). Its coefficients `b` (the prior's, and the weighted median for the intercept,
-- when the system has no single answer) and the system's matrix `a` (for the leverages).
create or replace function internal.valuation_ridge(n integer, xs double precision[], y double precision[], w double precision[], k jsonb,
  out b double precision[], out a double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  prior constant double precision[] := array[0, -0.15, 0.03, 0.02, 0.04, 0.05, 0.03, 0, 0, 0];
  ridge constant double precision := (k ->> 'ridge')::double precision;
  pull constant double precision := (k ->> 'prior')::double precision;
  mean double precision[] := pg_catalog.array_fill(0::double precision, array[p]);
  var double precision[] := pg_catalog.array_fill(0::double precision, array[p]);
  sw double precision := 0;
  wx double precision;
  atb double precision[] := pg_catalog.array_fill(0::double precision, array[p]);
begin
  for i in 1..n loop sw := sw + w[i]; end loop;
  for j in 1..p loop
    for i in 1..n loop mean[j] := mean[j] + w[i] * xs[(i - 1) * p + j] / sw; end loop;
    for i in 1..n loop var[j] := var[j] + w[i] * power(xs[(i - 1) * p + j] - mean[j], 2) / sw; end loop;
  end loop;
  a := pg_catalog.array_fill(0::double precision, array[p * p]);
  -- one triangle of the symmetric matrix, then its mirror; a comparable weighed down to 0 adds nothing
  for i in 1..n loop
    continue when w[i] = 0;
    for j in 1..p loop
      wx := w[i] * xs[(i - 1) * p + j];
      atb[j] := atb[j] + wx * y[i];
      for c in j..p loop
        a[(j - 1) * p + c] := a[(j - 1) * p + c] + wx * xs[(i - 1) * p + c];
      end loop;
    end loop;
  end loop;
  for j in 2..p loop
    for c in 1..j - 1 loop a[(j - 1) * p + c] := a[(c - 1) * p + j]; end loop;
    a[(j - 1) * p + j] := a[(j - 1) * p + j] + sw * (ridge * var[j] + 1e-6);
    atb[j] := atb[j] + sw * (ridge * var[j] + 1e-6) * prior[j] * pull;
  end loop;
  b := internal.solve_linear(a, atb);
  if b is null then
    b := array[internal.weighted_quantile(y, w, 0.5)] || (select pg_catalog.array_agg(v * pull) from unnest(prior[2:p]) v);
  end if;
end
$$;

-- A stage of public.estimate_value: the fit (internal.valuation_ridge), then once again with the
-- weights of how far each comparable misses the first: its coefficients `b` (the home's
-- ln(USD/m²) the intercept), each comparable's misfit `r`, the weights `w` it ended with and its matrix `a`.
create or replace function internal.valuation_fit(n integer, xs double precision[], y double precision[], w0 double precision[], inout w double precision[], k jsonb,
  out b double precision[], out r double precision[], out a double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  fit double precision;
begin
  for pass in 1..2 loop
    select * into b, a from internal.valuation_ridge(n, xs, y, w, k);
    -- the home is where every difference is 0: its ln(USD/m²) is the intercept
    r := '{}';
    for i in 1..n loop
      fit := 0;
      for j in 1..p loop fit := fit + b[j] * xs[(i - 1) * p + j]; end loop;
      r := r || (y[i] - fit);
    end loop;
    exit when pass = 2;
    w := internal.bisquare_weights(w0, r);
  end loop;
end
$$;

-- A stage of public.estimate_value: what the fit would have missed each of the `m` nearest
-- comparables by had it been made without it (its leave-one-out error: its misfit over one less its
-- leverage, exact for weighted least squares with a fixed ridge).
create or replace function internal.valuation_loo(m integer, xs double precision[], w double precision[], r double precision[], a double precision[])
returns double precision[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  inv double precision[] := internal.inverse_matrix(a);
  e double precision[] := '{}';
  h double precision;
  v double precision;
begin
  for i in 1..m loop
    h := 0;
    if inv is not null and w[i] > 0 then
      for j in 1..p loop
        v := 0;
        for c in 1..p loop v := v + inv[(j - 1) * p + c] * xs[(i - 1) * p + c]; end loop;
        h := h + xs[(i - 1) * p + j] * v;
      end loop;
      h := least(w[i] * h, 0.95);
    end if;
    e := e || (r[i] / (1 - h));
  end loop;
  return e;
end
$$;

-- A stage of public.estimate_value: the simple rule, the median ln(USD/m²) of the `median_k`
-- comparables nearest the home (`med`), and what it misses each of the `m` nearest comparables by,
-- valued by the same rule from the others nearest it (`e_med`). Those the fit weighed down to
-- nothing (`w` 0: priced unlike their neighbours) count in neither: one of them among a dozen
-- would move a median by a whole rank.
create or replace function internal.valuation_median_rule(n integer, m integer, xs double precision[], y double precision[], w double precision[], k jsonb,
  out med double precision, out e_med double precision[])
language sql
immutable
set search_path = ''
as $$
  with c as (
    select u.j, u.y, u.w > 0 as counts, xs[(u.j - 1) * 10 + 9] as east, xs[(u.j - 1) * 10 + 10] as north
      from unnest(y, w) with ordinality u(y, w, j)
  )
  select (select percentile_cont(0.5) within group (order by h.y)
            from (select c.y from c where c.counts order by c.j limit (k ->> 'median_k')::integer) h),
         (select pg_catalog.array_agg(i.y - (select percentile_cont(0.5) within group (order by o.y)
                                                from (select o.y from c o where o.j <> i.j and o.counts
                                                       order by power(o.east - i.east, 2) + power(o.north - i.north, 2), o.j
                                                       limit (k ->> 'median_k')::integer) o) order by i.j)
            from c i where i.j <= m)
$$;

-- What a rule's leave-one-out misses `e` of the nearest comparables weigh, each squared and
-- weighed by the comparable's weight `w` (the sum the blend and the choice of the regression read).
create or replace function internal.weighted_square_miss(w double precision[], e double precision[])
returns double precision
language sql
immutable
set search_path = ''
as $$
  select coalesce(sum(u.w * u.e * u.e), 0) from unnest(w[1:pg_catalog.cardinality(e)], e) u(w, e)
$$;

-- A stage of public.estimate_value: one local regression of the `n` comparables with the constants
-- `k`: their weights (internal.valuation_weights), the fit (internal.valuation_fit: its
-- coefficients `b`, misfits `r` and the weights `w` it ended with) and what it would have missed
-- each of the `m` nearest by (`e`, internal.valuation_loo).
create or replace function internal.valuation_regression(n integer, m integer, d double precision[], xs double precision[], same boolean[], y double precision[], k jsonb,
  out b double precision[], out r double precision[], out w double precision[], out e double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  wt record;
  fit record;
begin
  select * into wt from internal.valuation_weights(n, d[1:n], xs[1:n * 10], same[1:n], y[1:n], k);
  select * into fit from internal.valuation_fit(n, xs[1:n * 10], y[1:n], wt.w0, wt.w, k);
  b := fit.b;
  r := fit.r;
  w := fit.w;
  e := internal.valuation_loo(m, xs, fit.w, fit.r, fit.a);
end
$$;

-- A stage of public.estimate_value: the regression and the median rule blended home by home as
-- their leave-one-out errors on the comparables say: each weighed by the inverse of its weighted
-- mean squared miss (`alpha`, the regression's share: 1 the regression alone, 0 the median alone;
-- weights fitted with the two errors' covariance swing with a single listing, these do not), the
-- median's misses counted 1 + `lean` times (the constant of that name: forty comparables' misses
-- tell the two rules apart only roughly, and the regression is the better more often than they
-- say; a rule that never misses still takes it all); the home's ln(USD/m²) `at`, and what the blend
-- would have missed each comparable by (`s`).
create or replace function internal.valuation_blend(m integer, w double precision[], e_reg double precision[], e_med double precision[], reg double precision,
  med double precision, lean double precision, out alpha double precision, out at double precision, out s double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  rr constant double precision := internal.weighted_square_miss(w, e_reg);
  mm constant double precision := internal.weighted_square_miss(w, e_med);
begin
  alpha := case when rr + mm <= 1e-12 then 1 else (1 + lean) * mm / ((1 + lean) * mm + rr) end;
  at := alpha * reg + (1 - alpha) * med;
  s := '{}';
  for i in 1..m loop s := s || (alpha * e_reg[i] + (1 - alpha) * e_med[i]); end loop;
end
$$;

-- A stage of public.estimate_value: the value and its range, from what the blend would have missed
-- the `m` nearest comparables by (`s`), the nearer weighing more (a tricube over 1.2 times the
-- distance `d` of the farthest of them), the home itself counted as one more of weight 1 whose miss
-- could be anything (locally weighted split conformal prediction: an 80% range), times the
-- `widen` constant; at least ±4%. How sure it is follows how many count and how wide it is;
-- `lo` and `hi`, the ends in ln before the widening (the benchmark chooses the widening from them).
create or replace function internal.valuation_range(m integer, s double precision[], d double precision[], at double precision, area double precision, k jsonb,
  out value double precision, out low double precision, out high double precision, out confidence text, out lo double precision, out hi double precision)
language plpgsql
immutable
set search_path = ''
as $$
declare
  widen constant double precision := (k ->> 'widen')::double precision;
  reach constant double precision := greatest(d[m] * 1.2, 1);
  c double precision[] := '{}';
  sw double precision := 0;
  sw2 double precision := 0;
  neff double precision;
begin
  for i in 1..m loop
    c := c || power(1 - power(least(d[i] / reach, 1), 3), 3);
    sw := sw + c[i]; sw2 := sw2 + c[i] * c[i];
  end loop;
  neff := sw * sw / sw2;
  hi := case when 0.9 * (sw + 1) >= sw then (select max(v) from unnest(s) v) else internal.weighted_quantile(s, c, 0.9 * (sw + 1) / sw) end;
  lo := case when 0.1 * (sw + 1) <= 1 then (select min(v) from unnest(s) v) else internal.weighted_quantile(s, c, (0.1 * (sw + 1) - 1) / sw) end;
  value := exp(at) * area;
  low := value * exp(least(lo * widen, -0.04));
  high := value * exp(greatest(hi * widen, 0.04));
  confidence := case when neff >= 12 and (high - low) / value <= 0.3 then 'high' when neff >= 5 and (high - low) / value <= 0.5 then 'medium' else 'low' end;
end
$$;

-- The estimate from its comparables (the stages after internal.valuation_comparables), with the
-- constants `k`: public.estimate_value's with internal.valuation_constants(), the benchmark's with
-- each it tries. `used`: how many comparables it read (the first, nearest). The regression is the
-- home's own (`near`), or, when `wide` is more than 0, the one of a bandwidth `wide` times wider and
-- a ridge `wide`² times firmer (`far`: fewer local terms, each drawn harder to its prior) where that
-- one misses the comparables by less, out of sample, each weighed as the home's own weighs it
-- (docs/valuation.md "The method", step 5). The median rule and the blend weigh the comparables
-- as the home's own regression does.
create or replace function internal.valuation_of(n integer, d double precision[], xs double precision[], same boolean[], y double precision[], area double precision, k jsonb,
  out used integer, out value double precision, out low double precision, out high double precision, out confidence text, out alpha double precision,
  out lo double precision, out hi double precision, out b double precision[], out r double precision[], out w double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  wide constant double precision := coalesce((k ->> 'wide')::double precision, 0);
  m integer;
  near record;
  far record;
  e double precision[];
  mr record;
  bl record;
begin
  used := least(n, (k ->> 'count')::integer);
  m := least(used, 40);
  select * into near from internal.valuation_regression(used, m, d, xs, same, y, k);
  b := near.b; r := near.r; w := near.w; e := near.e;
  if wide > 0 then
    select * into far from internal.valuation_regression(used, m, d, xs, same, y,
      k || pg_catalog.jsonb_build_object('bandwidth_rank', round(wide * (k ->> 'bandwidth_rank')::double precision), 'ridge', wide * wide * (k ->> 'ridge')::double precision));
    if internal.weighted_square_miss(near.w, far.e) < internal.weighted_square_miss(near.w, near.e) then
      b := far.b; r := far.r; w := far.w; e := far.e;
    end if;
  end if;
  select * into mr from internal.valuation_median_rule(used, m, xs[1:used * 10], y[1:used], near.w, k);
  select * into bl from internal.valuation_blend(m, near.w, e, mr.e_med, b[1], mr.med, (k ->> 'lean')::double precision);
  select v.value, v.low, v.high, v.confidence, v.lo, v.hi into value, low, high, confidence, lo, hi from internal.valuation_range(m, bl.s, d[1:m], bl.at, area, k) v;
  alpha := bl.alpha;
end
$$;

-- ─── supabase/schemas/36_nearby.sql ───

-- What is near a home (docs/projects.md "What is near"): the places a buyer asks about around a
-- project or a listing (schools, universities, hospitals and clinics, shopping centres,
-- supermarkets, parks, transport), from the brokerage's own list of places of interest: seeded
-- with the cities' known places, loaded from an OpenStreetMap extract (docs/import.md "What is
-- near"). Only the service writes them; the public key asks public.nearby_places() for a point.
create table internal.points_of_interest (
  id bigint generated by default as identity primary key,
  -- the kinds of core/protocol/nearby.ts (tests/contract/nearby.test.ts holds the two to one list)
  kind text not null constraint points_of_interest_kind
    check (kind in ('school', 'university', 'hospital', 'shopping', 'supermarket', 'park', 'transport')),
  name text not null constraint points_of_interest_name check (btrim(name) <> '' and length(name) <= 120),
  -- (longitude, latitude), as a listing's location
  position point not null constraint points_of_interest_position
    check (position[1] between -90 and 90 and position[0] between -180 and 180),
  -- where it came from: a file's name and its key there (an OpenStreetMap element, node/123)
  source text not null,
  source_key text not null,
  unique (source, source_key)
);

create index points_of_interest_near on internal.points_of_interest using gist (position);

alter table internal.points_of_interest enable row level security;

-- The places of interest near a point: of each kind the two nearest within 5 km, nearest first,
-- with their straight-line distance in metres (the same flat-earth distance as the valuation's
-- comparables, exact enough within a city); a place listed twice (two sources, a point and an
-- area of one place) counts once. Each kind's scan walks the GiST index outward within the 5 km
-- box only, so a kind the list lacks near the point costs nothing. A point off the globe has none.
create or replace function public.nearby_places(lat double precision, lng double precision)
returns table (kind public.plain_text, name public.plain_text, distance_m integer)
language sql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select k.kind::public.plain_text, n.name::public.plain_text, n.distance_m
    from unnest(array['school', 'university', 'hospital', 'shopping', 'supermarket', 'park', 'transport']) as k(kind)
   cross join lateral (
     select d.name, d.distance_m
       from (
         -- one row a place: its nearest, by its name whatever its case
         select distinct on (lower(c.name)) c.name, c.distance_m
           from (
             select p.name,
                    round(sqrt(power((p.position[1] - nearby_places.lat) * 111320, 2)
                             + power((p.position[0] - nearby_places.lng) * 111320 * cos(radians(nearby_places.lat)), 2)))::integer as distance_m
               from internal.points_of_interest p
              where p.kind = k.kind
                and nearby_places.lat between -89 and 89 and nearby_places.lng between -180 and 180
                and p.position <@ box(point(nearby_places.lng - 0.0450 / cos(radians(nearby_places.lat)), nearby_places.lat - 0.0450),
                                      point(nearby_places.lng + 0.0450 / cos(radians(nearby_places.lat)), nearby_places.lat + 0.0450))
              -- by the GiST index of their position, nearest first
              order by p.position <-> point(nearby_places.lng, nearby_places.lat)
              limit 8
           ) c
          order by lower(c.name), c.distance_m
       ) d
      where d.distance_m <= 5000
      order by d.distance_m, d.name
      limit 2
   ) n
   order by n.distance_m, n.name
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
  received_at timestamptz not null default internal.now(),
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
  -- whose lead it is (docs/leads.md "The lead's owner"): the team's hand, else the element's
  -- lead-agent-id, else the agent it went to (a listing's, a profile's, an area's); the team's own
  -- leads have none. Row level security reads it (48_agent_area.sql)
  -- the team's hand (public.reassign_lead, public.deactivate_agent): once reassigned, the lead is
  -- assigned_agent_id's (null: the team's), whatever it was before
  assigned boolean not null default false,
  assigned_agent_id bigint,
  owner_agent_id bigint generated always as (case when assigned then assigned_agent_id else coalesce(lead_agent_id, case when recipient_kind <> 'team' then agent_id end) end) stored,
  -- where the owner has got with it, and when she means to follow it up (docs/agent-area.md)
  status text not null default 'new',
  follow_up_on date,
  constraint inquiries_status_check check (status in ('new', 'contacted', 'visit_booked', 'offer', 'won', 'lost')),
  constraint inquiries_recipient_kind_check check (recipient_kind in ('listing_agent', 'agent', 'team', 'lead_agent', 'area_agent', 'routed')),
  -- how the team's routing chose its agent, for a lead nothing named an agent for (kind 'routed',
  -- or moved by the rules when its agent left: 49_lead_routing.sql): {by: rule, rule_id} or {by: spread}
  routed jsonb,
  -- when the visitor's data was erased at her request (docs/privacy.md "Erasure"): the lead stays, without her
  erased_at timestamptz
);

alter table public.inquiries enable row level security;

comment on table public.inquiries is 'Property inquiries: stored before any delivery; their e-mail waits in internal.mail_outbox.';

create index inquiries_rate on public.inquiries (client_hash, received_at desc);

-- a seller's requests by the mailbox they ask for (the mails to one person a day are capped:
-- core/functions/inquiry/handler.ts)
create index inquiries_seller_mailbox on public.inquiries (internal.mailbox(email), received_at desc) where seller is not null;

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
  next_attempt_at timestamptz not null default internal.now(),
  locked_until timestamptz,
  lease_token uuid,
  last_error text,
  -- failures that only time can fix (SMTP away); a successful probe of SMTP makes these due at once
  transient_failure boolean not null default false,
  message_id text,
  created_at timestamptz not null default internal.now(),
  sent_at timestamptz,
  unique (kind, ref_id)
);

alter table internal.mail_outbox enable row level security;

comment on table internal.mail_outbox is 'Every e-mail the site sends, queued with what it is about and delivered from here (leased, retried, never twice).';

create index mail_outbox_pending on internal.mail_outbox (next_attempt_at) where status = 'pending';

create index mail_outbox_sending on internal.mail_outbox (locked_until) where status = 'sending';

create index mail_outbox_webhooks on internal.mail_outbox (recipient, status) where kind = 'webhook';

-- Queues a mail in the caller's transaction (`delay_seconds`: not before then, a digest's hour); a
-- second queueing of the same kind and ref is ignored. True when queued. The one way a mail is
-- queued: our functions call it (core/functions/outbox/store.ts) and so do the database's own.
create or replace function internal.enqueue_mail(kind text, ref_id text, recipient text, payload jsonb default '{}', delay_seconds double precision default 0)
returns boolean
language sql
volatile
set search_path = ''
as $$
  with queued as (
    insert into internal.mail_outbox (kind, ref_id, recipient, payload, next_attempt_at)
    values (enqueue_mail.kind, enqueue_mail.ref_id, enqueue_mail.recipient, coalesce(enqueue_mail.payload, '{}'),
            internal.now() + pg_catalog.make_interval(secs => coalesce(enqueue_mail.delay_seconds, 0)))
    on conflict (kind, ref_id) do nothing
    returning 1
  )
  select exists (select 1 from queued)
$$;

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
  created_at timestamptz not null default internal.now(),
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
  created_at timestamptz not null default internal.now(),
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
  created_at timestamptz not null default internal.now()
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

-- Buyer demand for the estimate (public.estimate_value; docs/valuation.md): how many confirmed saved
-- searches a home like the subject matches, told only where it says nothing about one buyer. A count
-- from DEMAND_FLOOR on, else "fewer than" it (none and four read alike); and nothing for facts that
-- no home among its comparables has (the type, bedrooms and bathrooms as given, the area within a
-- fifth, its features), which a caller could choose to single out one buyer's criteria.
create or replace function internal.buyer_demand(subject internal.listings, comparables bigint[], area double precision)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with floor as (select 5 as n),
  real_home as (
    select exists (
      select 1 from internal.listings l
       where l.id = any (comparables)
         and l.property_type = subject.property_type
         and (subject.bedrooms is null or l.bedrooms = subject.bedrooms)
         and (subject.bathrooms is null or l.bathrooms = subject.bathrooms)
         and (case when subject.property_type = 'land' then l.lot_size else l.square_feet end) between area / 1.2 and area * 1.2
         and subject.features <@ l.features
    ) as yes
  ),
  matched as (
    select count(*)::integer as n
      from internal.saved_searches s, real_home
     where real_home.yes and s.status = 'active' and s.market is null and s.home is null and not s.spam
       and internal.listing_matches(subject, s.filters)
  )
  select case when not real_home.yes then null
              when matched.n >= floor.n then pg_catalog.jsonb_build_object('count', matched.n)
              else pg_catalog.jsonb_build_object('fewer_than', floor.n) end
    from real_home, matched, floor
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
  created_at timestamptz not null default internal.now()
);

alter table internal.settings enable row level security;

comment on table internal.settings is 'Private settings every server process reads alike (the salt of the client hashes). Never readable with the public key.';

-- ─── supabase/schemas/44_webhooks.sql ───

create table internal.webhook_endpoints (
  id bigint generated always as identity primary key,
  url text not null,
  events text[] not null check (cardinality(events) > 0 and events <@ array['inquiry.created', 'alert.confirmed', 'alert.unsubscribed', 'seller.lead.created', 'visit.requested', 'visit.confirmed', 'visit.cancelled', 'lead.reassigned', 'lead.erased', 'consent.withdrawn']),
  -- whsec_<base64 of 24 random bytes>: the key the deliveries are signed with (Standard Webhooks)
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
  description text,
  -- a development endpoint on a private network or over http (npm run webhooks -- add --dev)
  allow_private boolean not null default false,
  created_at timestamptz not null default internal.now(),
  disabled_at timestamptz
);

alter table internal.webhook_endpoints enable row level security;

-- Queues a webhook event for every active endpoint that asked for it (docs/leads.md "Webhooks"), in
-- the caller's transaction: one outbox row per endpoint, one message id for all. The one way events
-- are queued, from SQL (the team's reassignments) and from TypeScript (core/functions/webhooks/events.ts).
create or replace function internal.enqueue_webhook(event text, data jsonb, at timestamptz default internal.now())
returns integer
language sql
volatile
set search_path = ''
as $$
  with msg as (select 'msg_' || pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', '') as id),
  queued as (
    insert into internal.mail_outbox (kind, ref_id, recipient, payload)
    select 'webhook', msg.id || ':' || e.id, e.id::text,
           pg_catalog.jsonb_build_object('id', msg.id, 'type', enqueue_webhook.event,
             'timestamp', pg_catalog.to_char(enqueue_webhook.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'version', 1, 'data', enqueue_webhook.data)
      from internal.webhook_endpoints e, msg
     where e.disabled_at is null and enqueue_webhook.event = any (e.events)
    on conflict (kind, ref_id) do nothing
    returning 1
  )
  select count(*)::integer from queued
$$;

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

-- The days an agent takes off (Ecuador's dates): no visit starts on them, whatever her hours say.
-- She keeps both in her area (public.set_visiting_hours, 49_agent_calendar.sql).
create table internal.agent_days_off (
  agent_id bigint not null references public.agents (id) on delete cascade,
  day date not null,
  primary key (agent_id, day)
);

alter table internal.agent_days_off enable row level security;

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
  created_at timestamptz not null default internal.now(),
  -- the inquiry it came as (its idempotency key, client, attribution and lead's owner are there)
  inquiry_id uuid unique references public.inquiries (id) on delete cascade
);

alter table internal.visit_requests enable row level security;

create index visit_requests_listing on internal.visit_requests (listing_id, created_at);

-- A confirmed visit: one of its request's times, in the agent's calendar (no agent: the team's). No
-- two confirmed visits of one calendar overlap: an exclusion constraint, so two confirmations at
-- once cannot both win (the team's calendar is 0, as a null would never be equal to another).
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
  confirmed_at timestamptz not null default internal.now(),
  cancelled_at timestamptz,
  constraint visits_no_double_booking exclude using gist ((coalesce(agent_id, 0)) with =, during with &&) where (status = 'confirmed')
);

alter table internal.visits enable row level security;

-- How long a visit takes, how soon it may be, how far ahead, and the step of its start times.
create or replace function internal.visit_rules()
returns table (length interval, lead_time interval, horizon interval, step interval)
language sql
immutable
set search_path = ''
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
-- within the agent's hours in Ecuador's time and not on her days off, on the step, from the lead
-- time to the horizon, and never over a visit already confirmed.
create or replace function internal.open_visit_times(agent bigint, from_at timestamptz, to_at timestamptz)
returns setof timestamptz
language sql
stable
set search_path = ''
as $$
  with r as (select * from internal.visit_rules()),
  days as (
    select d::date as day
      from pg_catalog.generate_series((greatest(from_at, internal.now()) at time zone 'America/Guayaquil')::date,
                                      (least(to_at, internal.now() + (select r.horizon from r)) at time zone 'America/Guayaquil')::date, interval '1 day') d
  )
  select t.start
    from days
    join internal.visiting_hours(agent) h on h.weekday = extract(isodow from days.day)
     and not exists (select 1 from internal.agent_days_off o where o.agent_id = open_visit_times.agent and o.day = days.day)
    cross join r
    cross join lateral pg_catalog.generate_series((days.day + h.opens) at time zone 'America/Guayaquil',
                                                  (days.day + h.closes) at time zone 'America/Guayaquil' - r.length, r.step) t(start)
   where t.start >= greatest(from_at, internal.now() + r.lead_time) and t.start <= least(to_at, internal.now() + r.horizon)
     and not exists (select 1 from internal.visits v
                      where coalesce(v.agent_id, 0) = coalesce(open_visit_times.agent, 0) and v.status = 'confirmed'
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
      coalesce((select a.id from public.agents a where a.id = visit_times.agent_id and a.is_ours), l.agent_id),
      internal.now(), internal.now() + interval '14 days') t
   where l.id = visit_times.listing_id and l.is_public
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

-- The visit confirmed at `start`: one of the request's times, or another the agent proposed (the
-- caller checks that one against internal.open_visit_times). The same answers as confirm_visit.
-- Where it is: the place the agent gave, else the listing's address for a visit in person.
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
  if start <= internal.now() then
    return 'past';
  end if;
  begin
    insert into internal.visits (request_id, agent_id, during, location)
    values (req.id, req.agent_id, pg_catalog.tstzrange(start, start + (select r.length from internal.visit_rules() r)),
            coalesce(nullif(pg_catalog.btrim(at_location), ''),
                     (select nullif(pg_catalog.concat_ws(', ', l.address, l.city), '') from internal.listings l where l.id = req.listing_id and req.mode = 'in_person')));
  exception when exclusion_violation then
    return 'taken';
  end;
  update internal.visit_requests set status = 'confirmed' where id = req.id;
  return 'confirmed';
end
$$;

-- The visit confirmed: the request's `choice` (1 to 3) becomes a visit in its agent's calendar.
-- Answers 'confirmed', or why not: 'taken' (another visit holds that time: the constraint says so
-- even when two confirmations run at once), 'past' (the time is no longer ahead), 'done' (the
-- request is confirmed or cancelled already), 'unknown' (no such request or time).
create or replace function internal.confirm_visit(request bigint, choice integer, at_location text default null)
returns text
language sql
set search_path = ''
as $$
  select coalesce((select internal.confirm_visit_at(r.id, r.proposed[confirm_visit.choice], confirm_visit.at_location)
                     from internal.visit_requests r
                    where r.id = confirm_visit.request and confirm_visit.choice between 1 and pg_catalog.cardinality(r.proposed)), 'unknown')
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
  update internal.visits v set status = 'cancelled', cancelled_at = internal.now(), sequence = v.sequence + 1
   where v.request_id = request and v.status = 'confirmed';
  get diagnostics changed = row_count;
  update internal.visit_requests r set status = 'cancelled' where r.id = request and r.status <> 'cancelled';
  if changed > 0 or found then
    return 'cancelled';
  end if;
  return case when exists (select 1 from internal.visit_requests r where r.id = request) then 'done' else 'unknown' end;
end
$$;

-- What a CRM hears of a visit (docs/leads.md "Webhooks": visit.confirmed, visit.cancelled).
create or replace function internal.visit_event(request bigint, status text)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
           'id', r.id::text, 'inquiry_id', r.inquiry_id::text, 'status', visit_event.status, 'mode', r.mode,
           'listing_id', r.listing_id, 'agent_id', r.agent_id,
           'start', pg_catalog.to_char(pg_catalog.lower(v.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'end', pg_catalog.to_char(pg_catalog.upper(v.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'location', v.location,
           'contact', pg_catalog.jsonb_build_object('name', r.name, 'email', r.email, 'phone', r.phone),
           'lang', r.lang, 'time_zone', r.time_zone)
    from internal.visit_requests r
    left join internal.visits v on v.request_id = r.id
   where r.id = visit_event.request
$$;

-- What follows a visit confirmed or cancelled, wherever it was done (a mail's link, the agent's
-- area): both sides' mails, the CRM's webhook, and a confirmed visit's lead moves to "visit booked"
-- (if it was new or contacted). One home, so the two ways cannot differ.
create or replace function internal.visit_effects(request bigint, happened text, by_holder text default null, reschedule boolean default false)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  req internal.visit_requests;
  was_visit boolean;
begin
  select * into req from internal.visit_requests r where r.id = visit_effects.request;
  select exists (select 1 from internal.visits v where v.request_id = req.id) into was_visit;
  if happened = 'confirmed' then
    perform internal.enqueue_mail('visit-confirmed', req.id::text, req.email);
    perform internal.enqueue_mail('visit-confirmed-agent', req.id::text, req.recipient_email);
    perform internal.enqueue_webhook('visit.confirmed', internal.visit_event(req.id, 'confirmed'));
    update public.inquiries i set status = 'visit_booked' where i.id = req.inquiry_id and i.status in ('new', 'contacted');
  elsif happened = 'cancelled' then
    if was_visit then
      perform internal.enqueue_mail('visit-cancelled', req.id::text, req.email);
      perform internal.enqueue_mail('visit-cancelled-agent', req.id::text, req.recipient_email);
    end if;
    perform internal.enqueue_webhook('visit.cancelled', internal.visit_event(req.id, 'cancelled')
      || pg_catalog.jsonb_build_object('cancelled_by', by_holder, 'reschedule', coalesce(reschedule, false)));
  else
    raise exception 'a visit is confirmed or cancelled, not %', happened using errcode = '22023';
  end if;
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
   where o.listing_id = upcoming_open_houses.listing and o.ends_at > internal.now()
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
    delete from internal.open_houses o where o.ends_at < internal.now() - interval '1 day' returning o.listing_id
  ), stale as (
    update internal.listings l set open_houses = internal.upcoming_open_houses(l.id)
     where l.open_houses <> '{}'::pg_catalog.tstzmultirange and pg_catalog.upper(l.open_houses) <= internal.now()
     returning l.id
  )
  select (select count(*)::integer from gone) + (select count(*)::integer from stale)
$$;

-- A listing's open houses not ended yet, first first: what its page and its detail show.
create or replace function public.listing_open_houses(listing_id bigint)
returns table (id bigint, starts_at timestamptz, ends_at timestamptz, remarks public.plain_text, livestream_url public.plain_text, appointment_required boolean)
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
   where o.listing_id = listing_open_houses.listing_id and o.ends_at > internal.now()
     and l.is_public
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

-- ─── supabase/schemas/47_projects.sql ───

-- New developments (proyectos, docs/projects.md): a project sold off the plan, being built or just
-- delivered, with its developer, its stage and its delivery, and the types of unit it sells, each
-- with its range of areas and prices and the units still available. The public key reads the active
-- projects that sell at least one type, through two views that run with its rights; the tables'
-- policies show it nothing else.
create table internal.projects (
  id bigint generated by default as identity primary key,
  -- its address: /projects/{slug}
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 80),
  name text not null check (btrim(name) <> '' and length(name) <= 120),
  developer text check (length(developer) <= 120),
  city text not null check (btrim(city) <> ''),
  sector text,
  address text,
  geo_lat double precision check (geo_lat between -90 and 90),
  geo_lon double precision check (geo_lon between -180 and 180),
  -- in both languages, plain text
  description_en text check (length(description_en) <= 8000),
  description_es text check (length(description_es) <= 8000),
  amenities text[] not null default '{}' check (
    amenities <@ array['pool', 'gym', 'bbq', 'playground', 'coworking', 'rooftop', 'security', 'elevator', 'visitor_parking',
                       'pet_area', 'garden', 'spa', 'party_room', 'green_areas', 'sports_court']::text[]
  ),
  -- as a listing's: strings, or objects with url
  images jsonb not null default '[]' check (jsonb_typeof(images) = 'array'),
  -- a feed's project: its photos as the feed names them, and those its images were made from (as a
  -- listing's source_media and photos_from: docs/import.md "Photos")
  source_media jsonb,
  photos_from jsonb,
  stage text not null check (stage in ('pre_sale', 'under_construction', 'delivered')),
  -- how far the works are, percent (said while it is being built)
  progress smallint check (progress between 0 and 100),
  -- the month it is delivered (its first day), or was
  delivery date check (delivery = date_trunc('month', delivery)::date),
  -- its payment plan (docs/projects.md "The payment plan"): the reservation on signing (USD) and the
  -- entrada's share of the price, paid in monthly cuotas until delivery; the balance at delivery
  reservation numeric not null default 0 check (reservation >= 0 and reservation < 1000000),
  entrada_pct numeric not null default 30 check (entrada_pct between 10 and 60),
  -- who answers for it: its inquiries and visits go to this agent (docs/projects.md "Leads")
  agent_id bigint references public.agents (id) on delete set null,
  status text not null default 'active' check (status in ('active', 'withdrawn')),
  -- where it came from: a feed's source and key, 'seed' for the seed's, 'manual' typed in
  source text not null default 'manual',
  source_key text not null,
  created_at timestamptz not null default internal.now(),
  updated_at timestamptz not null default internal.now(),
  unique (source, source_key),
  check (stage = 'delivered' or delivery is not null),
  check (stage <> 'under_construction' or progress is not null)
);

create table internal.project_unit_types (
  id bigint generated by default as identity primary key,
  project_id bigint not null references internal.projects (id) on delete cascade,
  -- the order the project lists them in
  position smallint not null default 0,
  property_type text not null check (btrim(property_type) <> ''),
  bedrooms smallint not null check (bedrooms between 0 and 20),
  bathrooms numeric(3, 1) check (bathrooms between 0 and 20),
  -- square metres, and USD: from the smallest and cheapest unit of the type to the largest and dearest
  area_min numeric not null check (area_min > 0 and area_min < 100000),
  area_max numeric not null check (area_max < 100000),
  price_min numeric not null check (price_min > 0 and price_min < 100000000),
  price_max numeric not null check (price_max < 100000000),
  units_available integer not null default 0 check (units_available between 0 and 10000),
  -- the type's floor plans: images, as a listing's
  floor_plans jsonb not null default '[]' check (jsonb_typeof(floor_plans) = 'array'),
  -- the builder's name of the model (RESO BuilderModel: "Tipo B", "Modelo Arupo"), by which a unit
  -- for sale names the type it is one of (docs/projects.md "Its units")
  model text check (btrim(model) <> '' and length(model) <= 80),
  -- a feed's type: its floor plans as the feed names them, and those its floor_plans were made from
  -- (as a listing's source_media and photos_from: docs/import.md "Photos")
  source_media jsonb,
  photos_from jsonb,
  unique (project_id, position),
  -- a range that runs backwards is refused (docs/projects.md "What a feed may not say")
  check (area_max >= area_min),
  check (price_max >= price_min)
);

create index project_unit_types_project on internal.project_unit_types (project_id, position);
-- one type of a project per model, whatever its case
create unique index project_unit_types_model on internal.project_unit_types (project_id, lower(model)) where model is not null;
create index projects_city on internal.projects (city, status);

alter table internal.projects enable row level security;
alter table internal.project_unit_types enable row level security;
create policy "Active projects are public" on internal.projects for select to anon, authenticated using (status = 'active');
create policy "Active projects' unit types are public" on internal.project_unit_types for select to anon, authenticated
  using (exists (select 1 from internal.projects p where p.id = project_id and p.status = 'active'));

create or replace trigger projects_touch before update on internal.projects for each row execute function internal.touch_updated_at();

-- A project in the search (docs/projects.md "In the search"): one listing of its own, operation
-- 'project', which the search, its count, the map, the saved searches and the alerts read as they
-- read any listing. Written by internal.project_listing_sync() alone, from the project and its unit
-- types: its price the lowest of its types', its bedrooms the most a type has (so "2+ bedrooms"
-- finds a project that sells one), its area the smallest, its year built the year it is delivered,
-- its features new construction and a pool if it has one; public while the project is active and
-- sells a type. The market index, the valuation and the similar listings read sales and rents
-- only: a project's "from" is no resale price (docs/market.md).
alter table internal.listings
  add constraint listings_project_id_fkey foreign key (project_id) references internal.projects (id) on delete cascade;

create unique index listings_project on internal.listings (project_id) where project_id is not null;

create or replace function internal.project_listing_sync(ids bigint[])
returns void
language sql
set search_path = ''
as $$
  insert into internal.listings as l (project_id, operation, status, title, address, price, bedrooms, bathrooms, square_feet, property_type,
    city, state, sector, images, geo_lat, geo_lon, description, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
    agent_picture, features, year_built, project)
  select p.id, 'project', case when p.status = 'active' and u.n > 0 then '1' else '0' end, p.name, p.address, u.price_from, u.bedrooms_max,
         u.bathrooms_max, u.area_from, u.property_type, p.city,
         (select pl.province from internal.places pl where pl.path = public.slugify(p.city) and pl.kind = 'city'), p.sector, p.images,
         p.geo_lat::text, p.geo_lon::text, p.description_en, p.agent_id, a.first_name, a.last_name, a.email, a.phone, a.picture,
         case when 'pool' = any (p.amenities) then '{new_construction,pool}' else '{new_construction}' end::text[],
         extract(year from p.delivery)::integer,
         pg_catalog.jsonb_build_object('slug', p.slug, 'developer', p.developer, 'stage', p.stage, 'progress', p.progress, 'delivery', p.delivery,
           'bedrooms_min', u.bedrooms_min, 'units_available', u.units_available)
    from internal.projects p
    left join public.agents a on a.id = p.agent_id
    cross join lateral (
      select pg_catalog.count(*) as n, pg_catalog.min(t.price_min) as price_from, pg_catalog.min(t.bedrooms) as bedrooms_min,
             pg_catalog.max(t.bedrooms) as bedrooms_max, pg_catalog.max(t.bathrooms) as bathrooms_max, pg_catalog.min(t.area_min) as area_from,
             pg_catalog.sum(t.units_available)::integer as units_available,
             (pg_catalog.array_agg(t.property_type order by t.position))[1] as property_type
        from internal.project_unit_types t
       where t.project_id = p.id
    ) u
   where p.id = any (ids)
  on conflict (project_id) where project_id is not null do update
    set status = excluded.status, title = excluded.title, address = excluded.address, price = excluded.price, bedrooms = excluded.bedrooms,
        bathrooms = excluded.bathrooms, square_feet = excluded.square_feet, property_type = excluded.property_type, city = excluded.city,
        state = excluded.state, sector = excluded.sector, images = excluded.images, geo_lat = excluded.geo_lat, geo_lon = excluded.geo_lon,
        description = excluded.description, agent_id = excluded.agent_id, agent_first_name = excluded.agent_first_name,
        agent_last_name = excluded.agent_last_name, agent_email = excluded.agent_email, agent_phone = excluded.agent_phone,
        agent_picture = excluded.agent_picture, features = excluded.features, year_built = excluded.year_built, project = excluded.project
    where (l.status, l.title, l.address, l.price, l.bedrooms, l.bathrooms, l.square_feet, l.property_type, l.city, l.state, l.sector, l.images,
           l.geo_lat, l.geo_lon, l.description, l.agent_id, l.features, l.year_built, l.project)
          is distinct from (excluded.status, excluded.title, excluded.address, excluded.price, excluded.bedrooms, excluded.bathrooms,
           excluded.square_feet, excluded.property_type, excluded.city, excluded.state, excluded.sector, excluded.images, excluded.geo_lat,
           excluded.geo_lon, excluded.description, excluded.agent_id, excluded.features, excluded.year_built, excluded.project)
$$;

-- A unit of a project for sale (docs/projects.md "Its units"): a listing of its own, for sale as
-- any, that names the unit type it is one of (unit_type_id); what its card and page say of its
-- project (unit_of) is written from the type and its project by this rule alone: when the listing
-- names its type, and when the project or the type changes. Null while the project is not active.
alter table internal.listings
  add constraint listings_unit_type_id_fkey foreign key (unit_type_id) references internal.project_unit_types (id) on delete set null;

create index listings_unit_type on internal.listings (unit_type_id) where unit_type_id is not null;

create or replace function internal.unit_of(type_id bigint)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('slug', p.slug, 'name', p.name, 'developer', p.developer, 'stage', p.stage, 'progress', p.progress,
           'delivery', p.delivery, 'model', t.model)
    from internal.project_unit_types t
    join internal.projects p on p.id = t.project_id
   where t.id = type_id and p.status = 'active'
$$;

create or replace function internal.listing_unit_of()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.unit_of := internal.unit_of(new.unit_type_id);
  return new;
end
$$;

create or replace trigger listings_unit_of before insert on internal.listings
  for each row when (new.unit_type_id is not null) execute function internal.listing_unit_of();
create or replace trigger listings_unit_of_changed before update of unit_type_id on internal.listings
  for each row when (new.unit_type_id is distinct from old.unit_type_id) execute function internal.listing_unit_of();

-- the units of these projects, their unit_of again
create or replace function internal.project_units_sync(ids bigint[])
returns void
language sql
set search_path = ''
as $$
  update internal.listings l
     set unit_of = internal.unit_of(l.unit_type_id)
    from internal.project_unit_types t
   where t.project_id = any (ids) and l.unit_type_id = t.id and l.unit_of is distinct from internal.unit_of(l.unit_type_id)
$$;

-- a project or a unit type written: its project's listing and its units again (a project deleted
-- takes its listing with it; a type deleted leaves its units for sale, no longer of it)
create or replace function internal.project_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  ids bigint[];
begin
  if tg_table_name = 'projects' then
    ids := array[new.id];
  elsif tg_op = 'DELETE' then
    ids := array[old.project_id];
  elsif tg_op = 'UPDATE' then
    ids := array[new.project_id, old.project_id];
  else
    ids := array[new.project_id];
  end if;
  perform internal.project_listing_sync(ids);
  if tg_op = 'UPDATE' then
    perform internal.project_units_sync(ids);
  end if;
  return null;
end
$$;

create or replace trigger projects_listing after insert or update on internal.projects for each row execute function internal.project_changed();
create or replace trigger project_unit_types_listing after insert or update or delete on internal.project_unit_types
  for each row execute function internal.project_changed();

-- The active projects that sell at least one type, with what a card says of them: the price from,
-- the bedrooms' range, the smallest area and the units left.
create or replace view public.projects with (security_invoker = true) as
select p.id, p.slug::public.plain_text as slug, p.name::public.plain_text as name, p.developer::public.plain_text as developer,
       p.city::public.plain_text as city, p.sector::public.plain_text as sector, p.address::public.plain_text as address,
       p.geo_lat, p.geo_lon, p.description_en::public.plain_text as description_en, p.description_es::public.plain_text as description_es,
       p.amenities, p.images::public.plain_json as images, p.stage::public.plain_text as stage, p.progress, p.delivery, p.agent_id,
       p.reservation, p.entrada_pct,
       u.price_from, u.price_to, u.bedrooms_min, u.bedrooms_max, u.area_from, u.units_available, u.unit_types, p.updated_at,
       -- its listing in the search (internal.project_listing_sync): what an inquiry about it names
       (select l.id from internal.listings l where l.project_id = p.id and l.is_public) as listing_id
  from internal.projects p
  cross join lateral (
    select pg_catalog.min(t.price_min) as price_from, pg_catalog.max(t.price_max) as price_to, pg_catalog.min(t.bedrooms) as bedrooms_min,
           pg_catalog.max(t.bedrooms) as bedrooms_max, pg_catalog.min(t.area_min) as area_from,
           pg_catalog.sum(t.units_available)::integer as units_available, pg_catalog.count(*)::integer as unit_types
      from internal.project_unit_types t
     where t.project_id = p.id
  ) u
 where p.status = 'active' and u.unit_types > 0;

comment on view public.projects is 'Active new developments (proyectos) and the range of what they sell.';

create or replace view public.project_unit_types with (security_invoker = true) as
select t.id, t.project_id, t.position, t.property_type::public.plain_text as property_type, t.bedrooms, t.bathrooms, t.area_min, t.area_max,
       t.price_min, t.price_max, t.units_available, t.floor_plans::public.plain_json as floor_plans, t.model::public.plain_text as model
  from internal.project_unit_types t
  join internal.projects p on p.id = t.project_id
 where p.status = 'active';

comment on view public.project_unit_types is 'The unit types of the active new developments.';

-- ─── supabase/schemas/48_agent_area.sql ───

-- The agents' own area (docs/agent-area.md): who signs in, whose leads are whose, and what a
-- signed-in agent may read and change. Row level security is the rule: an agent reads and changes
-- her own leads through the same data API the elements use, the team reads and changes them all,
-- and the public key reads none (tests/contract/agent-area-leads.test.ts holds it with real JWTs).

-- the team (the brokerage's office), granted by the operator: reads and changes every lead
create table internal.team_members (
  user_id uuid primary key references auth.users (id) on delete cascade,
  added_at timestamptz not null default internal.now()
);
comment on table internal.team_members is 'The office''s people, who see every lead (granted by the operator: docs/agent-area.md).';

-- who is asking, from the request's JWT (auth.uid()): her agent id, and whether she is the team's.
-- Her agent is the one linked to her sign-in, else the one whose address her token carries while no
-- sign-in holds it: a hosted project's Auth links nothing of ours (our server's stand-in links at
-- sign-in), and the address in its token is the one the code was mailed to.
create or replace function internal.my_agent_id()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select a.id
    from public.agents a
   where a.active
     and (a.user_id = auth.uid()
          or (a.user_id is null and pg_catalog.lower(a.email) = pg_catalog.lower(nullif(auth.jwt() ->> 'email', ''))))
   order by (a.user_id is not null) desc, a.id
   limit 1
$$;

create or replace function internal.is_team()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from internal.team_members t where t.user_id = auth.uid())
$$;

-- a lead's owner (40_inquiries.sql) is what the policies read
create index inquiries_owner on public.inquiries (owner_agent_id, received_at desc);
-- the team reads every lead, newest first (docs/agent-area.md "Speed")
create index inquiries_received on public.inquiries (received_at desc);

create policy "An agent reads her own leads, the team all" on public.inquiries for select to authenticated
  using (not spam and (owner_agent_id = (select internal.my_agent_id()) or (select internal.is_team())));
create policy "An agent moves her own leads, the team all" on public.inquiries for update to authenticated
  using (not spam and (owner_agent_id = (select internal.my_agent_id()) or (select internal.is_team())))
  with check (owner_agent_id = (select internal.my_agent_id()) or (select internal.is_team()));

-- her notes on a lead, and the trail of every change (who, when, what)
create table public.lead_notes (
  id bigint generated always as identity primary key,
  lead_id uuid not null references public.inquiries (id) on delete cascade,
  author uuid not null default auth.uid() references auth.users (id),
  body text not null check (pg_catalog.length(pg_catalog.btrim(body)) between 1 and 4000),
  created_at timestamptz not null default internal.now()
);
alter table public.lead_notes enable row level security;
create index lead_notes_lead on public.lead_notes (lead_id, created_at);
comment on table public.lead_notes is 'An agent''s notes on a lead: seen by whoever sees the lead.';
create policy "Notes of the leads one sees" on public.lead_notes for select to authenticated
  using (exists (select 1 from public.inquiries i where i.id = lead_id));
create policy "Notes on the leads one sees, as oneself" on public.lead_notes for insert to authenticated
  with check (author = auth.uid() and exists (select 1 from public.inquiries i where i.id = lead_id));

create table public.lead_events (
  id bigint generated always as identity primary key,
  lead_id uuid not null references public.inquiries (id) on delete cascade,
  at timestamptz not null default internal.now(),
  by_user uuid,
  what text not null,
  before jsonb,
  after jsonb
);
alter table public.lead_events enable row level security;
create index lead_events_lead on public.lead_events (lead_id, at);
comment on table public.lead_events is 'Every change to a lead (its status, follow-up, owner, a note): written by the database, read by whoever sees the lead.';
create policy "The trail of the leads one sees" on public.lead_events for select to authenticated
  using (exists (select 1 from public.inquiries i where i.id = lead_id));

create or replace function internal.note_lead_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'lead_notes' then
    insert into public.lead_events (lead_id, by_user, what, after)
    values (new.lead_id, auth.uid(), 'note', pg_catalog.jsonb_build_object('note', new.id));
  elsif (old.status, old.follow_up_on, old.owner_agent_id) is distinct from (new.status, new.follow_up_on, new.owner_agent_id) then
    insert into public.lead_events (lead_id, by_user, what, before, after)
    values (new.id, auth.uid(), case when old.owner_agent_id is distinct from new.owner_agent_id then 'reassigned' else 'changed' end,
            pg_catalog.jsonb_build_object('status', old.status, 'follow_up_on', old.follow_up_on, 'owner_agent_id', old.owner_agent_id),
            pg_catalog.jsonb_build_object('status', new.status, 'follow_up_on', new.follow_up_on, 'owner_agent_id', new.owner_agent_id));
  end if;
  return null;
end
$$;

create trigger inquiries_trail after update on public.inquiries for each row execute function internal.note_lead_change();
create trigger lead_notes_trail after insert on public.lead_notes for each row execute function internal.note_lead_change();

-- Our server's stand-in for Supabase Auth (server/stand-in/auth/): the codes it mailed and the sessions it
-- keeps. A hosted project's Auth keeps its own; these stay empty there.
create table internal.auth_codes (
  id bigint generated always as identity primary key,
  email text not null,
  code_hash text not null,
  created_at timestamptz not null default internal.now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  attempts integer not null default 0,
  -- who asked for it (a hash of the client's address), for the per-client limit
  client_hash text
);
create index auth_codes_email on internal.auth_codes (pg_catalog.lower(email), created_at desc);
create index auth_codes_client on internal.auth_codes (client_hash, created_at desc);

-- each try of a code, by client (the per-client limit on tries)
create table internal.auth_tries (
  client_hash text not null,
  at timestamptz not null default internal.now()
);
create index auth_tries_client on internal.auth_tries (client_hash, at desc);

create table internal.auth_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  refresh_hash text not null unique,
  created_at timestamptz not null default internal.now(),
  refreshed_at timestamptz not null default internal.now(),
  revoked_at timestamptz
);
create index auth_sessions_user on internal.auth_sessions (user_id) where revoked_at is null;

-- An agent moves a lead (its status, its follow-up day) and may add a note, in one call, as herself:
-- row level security decides whether it is hers (the team's: any); the trail records it.
create or replace function public.move_lead(lead_id uuid, status text, follow_up_on date default null, note text default null)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if move_lead.status is null or move_lead.status not in ('new', 'contacted', 'visit_booked', 'offer', 'won', 'lost') then
    raise exception 'status must be new, contacted, visit_booked, offer, won or lost' using errcode = '22023';
  end if;
  update public.inquiries i set status = move_lead.status, follow_up_on = move_lead.follow_up_on where i.id = move_lead.lead_id;
  if not found then
    raise exception 'no lead of yours has this id' using errcode = 'P0002';
  end if;
  if move_lead.note is not null and pg_catalog.btrim(move_lead.note) <> '' then
    insert into public.lead_notes (lead_id, body) values (move_lead.lead_id, pg_catalog.btrim(move_lead.note));
  end if;
  return (select pg_catalog.jsonb_build_object('id', i.id, 'status', i.status, 'follow_up_on', i.follow_up_on)
            from public.inquiries i where i.id = move_lead.lead_id);
end
$$;
comment on function public.move_lead is 'A signed-in agent moves her lead (status, follow-up) and may note why (docs/agent-area.md).';

-- A lead the team's hand moved: the CRM hears lead.reassigned, and its new owner (an agent of ours)
-- is mailed the lead (kind lead-reassigned; core/functions/inquiry/mail.ts).
create or replace function internal.lead_moved(lead_id uuid, from_agent bigint, to_agent bigint, reason text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  why text := nullif(pg_catalog.btrim(coalesce(reason, '')), '');
  address text;
begin
  perform internal.enqueue_webhook('lead.reassigned', pg_catalog.jsonb_build_object(
    'id', lead_id, 'from_agent_id', from_agent, 'to_agent_id', to_agent, 'reason', why, 'by', 'team'));
  select a.email into address from public.agents a where a.id = to_agent and a.is_ours;
  if address is not null then
    perform internal.enqueue_mail('lead-reassigned', lead_id::text || ':' || (select pg_catalog.count(*) from public.lead_events e where e.lead_id = lead_moved.lead_id),
                                  address, pg_catalog.jsonb_build_object('reason', why));
  end if;
end
$$;

-- The team gives a lead to another agent of ours (or to the team: agent_id null), and may say why:
-- the lead is hers from now on, the trail says who did it, and the CRM hears it (lead.reassigned).
-- Only the team: the function checks it, as row level security checks an agent's own moves.
create or replace function public.reassign_lead(lead_id uuid, agent_id bigint default null, reason text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  before bigint;
begin
  if not internal.is_team() then
    raise exception 'only the team reassigns a lead' using errcode = '42501';
  end if;
  if reassign_lead.agent_id is not null and not exists (select 1 from public.agents a where a.id = reassign_lead.agent_id and a.is_ours) then
    raise exception 'no agent of ours has this id' using errcode = '22023';
  end if;
  select i.owner_agent_id into before from public.inquiries i where i.id = reassign_lead.lead_id for update;
  if not found then
    raise exception 'no lead has this id' using errcode = 'P0002';
  end if;
  update public.inquiries i set assigned = true, assigned_agent_id = reassign_lead.agent_id, routed = null where i.id = reassign_lead.lead_id;
  perform internal.lead_moved(reassign_lead.lead_id, before, reassign_lead.agent_id, reassign_lead.reason);
  return pg_catalog.jsonb_build_object('id', reassign_lead.lead_id, 'owner_agent_id', reassign_lead.agent_id);
end
$$;
comment on function public.reassign_lead is 'The team gives a lead to an agent of ours, or to the team (docs/agent-area.md).';

-- The team marks an agent as gone: no profile in the directory, no new leads (agents.is_ours), her
-- sessions end, and her open leads go where the team's routing sends them (49_lead_routing.sql),
-- else to the team, each reassigned as the team's own hand would: the new owner and the CRM told.
create or replace function public.deactivate_agent(agent_id bigint)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  gone public.agents;
  lead public.inquiries;
  route jsonb;
  moved integer := 0;
begin
  if not internal.is_team() then
    raise exception 'only the team deactivates an agent' using errcode = '42501';
  end if;
  update public.agents a set active = false where a.id = deactivate_agent.agent_id and a.active returning a.* into gone;
  if gone.id is null then
    raise exception 'no active agent has this id' using errcode = 'P0002';
  end if;
  update internal.auth_sessions s set revoked_at = internal.now() where s.user_id = gone.user_id and s.revoked_at is null;
  for lead in select i.* from public.inquiries i where i.owner_agent_id = gone.id and i.status not in ('won', 'lost') and not i.spam order by i.received_at loop
    -- where the team's routing sends it now (49_lead_routing.sql), never to her; else the team
    route := internal.route_lead(internal.lead_route_facts(lead), gone.id);
    update public.inquiries i set assigned = true, assigned_agent_id = (route ->> 'agent_id')::bigint, routed = route where i.id = lead.id;
    perform internal.lead_moved(lead.id, gone.id, (route ->> 'agent_id')::bigint, 'agent deactivated');
    moved := moved + 1;
  end loop;
  return pg_catalog.jsonb_build_object('agent_id', gone.id, 'leads_moved', moved);
end
$$;
comment on function public.deactivate_agent is 'The team marks an agent as gone: out of the directory, no new leads, her open leads moved by the routing (docs/agent-area.md).';

-- Her confirmed alert subscriptions (docs/agent-area.md "Leads"): the saved searches, market follows
-- and home reports whose owner she is (an element's lead-agent-id, as for an inquiry: docs/leads.md),
-- confirmed and not unsubscribed; the team's: all. Newest first, 500 at most.
create or replace function public.my_alert_leads()
returns table (
  id bigint, email public.plain_text, filters jsonb, market jsonb, home jsonb, frequency public.plain_text, lang public.plain_text,
  status public.plain_text, confirmed_at timestamptz, lead_agent_id bigint, page_url public.plain_text, element public.plain_text, utm jsonb
)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.email, s.filters, s.market, s.home, s.frequency, s.lang, s.status, s.confirmed_at, s.lead_agent_id, s.page_url, s.element, s.utm
    from internal.saved_searches s
   where s.confirmed_at is not null and s.status in ('active', 'paused') and not s.spam
     and ((s.lead_agent_id is not null and s.lead_agent_id = internal.my_agent_id()) or internal.is_team())
   order by s.confirmed_at desc, s.id desc
   limit 500
$$;
comment on function public.my_alert_leads is 'A signed-in agent''s confirmed alert subscriptions (the team''s: all): docs/agent-area.md.';

-- Her leads, newest first, in one call (docs/agent-area.md "Speed"): as herself, row level security
-- deciding as for any read, and asked so that an index answers: an agent's by her id (the owner's
-- index), the team's by when they came. Her `max_rows` newest (1 to 1000).
create or replace function public.my_leads(max_rows integer default 500)
returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  me bigint := internal.my_agent_id();
  team boolean := internal.is_team();
begin
  if max_rows is null or max_rows not between 1 and 1000 then
    raise exception 'max_rows is 1 to 1000' using errcode = '22023', hint = 'max_rows';
  end if;
  -- hers (the team's: all), newest first, each by its own index; then each with its consents (internal.lead_consents)
  return coalesce((with shown as (
      (select i.id from public.inquiries i where team order by i.received_at desc limit max_rows)
      union all
      (select i.id from public.inquiries i where not team and i.owner_agent_id = me order by i.received_at desc limit max_rows))
    select pg_catalog.json_agg(l order by l.received_at desc, l.id) from (
      select i.id, i.name, i.email, i.phone, i.message, i.property_title, i.listing_id, i.lang, i.received_at, i.page_url, i.element, i.utm, i.seller,
             i.status, i.follow_up_on, i.recipient_kind, i.assigned, i.routed, i.owner_agent_id, i.erased_at, c.consents
        from public.inquiries i join shown on shown.id = i.id
        left join internal.lead_consents(array(select shown.id from shown)) c on c.lead_id = i.id) l), '[]'::json);
end
$$;
comment on function public.my_leads is 'A signed-in agent''s leads, newest first, in one call (the team''s: all): docs/agent-area.md.';

-- ─── supabase/schemas/49_agent_calendar.sql ───

-- The agents' calendar (docs/agent-area.md "Visits"): her visit requests and visits, acted on from
-- her area with the same effects as the mails' links (internal.visit_effects), and her weekly
-- visiting hours and days off, which bound every new request at once (internal.open_visit_times).
-- Whose: the request's calendar (`visit_requests.agent_id`) is hers, or she is the team's. The
-- tables stay the service's; these functions are the one door, each checking that rule.

-- May the signed-in caller see and act on this calendar (an agent's id; null: the team's)?
create or replace function internal.my_calendar(agent bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (my_calendar.agent is not null and my_calendar.agent = internal.my_agent_id()) or internal.is_team()
$$;

-- Her requests and visits with a time between `from_at` and `to_at` (a proposed time, or the
-- confirmed visit's), for her calendar's day or week; at most 62 days at once.
create or replace function public.my_visits(from_at timestamptz, to_at timestamptz)
returns table (
  id bigint, lead_id uuid, listing_id bigint, title public.plain_text, address public.plain_text, agent_id bigint, agent_name public.plain_text,
  mode public.plain_text, proposed timestamptz[], name public.plain_text, email public.plain_text, phone public.plain_text,
  message public.plain_text, lang public.plain_text, time_zone public.plain_text, status public.plain_text, created_at timestamptz,
  visit_start timestamptz, visit_end timestamptz, location public.plain_text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if from_at is null or to_at is null or to_at <= from_at or to_at - from_at > interval '62 days' then
    raise exception 'from_at must come before to_at, at most 62 days apart' using errcode = '22023', hint = 'range';
  end if;
  return query
    select r.id, r.inquiry_id, r.listing_id, l.title::public.plain_text, pg_catalog.concat_ws(', ', l.address, l.city)::public.plain_text,
           r.agent_id, nullif(pg_catalog.btrim(pg_catalog.concat_ws(' ', a.first_name, a.last_name)), '')::public.plain_text,
           r.mode::public.plain_text, r.proposed, r.name::public.plain_text, r.email::public.plain_text, r.phone::public.plain_text,
           r.message::public.plain_text, r.lang::public.plain_text, r.time_zone::public.plain_text, r.status::public.plain_text, r.created_at,
           pg_catalog.lower(v.during), pg_catalog.upper(v.during), v.location::public.plain_text
      from internal.visit_requests r
      join internal.listings l on l.id = r.listing_id
      left join public.agents a on a.id = r.agent_id
      left join internal.visits v on v.request_id = r.id
     where internal.my_calendar(r.agent_id)
       and (v.during && pg_catalog.tstzrange(from_at, to_at)
            or (v.id is null and exists (select 1 from pg_catalog.unnest(r.proposed) p where p >= from_at and p < to_at)))
     order by coalesce(pg_catalog.lower(v.during), r.proposed[1]), r.id;
end
$$;
comment on function public.my_visits is 'A signed-in agent''s visit requests and visits in a range of time (the team''s: all): docs/agent-area.md.';

-- She confirms one of a request's times (`choice`, 1 to 3), confirms another open time of hers
-- (`propose`, `start_at`), or cancels: what the mails' links do, with the same effects. Answers
-- `result`: confirmed, cancelled, or why not (taken, past, unavailable, done), as the links do.
create or replace function public.act_on_visit(request_id bigint, action text, choice integer default null, start_at timestamptz default null, place text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  req internal.visit_requests;
  result text;
begin
  if act_on_visit.action is null or act_on_visit.action not in ('confirm', 'propose', 'cancel') then
    raise exception 'action must be confirm, propose or cancel' using errcode = '22023', hint = 'action';
  end if;
  if pg_catalog.length(act_on_visit.place) > 300 or act_on_visit.place ~ '[[:cntrl:]]' then
    raise exception 'a place is one line of at most 300 characters' using errcode = '22023', hint = 'place';
  end if;
  select * into req from internal.visit_requests r where r.id = act_on_visit.request_id for update;
  if req.id is null or not internal.my_calendar(req.agent_id) then
    raise exception 'no visit of yours has this id' using errcode = 'P0002';
  end if;
  if act_on_visit.action = 'cancel' then
    if req.status = 'cancelled' then
      result := 'done';
    else
      perform internal.cancel_visit(req.id);
      result := 'cancelled';
    end if;
  elsif req.status <> 'requested' then
    result := 'done';
  elsif act_on_visit.action = 'confirm' then
    if act_on_visit.choice is null or act_on_visit.choice not between 1 and pg_catalog.cardinality(req.proposed) then
      raise exception 'choice must be one of the request''s times' using errcode = '22023', hint = 'choice';
    end if;
    result := internal.confirm_visit(req.id, act_on_visit.choice, act_on_visit.place);
  else
    if act_on_visit.start_at is null then
      raise exception 'start_at is the time proposed' using errcode = '22023', hint = 'start_at';
    end if;
    -- another time: one open in her calendar (her hours, not a day off, ahead, not taken)
    if exists (select 1 from internal.open_visit_times(req.agent_id, act_on_visit.start_at, act_on_visit.start_at) o where o = act_on_visit.start_at) then
      result := internal.confirm_visit_at(req.id, act_on_visit.start_at, act_on_visit.place);
    else
      result := 'unavailable';
    end if;
  end if;
  if result in ('confirmed', 'cancelled') then
    perform internal.visit_effects(req.id, result, 'agent', false);
  end if;
  return pg_catalog.jsonb_build_object('id', req.id, 'result', result);
end
$$;
comment on function public.act_on_visit is 'A signed-in agent confirms, moves or cancels a visit from her area, as the mails'' links do (docs/agent-area.md).';

-- Her open times for a request (to propose another): her calendar's, the next 14 days.
create or replace function public.my_open_times(request_id bigint)
returns setof timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select t
    from internal.visit_requests r
    cross join lateral internal.open_visit_times(r.agent_id, internal.now(), internal.now() + interval '14 days') t
   where r.id = my_open_times.request_id and internal.my_calendar(r.agent_id)
$$;

-- Her weekly hours (hers, or the default she has until she sets any) and her days off ahead.
create or replace function public.my_visiting_hours()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
           'own', exists (select 1 from internal.agent_visiting_hours h where h.agent_id = me.id),
           'hours', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('weekday', h.weekday,
                                'opens', pg_catalog.to_char(h.opens, 'HH24:MI'), 'closes', pg_catalog.to_char(h.closes, 'HH24:MI')) order by h.weekday, h.opens)
                                from internal.visiting_hours(me.id) h), '[]'),
           'days_off', coalesce((select pg_catalog.jsonb_agg(d.day order by d.day) from internal.agent_days_off d
                                  where d.agent_id = me.id and d.day >= (internal.now() at time zone 'America/Guayaquil')::date), '[]'))
    from (select internal.my_agent_id() as id) me
   where me.id is not null
$$;
comment on function public.my_visiting_hours is 'A signed-in agent''s weekly visiting hours and days off (docs/agent-area.md).';

-- She sets her week (`hours`: [{weekday 1-7, opens "HH:MM", closes "HH:MM"}], at least one period,
-- each at least a visit long, none overlapping another of its day) and her days off ahead (at most
-- 60, within a year). Every new request is bounded by them at once. Each refusal says which rule
-- (its hint), and nothing is changed.
create or replace function public.set_visiting_hours(hours jsonb, days_off date[] default '{}')
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me bigint := internal.my_agent_id();
  today date := (internal.now() at time zone 'America/Guayaquil')::date;
  period jsonb;
  periods internal.agent_visiting_hours[] := '{}';
  one internal.agent_visiting_hours;
begin
  if me is null then
    raise exception 'only an agent of ours has visiting hours' using errcode = '42501';
  end if;
  if pg_catalog.jsonb_typeof(hours) is distinct from 'array' or pg_catalog.jsonb_array_length(hours) not between 1 and 21 then
    raise exception 'hours is a list of 1 to 21 periods' using errcode = '22023', hint = 'hours_count';
  end if;
  for period in select * from pg_catalog.jsonb_array_elements(hours) loop
    if pg_catalog.jsonb_typeof(period) is distinct from 'object'
       or (period ->> 'weekday') !~ '^[1-7]$'
       or (period ->> 'opens') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
       or (period ->> 'closes') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$' then
      raise exception 'a period is {weekday: 1 to 7, opens: "HH:MM", closes: "HH:MM"}' using errcode = '22023', hint = 'hours_shape';
    end if;
    one := row(me, (period ->> 'weekday')::smallint, (period ->> 'opens')::time, (period ->> 'closes')::time);
    if one.closes - one.opens < (select r.length from internal.visit_rules() r) then
      raise exception 'a period ends at least a visit (an hour) after it opens' using errcode = '22023', hint = 'hours_order';
    end if;
    if exists (select 1 from pg_catalog.unnest(periods) p where p.weekday = one.weekday and p.opens < one.closes and one.opens < p.closes) then
      raise exception 'two periods of one day overlap' using errcode = '22023', hint = 'hours_overlap';
    end if;
    periods := periods || one;
  end loop;
  if pg_catalog.cardinality(days_off) > 60
     or exists (select 1 from pg_catalog.unnest(days_off) d where d is null or d < today or d > today + 366) then
    raise exception 'days off are at most 60 days, from today to a year ahead' using errcode = '22023', hint = 'days_off';
  end if;
  delete from internal.agent_visiting_hours h where h.agent_id = me;
  insert into internal.agent_visiting_hours select * from pg_catalog.unnest(periods);
  delete from internal.agent_days_off d where d.agent_id = me and d.day >= today;
  insert into internal.agent_days_off (agent_id, day) select distinct me, d from pg_catalog.unnest(coalesce(days_off, '{}')) d;
  return public.my_visiting_hours();
end
$$;
comment on function public.set_visiting_hours is 'A signed-in agent sets her weekly visiting hours and days off (docs/agent-area.md).';

-- ─── supabase/schemas/49_agent_profile.sql ───

-- An agent's own profile (docs/agent-area.md "Profile"): what she keeps of it in her area (about
-- in English and Spanish, languages, specializations, certifications, links, and the places she
-- serves, which route every seller's lead: public.area_agents), each field checked here, and a
-- trail of every change to an agent (who, when, what, before and after), written by the database.
-- Her photo is set by our server once it has made its sizes (server/agent-photo.ts), never by a
-- link she types.

create table public.agent_events (
  id bigint generated always as identity primary key,
  agent_id bigint not null references public.agents (id) on delete cascade,
  at timestamptz not null default internal.now(),
  by_user uuid,
  what text not null,
  before jsonb,
  after jsonb
);
alter table public.agent_events enable row level security;
create index agent_events_agent on public.agent_events (agent_id, at);
comment on table public.agent_events is 'Every change to an agent''s profile, photo or standing: written by the database, read by her and the team.';
create policy "Her own trail, the team all" on public.agent_events for select to authenticated
  using (agent_id = (select internal.my_agent_id()) or (select internal.is_team()));

-- The columns the trail follows: what she keeps, her photo, and whether she is ours.
create or replace function internal.agent_profile_of(a public.agents)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('about', a.about, 'about_es', a.about_es, 'languages', a.languages, 'specializations', a.specializations,
           'certifications', a.certifications, 'locations_served', a.locations_served, 'facebook', a.facebook, 'instagram', a.instagram,
           'linkedin', a.linkedin, 'website', a.website, 'phone', a.phone, 'picture', a.picture, 'active', a.active)
$$;

create or replace function internal.note_agent_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  before jsonb := internal.agent_profile_of(old);
  after jsonb := internal.agent_profile_of(new);
  changed text[];
begin
  select pg_catalog.array_agg(k order by k) into changed from pg_catalog.jsonb_object_keys(after) k where before -> k is distinct from after -> k;
  if changed is not null then
    insert into public.agent_events (agent_id, by_user, what, before, after)
    values (new.id, auth.uid(), pg_catalog.array_to_string(changed, ','),
            (select pg_catalog.jsonb_object_agg(k, before -> k) from pg_catalog.unnest(changed) k),
            (select pg_catalog.jsonb_object_agg(k, after -> k) from pg_catalog.unnest(changed) k));
  end if;
  return null;
end
$$;

create trigger agents_trail after update on public.agents for each row execute function internal.note_agent_change();

-- Her profile as she edits it (and the places she serves with their paths, for the picker).
create or replace function public.my_profile()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('id', a.id, 'first_name', a.first_name, 'last_name', a.last_name, 'email', a.email, 'picture', a.picture)
         || (internal.agent_profile_of(a) - 'active')
         || pg_catalog.jsonb_build_object('places', coalesce((
              select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', s.x, 'path', (
                       select p.path from internal.places p where public.search_fold(p.name) = public.search_fold(s.x)
                        order by case p.kind when 'sector' then 0 when 'city' then 1 else 2 end, p.listings desc limit 1)) order by s.n)
                from pg_catalog.unnest(a.locations_served) with ordinality s(x, n)), '[]'))
    from public.agents a
   where a.id = internal.my_agent_id()
$$;
comment on function public.my_profile is 'A signed-in agent''s profile as she edits it (docs/agent-area.md).';

-- A list she keeps: at most `most` items, each one line of at most `longest` characters, trimmed,
-- without repeats; else a refusal naming the field (its hint).
create or replace function internal.profile_list(value jsonb, field text, most integer, longest integer)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  out text[] := '{}';
  item jsonb;
  one text;
begin
  if value is null or value = 'null'::jsonb then
    return '{}';
  end if;
  if pg_catalog.jsonb_typeof(value) <> 'array' or pg_catalog.jsonb_array_length(value) > most then
    raise exception '% is a list of at most % items', field, most using errcode = '22023', hint = field;
  end if;
  for item in select * from pg_catalog.jsonb_array_elements(value) loop
    one := pg_catalog.btrim(item #>> '{}');
    if pg_catalog.jsonb_typeof(item) <> 'string' or one = '' or pg_catalog.length(one) > longest or one ~ '[[:cntrl:]]' then
      raise exception 'each of % is one line of at most % characters', field, longest using errcode = '22023', hint = field;
    end if;
    if not one = any (out) then
      out := out || one;
    end if;
  end loop;
  return out;
end
$$;

-- A link she gives: https, at most 300 characters, on the site its field names (any for her website).
create or replace function internal.profile_link(value text, field text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  link text := nullif(pg_catalog.btrim(coalesce(value, '')), '');
  host text;
begin
  if link is null then
    return null;
  end if;
  host := pg_catalog.lower(pg_catalog.substring(link, '^https://([^/?#:@\s]+)(?::\d+)?(?:[/?#]|$)'));
  if pg_catalog.length(link) > 300 or link ~ '[[:cntrl:]\s]' or host is null
     or (field <> 'website' and host !~ ('(^|\.)' || case field when 'linkedin' then 'linkedin\.com' when 'facebook' then '(facebook\.com|fb\.com)' else 'instagram\.com' end || '$')) then
    raise exception '% must be an https link%', field, case when field = 'website' then '' else ' on ' || field end using errcode = '22023', hint = field;
  end if;
  return link;
end
$$;

-- She saves her profile: every field given is checked, and all are saved at once or none is. The
-- places she serves are our places' paths (internal.places), kept as their names, which the
-- sellers' routing reads; an unknown one is refused (hint `places`).
create or replace function public.update_my_profile(profile jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me bigint := internal.my_agent_id();
  text_of jsonb;
  field text;
  places text[];
  unknown text;
begin
  if me is null then
    raise exception 'only an agent of ours has a profile' using errcode = '42501';
  end if;
  if pg_catalog.jsonb_typeof(profile) is distinct from 'object' then
    raise exception 'profile is an object' using errcode = '22023', hint = 'profile';
  end if;
  foreach field in array array['about', 'about_es', 'phone'] loop
    text_of := profile -> field;
    if text_of is not null and text_of <> 'null'::jsonb
       and (pg_catalog.jsonb_typeof(text_of) <> 'string' or pg_catalog.length(text_of #>> '{}') > case field when 'phone' then 30 else 2000 end
            or (field = 'phone' and pg_catalog.btrim(text_of #>> '{}') !~ '^\+?[0-9 ()-]{6,30}$' and pg_catalog.btrim(text_of #>> '{}') <> '')
            or (text_of #>> '{}') ~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]') then
      raise exception '% is too long or not text', field using errcode = '22023', hint = field;
    end if;
  end loop;
  places := internal.profile_list(profile -> 'places', 'places', 30, 200);
  select x into unknown from pg_catalog.unnest(places) x where not exists (select 1 from internal.places p where p.path = x) limit 1;
  if unknown is not null then
    raise exception 'we have no place %', unknown using errcode = '22023', hint = 'places';
  end if;
  update public.agents a set
    about = case when profile ? 'about' then nullif(pg_catalog.btrim(profile ->> 'about'), '') else a.about end,
    about_es = case when profile ? 'about_es' then nullif(pg_catalog.btrim(profile ->> 'about_es'), '') else a.about_es end,
    phone = case when profile ? 'phone' then nullif(pg_catalog.btrim(profile ->> 'phone'), '') else a.phone end,
    languages = case when profile ? 'languages' then internal.profile_list(profile -> 'languages', 'languages', 10, 40) else a.languages end,
    specializations = case when profile ? 'specializations' then internal.profile_list(profile -> 'specializations', 'specializations', 12, 80) else a.specializations end,
    certifications = case when profile ? 'certifications' then internal.profile_list(profile -> 'certifications', 'certifications', 12, 120) else a.certifications end,
    locations_served = case when profile ? 'places' then array(select p.name from pg_catalog.unnest(places) with ordinality x(path, n) join internal.places p on p.path = x.path order by x.n) else a.locations_served end,
    facebook = case when profile ? 'facebook' then internal.profile_link(profile ->> 'facebook', 'facebook') else a.facebook end,
    instagram = case when profile ? 'instagram' then internal.profile_link(profile ->> 'instagram', 'instagram') else a.instagram end,
    linkedin = case when profile ? 'linkedin' then internal.profile_link(profile ->> 'linkedin', 'linkedin') else a.linkedin end,
    website = case when profile ? 'website' then internal.profile_link(profile ->> 'website', 'website') else a.website end
  where a.id = me;
  return public.my_profile();
end
$$;
comment on function public.update_my_profile is 'A signed-in agent saves her profile, each field checked (docs/agent-area.md).';

-- ─── supabase/schemas/49_lead_routing.sql ───

-- Where a lead goes when nothing names its agent (docs/agent-area.md "Routing"): the team's rules,
-- tried in order, by place, type, price and source, then the team's default: its own inbox, or an
-- even spread over the agents of ours. The rules never take a lead from the agent the owner's rules
-- give it (an element's lead-agent-id, a listing's agent, the agent addressed, the agent who serves
-- a seller's place: docs/leads.md): they decide the leads that would go to the team, and where an
-- agent's open leads go when she leaves.

create table internal.routing_rules (
  id bigint generated always as identity primary key,
  -- the order they are tried in: the first that matches decides
  position integer not null,
  -- a place's path (internal.places): the lead's place is it or within it; null: anywhere
  place text,
  -- a listing's or a seller's property type; null: any
  property_type text,
  -- the listing's price or the seller's estimate, in USD; null: no bound
  min_price numeric check (min_price >= 0),
  max_price numeric check (max_price >= 0),
  -- the element it came from, or its campaign's utm_source; null: any
  source text,
  agent_id bigint not null references public.agents (id) on delete cascade,
  created_by uuid,
  created_at timestamptz not null default internal.now(),
  check (min_price is null or max_price is null or min_price <= max_price)
);
alter table internal.routing_rules enable row level security;
create index routing_rules_position on internal.routing_rules (position);
comment on table internal.routing_rules is 'The team''s rules for the leads nothing names an agent for, tried in order (docs/agent-area.md).';

-- the leads the spread gave, by agent: what "evenly" counts
create index inquiries_spread on public.inquiries (owner_agent_id, received_at) where routed ->> 'by' = 'spread';

-- What the rules read of a stored lead: its listing, a seller's place, type and estimate, its source.
create or replace function internal.lead_route_facts(lead public.inquiries)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('listing_id', lead.listing_id, 'place', lead.seller -> 'estimate' -> 'place' ->> 'path',
           'property_type', lead.seller -> 'facts' ->> 'property_type', 'price', lead.seller -> 'estimate' ->> 'value',
           'source', lead.element, 'campaign', lead.utm ->> 'utm_source')
$$;

-- The agent the team's routing gives a lead (`facts`: listing_id, place, property_type, price,
-- source, campaign; a listing's own place, type and price where the facts have none), never
-- `exclude`: {agent_id, by: rule, rule_id}, {agent_id, by: spread}, or null (the team's). The
-- spread is decided one lead at a time across servers (a lock held to the caller's commit), so two
-- leads at once are not both given to the same agent.
create or replace function internal.route_lead(facts jsonb, exclude bigint default null)
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
declare
  f record;
  rule internal.routing_rules;
  chosen bigint;
begin
  select coalesce(nullif(facts ->> 'place', ''), l.city_slug || coalesce('/' || l.sector_slug, '')) as place,
         coalesce((select p.state_slug from internal.places p where p.path = pg_catalog.split_part(facts ->> 'place', '/', 1)), l.state_slug) as province,
         coalesce(nullif(facts ->> 'property_type', ''), l.property_type) as property_type,
         coalesce(case when facts ->> 'price' ~ '^[0-9]{1,12}(\.[0-9]+)?$' then (facts ->> 'price')::numeric end, l.price) as price,
         nullif(facts ->> 'source', '') as source,
         nullif(facts ->> 'campaign', '') as campaign
    into f
    from (select 1) one
    left join internal.listings l on l.id = case when facts ->> 'listing_id' ~ '^[0-9]{1,15}$' then (facts ->> 'listing_id')::bigint end;
  for rule in
    select r.* from internal.routing_rules r join public.agents a on a.id = r.agent_id
     where a.is_ours and a.email is not null and r.agent_id is distinct from exclude
     order by r.position, r.id
  loop
    if (rule.place is null or f.place = rule.place or f.place like rule.place || '/%' or rule.place = 'provincia/' || f.province)
       and (rule.property_type is null or rule.property_type = f.property_type)
       and (rule.min_price is null or f.price >= rule.min_price)
       and (rule.max_price is null or f.price <= rule.max_price)
       and (rule.source is null or rule.source = f.source or rule.source = f.campaign) then
      return pg_catalog.jsonb_build_object('agent_id', rule.agent_id, 'by', 'rule', 'rule_id', rule.id);
    end if;
  end loop;
  if coalesce((select s.value from internal.settings s where s.name = 'lead_routing_default'), 'team') = 'spread' then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('internal.route_lead: spread'));
    select a.id into chosen
      from public.agents a
     where a.is_ours and a.email is not null and a.id is distinct from exclude
     order by (select count(*) from public.inquiries i
                where i.owner_agent_id = a.id and i.routed ->> 'by' = 'spread' and i.received_at > internal.now() - interval '30 days'), a.id
     limit 1;
    if chosen is not null then
      return pg_catalog.jsonb_build_object('agent_id', chosen, 'by', 'spread');
    end if;
  end if;
  return null;
end
$$;

-- Who the signed-in caller is in the area: her agent id (null for the team's own account) and
-- whether she is the team's.
create or replace function public.my_role()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('agent_id', internal.my_agent_id(), 'team', internal.is_team())
$$;
comment on function public.my_role is 'Whether the signed-in caller is an agent (her id) and whether she is the team''s (docs/agent-area.md).';

-- The team's view of the agents: every agent of the office, active or not, with her open leads.
create or replace function public.team_agents()
returns table (id bigint, name public.plain_text, email public.plain_text, active boolean, signed_in boolean, open_leads integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not internal.is_team() then
    raise exception 'only the team sees the agents so' using errcode = '42501';
  end if;
  return query
    select a.id, pg_catalog.btrim(pg_catalog.concat_ws(' ', a.first_name, a.last_name))::public.plain_text, a.email, a.active, a.user_id is not null,
           (select count(*)::integer from public.inquiries i where i.owner_agent_id = a.id and i.status not in ('won', 'lost') and not i.spam)
      from public.agents a
     where a.country_code = 'EC'
     order by a.active desc, a.last_name, a.first_name, a.id;
end
$$;
comment on function public.team_agents is 'The team''s list of the office''s agents (docs/agent-area.md).';

-- The team's routing: its default and its rules in order.
create or replace function public.routing_setup()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not internal.is_team() then
    raise exception 'only the team sees the routing' using errcode = '42501';
  end if;
  return pg_catalog.jsonb_build_object(
    'default', coalesce((select s.value from internal.settings s where s.name = 'lead_routing_default'), 'team'),
    'rules', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', r.id, 'place', r.place, 'property_type', r.property_type,
                         'min_price', r.min_price, 'max_price', r.max_price, 'source', r.source, 'agent_id', r.agent_id) order by r.position, r.id)
                         from internal.routing_rules r), '[]'));
end
$$;
comment on function public.routing_setup is 'The team''s lead routing: its default and rules (docs/agent-area.md).';

-- The team saves its routing: the default ('team' or 'spread') and the rules in priority order,
-- all at once or none (a refusal names the rule's position and field in its hint).
create or replace function public.save_routing(default_route text, rules jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  rule jsonb;
  n integer := 0;
begin
  if not internal.is_team() then
    raise exception 'only the team sets the routing' using errcode = '42501';
  end if;
  if default_route is null or default_route not in ('team', 'spread') then
    raise exception 'the default is team or spread' using errcode = '22023', hint = 'default';
  end if;
  if pg_catalog.jsonb_typeof(rules) is distinct from 'array' or pg_catalog.jsonb_array_length(rules) > 100 then
    raise exception 'rules is a list of at most 100' using errcode = '22023', hint = 'rules';
  end if;
  delete from internal.routing_rules where true;
  for rule in select * from pg_catalog.jsonb_array_elements(rules) loop
    n := n + 1;
    if pg_catalog.jsonb_typeof(rule) is distinct from 'object'
       or not exists (select 1 from public.agents a where a.id::text = rule ->> 'agent_id' and a.is_ours) then
      raise exception 'rule %: its agent is none of ours', n using errcode = '22023', hint = 'agent:' || n;
    end if;
    if nullif(rule ->> 'place', '') is not null and not exists (select 1 from internal.places p where p.path = rule ->> 'place') then
      raise exception 'rule %: we have no place %', n, rule ->> 'place' using errcode = '22023', hint = 'place:' || n;
    end if;
    if (rule ->> 'min_price') !~ '^[0-9]{1,12}$' and nullif(rule ->> 'min_price', '') is not null
       or (rule ->> 'max_price') !~ '^[0-9]{1,12}$' and nullif(rule ->> 'max_price', '') is not null
       or (rule ->> 'min_price') ~ '^[0-9]{1,12}$' and (rule ->> 'max_price') ~ '^[0-9]{1,12}$' and (rule ->> 'min_price')::numeric > (rule ->> 'max_price')::numeric then
      raise exception 'rule %: prices are whole dollars, the lowest first', n using errcode = '22023', hint = 'price:' || n;
    end if;
    if pg_catalog.length(rule ->> 'property_type') > 40 or pg_catalog.length(rule ->> 'source') > 60 or (rule ->> 'source') ~ '[[:cntrl:]]' then
      raise exception 'rule %: a type or source that long is none of ours', n using errcode = '22023', hint = 'source:' || n;
    end if;
    insert into internal.routing_rules (position, place, property_type, min_price, max_price, source, agent_id, created_by)
    values (n, nullif(rule ->> 'place', ''), nullif(rule ->> 'property_type', ''), nullif(rule ->> 'min_price', '')::numeric,
            nullif(rule ->> 'max_price', '')::numeric, nullif(pg_catalog.btrim(rule ->> 'source'), ''), (rule ->> 'agent_id')::bigint, auth.uid());
  end loop;
  insert into internal.settings (name, value) values ('lead_routing_default', default_route)
  on conflict (name) do update set value = excluded.value;
  return public.routing_setup();
end
$$;
comment on function public.save_routing is 'The team sets its lead routing: the default and the rules in order (docs/agent-area.md).';

-- The team invites an agent: she becomes one of ours (a new agent, or one who had left and comes
-- back), so her address gets a sign-in code (docs/agent-area.md). Answers her id.
create or replace function public.invite_agent(email text, first_name text, last_name text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  address text := pg_catalog.lower(pg_catalog.btrim(coalesce(invite_agent.email, '')));
  found bigint;
begin
  if not internal.is_team() then
    raise exception 'only the team invites an agent' using errcode = '42501';
  end if;
  if address !~ '^[^@\s]{1,64}@[^@\s]{1,190}\.[a-z]{2,}$' then
    raise exception 'an e-mail address is name@domain' using errcode = '22023', hint = 'email';
  end if;
  if coalesce(pg_catalog.btrim(invite_agent.first_name), '') = '' or pg_catalog.length(invite_agent.first_name) > 80 or pg_catalog.length(invite_agent.last_name) > 80 then
    raise exception 'a first name of at most 80 characters' using errcode = '22023', hint = 'name';
  end if;
  select a.id into found from public.agents a where pg_catalog.lower(a.email) = address order by a.id limit 1;
  if found is null then
    insert into public.agents (first_name, last_name, email, country_code)
    values (pg_catalog.btrim(invite_agent.first_name), nullif(pg_catalog.btrim(coalesce(invite_agent.last_name, '')), ''), address, 'EC')
    returning id into found;
  else
    update public.agents a set active = true, country_code = 'EC' where a.id = found;
  end if;
  return pg_catalog.jsonb_build_object('agent_id', found);
end
$$;
comment on function public.invite_agent is 'The team makes an address one of our agents, so she may sign in (docs/agent-area.md).';

-- ─── supabase/schemas/49_listing_figures.sql ───

-- How an agent's listings do, week by week (docs/agent-area.md "Her listings"), as RESO's
-- InternetTrackingSummary counts them: page views, saves, inquiries, visit requests and alert mails
-- sent, beside the market's figure for the listing's sector. Counts only: a view or a save adds one
-- to its listing's week (internal.count_listing_event, called by the listing-events function), with
-- no cookie, address or anything else of the visitor's kept.

create table internal.listing_weeks (
  listing_id bigint not null references internal.listings (id) on delete cascade,
  -- the Monday of the week, in Ecuador
  week date not null,
  views integer not null default 0,
  saves integer not null default 0,
  primary key (listing_id, week)
);
alter table internal.listing_weeks enable row level security;
comment on table internal.listing_weeks is 'Page views and saves of each listing, by week in Ecuador: counts only (docs/agent-area.md).';

-- the Monday of the week `at` is in, in Ecuador
create or replace function internal.ecuador_week(at timestamptz)
returns date
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.date_trunc('week', at at time zone 'America/Guayaquil')::date
$$;

-- One view or save of a public listing, added to its week; false for a listing that is not public.
create or replace function internal.count_listing_event(listing bigint, event text)
returns boolean
language sql
volatile
set search_path = ''
as $$
  with counted as (
    insert into internal.listing_weeks (listing_id, week, views, saves)
    select l.id, internal.ecuador_week(internal.now()), (event = 'view')::integer, (event = 'save')::integer
      from internal.listings l
     where l.id = count_listing_event.listing and l.is_public and event in ('view', 'save')
    on conflict (listing_id, week) do update
      set views = internal.listing_weeks.views + excluded.views, saves = internal.listing_weeks.saves + excluded.saves
    returning 1
  )
  select exists (select 1 from counted)
$$;

create index search_alerts_items on internal.search_alerts using gin (items jsonb_path_ops);

-- Her public listings (the newest `max_listings`; the team: `agent_id`'s), each with its last
-- `weeks` weeks: views, saves, inquiries, visit requests, alert mails sent; and the market's figure
-- for its sector (public.listing_market: the sector's median USD/m² beside the listing's).
create or replace function public.my_listing_figures(weeks integer default 8, agent_id bigint default null, max_listings integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  whose bigint := coalesce(internal.my_agent_id(), case when internal.is_team() then my_listing_figures.agent_id end);
  first_week date;
begin
  if whose is null then
    raise exception 'only an agent of ours (or the team, naming one) has listings' using errcode = '42501';
  end if;
  if weeks is null or weeks not between 1 and 26 or max_listings is null or max_listings not between 1 and 200 then
    raise exception 'weeks is 1 to 26, max_listings 1 to 200' using errcode = '22023', hint = 'range';
  end if;
  first_week := internal.ecuador_week(internal.now()) - (weeks - 1) * 7;
  return coalesce((
    select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
             'id', l.id, 'title', l.title, 'city', l.city, 'sector', l.sector, 'price', l.price, 'operation', l.operation,
             'usd_m2', case when l.operation = 'sale' and l.square_feet > 0 then pg_catalog.round(l.price / l.square_feet) end,
             'market', (select pg_catalog.to_jsonb(m) from public.listing_market(l.id) m order by m.month desc limit 1),
             'weeks', (
               select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                        'week', w.week,
                        'views', coalesce(c.views, 0),
                        'saves', coalesce(c.saves, 0),
                        'inquiries', (select count(*) from public.inquiries i
                                       where i.listing_id = l.id and not i.spam and internal.ecuador_week(i.received_at) = w.week
                                         and not exists (select 1 from internal.visit_requests v where v.inquiry_id = i.id)),
                        'visit_requests', (select count(*) from internal.visit_requests v where v.listing_id = l.id and internal.ecuador_week(v.created_at) = w.week),
                        'alert_mails', (select count(*) from internal.search_alerts a join internal.mail_outbox o on o.kind = 'alert' and o.ref_id = a.id::text and o.status = 'sent'
                                         where a.items @> pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object('id', l.id)) and internal.ecuador_week(o.sent_at) = w.week))
                      order by w.week)
                 from (select (first_week + d * 7) as week from pg_catalog.generate_series(0, weeks - 1) d) w
                 left join internal.listing_weeks c on c.listing_id = l.id and c.week = w.week))
           order by l.listed_at desc nulls last, l.id desc)
      from (select * from internal.listings x where x.agent_id = whose and x.is_public order by x.listed_at desc nulls last, x.id desc limit max_listings) l), '[]');
end
$$;
comment on function public.my_listing_figures is 'A signed-in agent''s listings, week by week: views, saves, inquiries, visit requests, alert mails (docs/agent-area.md).';

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
  started_at timestamptz not null default internal.now(),
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
  fetched_at timestamptz not null default internal.now(),
  primary key (url, media_key, modified)
);

alter table internal.photos enable row level security;

-- A stage of internal.import_merge: what the run would do, before it does it: the source's active
-- listings, the staged ones, those it withdraws by their status and those absent from the feed.
create or replace function internal.import_counts(run bigint, source_name text, absent_withdraws boolean)
returns table (active_before integer, staged integer, leaving integer, absent integer)
language sql
stable
set search_path = ''
as $$
  select (select count(*)::integer from internal.listings where source = source_name and status = '1'),
         (select count(*)::integer from internal.import_staging where run_id = run),
         (select count(*)::integer
            from internal.listings l join internal.import_staging s on s.run_id = run and s.source_key = l.source_key
           where l.source = source_name and l.status = '1' and s.listing->>'status' <> '1'),
         (select count(*)::integer
            from internal.listings l
           where absent_withdraws and l.source = source_name and l.status = '1'
             and not exists (select 1 from internal.import_staging s where s.run_id = run and s.source_key = l.source_key)
             and not exists (select 1 from internal.import_seen s where s.run_id = run and s.source_key = l.source_key))
$$;

-- A stage of internal.import_merge: the agents the run names that are not ours, each named once (a
-- feed names a few hundred agents over a hundred thousand listings).
create or replace function internal.import_unknown_agents(run bigint)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(distinct coalesce(d.agent_key, d.agent_email)), '[]')
    from (select distinct s.listing->>'agent_key' as agent_key, s.listing->>'agent_email' as agent_email
            from internal.import_staging s where s.run_id = run) d
   where coalesce(d.agent_key, d.agent_email) is not null
     and not exists (select 1 from public.agents a where a.agent_key = d.agent_key or lower(a.email) = d.agent_email)
$$;

-- A stage of internal.import_merge: the staged listings as rows, with their words and whose each
-- agent named is (pg_temp.import_matched). The words are computed for the listings that are new or
-- whose text changed (a whole feed sent again is mostly neither); the others' are their listings'.
create or replace function internal.import_matched(run bigint, source_name text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- those listings' words, in one query PostgreSQL runs on every core (an INSERT runs on one).
  -- The planner chooses that from the staging table's statistics (import_merge takes them first:
  -- those of an empty table left 100,000 listings' words on one core, 12.3 s) and from the function's
  -- cost, which it counts per row only in a select list (in FROM, once); `offset 0` keeps it there,
  -- called once per listing.
  drop table if exists pg_temp.import_words;
  create temp table import_words on commit drop as
    select x.source_key, (x.w).words, (x.w).title_words
      from (select s.source_key, internal.listing_words_pair(r.title, r.description, coalesce(r.features, '{}')) as w
              from internal.import_staging s
              cross join pg_catalog.jsonb_to_record(s.listing) as r(title text, description text, features text[])
              left join internal.listings l on l.source = source_name and l.source_key = s.source_key
             where s.run_id = run
               and (l.id is null or (l.title, l.description, l.features)
                                    is distinct from (r.title, r.description, coalesce(r.features, '{}')))
            offset 0) x;
  drop table if exists pg_temp.import_matched;
  create temp table import_matched on commit drop as
  with input as (
    select s.source_key, r.*, coalesce(w.words, l.words) as words, coalesce(w.title_words, l.title_words) as title_words
      from internal.import_staging s
      cross join jsonb_to_record(s.listing) as r(
             listing_ref text, status text, source_status text, title text, address text, price numeric, bedrooms integer,
             bathrooms numeric, square_feet numeric, lot_size numeric, year_built integer, property_type text, city text,
             sector text, state text, country_code text, geo_lat text, geo_lon text, description text, features text[],
             agent_key text, agent_email text, agent_first_name text, agent_last_name text, agent_phone text,
             listed_at timestamptz, source_modified_at timestamptz, media jsonb,
             hoa_fee numeric, parking_spaces smallint, storage_unit boolean, furnished text, pets_allowed boolean, operation text)
      left join pg_temp.import_words w on w.source_key = s.source_key
      left join internal.listings l on l.source = source_name and l.source_key = s.source_key
     where s.run_id = run
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
  )
  -- joined by a key that tells a missing name from an empty one, and hashes
  select i.*, o.agent_id, o.our_first_name, o.our_last_name, o.our_email, o.our_phone, o.our_picture
    from input i
    join owners o on o.named = pg_catalog.jsonb_build_array(i.agent_key, i.agent_email);
  drop table pg_temp.import_words;
end
$$;

-- A stage of internal.import_merge: the matched listings the feed sends as they are here, left out,
-- so that they are not written, locked or run through a trigger (a whole feed sent again is mostly
-- such). As they are: every column the merge writes as it would write it, an active listing `held`
-- on the market counted as staying there.
create or replace function internal.import_drop_unchanged(source_name text, held boolean)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  delete from pg_temp.import_matched m
   using internal.listings l
   where l.source = source_name and l.source_key = m.source_key
     and (l.listing_ref, l.status, l.source_status, l.title, l.address, l.price, l.bedrooms, l.bathrooms, l.square_feet,
          l.lot_size, l.year_built, l.property_type, l.city, l.sector, l.state, l.country_code, l.geo_lat, l.geo_lon,
          l.description, l.features, l.agent_id, l.agent_first_name, l.agent_last_name, l.agent_email, l.agent_phone,
          l.agent_picture, l.source_modified_at, l.source_media, l.hoa_fee, l.parking_spaces, l.storage_unit, l.furnished,
          l.pets_allowed, l.operation)
         is not distinct from
         (m.listing_ref, case when held and l.status = '1' and m.status <> '1' then l.status else m.status end,
          m.source_status, m.title, m.address, m.price, m.bedrooms, m.bathrooms, m.square_feet, m.lot_size, m.year_built,
          m.property_type, m.city, m.sector, m.state, m.country_code, m.geo_lat, m.geo_lon, m.description,
          coalesce(m.features, '{}'), m.agent_id, coalesce(m.our_first_name, m.agent_first_name),
          coalesce(m.our_last_name, m.agent_last_name), coalesce(m.our_email, m.agent_email),
          coalesce(m.our_phone, m.agent_phone), m.our_picture, m.source_modified_at, coalesce(m.media, '[]'), m.hoa_fee,
          m.parking_spaces, m.storage_unit, m.furnished, m.pets_allowed, coalesce(m.operation, 'sale'));
end
$$;

-- A stage of internal.import_merge: the matched listings into the listings, new ones added and
-- changed ones updated (an active one `held` stays on the market); how many of each. Every one left
-- is new or changed (import_drop_unchanged). Its caller says the words are supplied
-- (exp.words_supplied).
create or replace function internal.import_upsert(source_name text, held boolean)
returns table (added integer, changed integer)
language plpgsql
volatile
set search_path = ''
as $$
begin
  return query
  with merged as (
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
      from pg_temp.import_matched m
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
    returning (xmax = 0) as inserted
  )
  select (count(*) filter (where inserted))::integer, (count(*) filter (where not inserted))::integer from merged;
end
$$;

-- A stage of internal.import_merge: the source's active listings the feed no longer has, withdrawn.
create or replace function internal.import_withdraw_absent(run bigint, source_name text)
returns void
language sql
volatile
set search_path = ''
as $$
  update internal.listings l
     set status = 'absent', source_status = 'not in the feed'
   where l.source = source_name and l.status = '1'
     and not exists (select 1 from internal.import_staging s where s.run_id = run and s.source_key = l.source_key)
     and not exists (select 1 from internal.import_seen s where s.run_id = run and s.source_key = l.source_key)
$$;

-- A feed's run merged into the listings (docs/import.md), as a chain of the stages above: what it
-- would do; withdrawals held back when they are too many (more than 5 and more than `max_share` of
-- the source's active listings, unless `allow_withdrawals`); the staged listings matched and merged;
-- the absent ones withdrawn (`absent_withdraws`); the staging emptied. What it did, as JSON.
create or replace function internal.import_merge(run bigint, source_name text, absent_withdraws boolean, max_share numeric, allow_withdrawals boolean)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  n record;
  held boolean;
  done record;
  gone integer := 0;
  unknown_agents jsonb;
  bulk boolean;
begin
  -- the run's statistics before any stage plans a join on it: the staging table is filled just
  -- before a run and emptied after it, so the statistics PostgreSQL keeps are another run's (or an
  -- empty table's). Planned on those, the counts joined the run to the source's listings as nested
  -- loops over every pair: a feed of 20,000 listings merged the second time took minutes.
  analyze internal.import_staging, internal.import_seen;
  select count(*) > 10000 into bulk from internal.import_staging where run_id = run;
  if bulk then perform pg_catalog.set_config('exp.listing_cells', 'deferred', true); end if;
  select * into n from internal.import_counts(run, source_name, absent_withdraws);
  held := not allow_withdrawals and n.leaving + n.absent > 5 and n.leaving + n.absent > max_share * n.active_before;
  unknown_agents := internal.import_unknown_agents(run);
  perform internal.import_matched(run, source_name);
  -- the words were computed with the rows (import_matched): the listings' trigger takes them as they are
  perform pg_catalog.set_config('exp.words_supplied', 'on', true);
  perform internal.import_drop_unchanged(source_name, held);
  select * into done from internal.import_upsert(source_name, held);
  perform pg_catalog.set_config('exp.words_supplied', '', true);
  drop table pg_temp.import_matched;
  if not held then
    gone := n.leaving;
    if absent_withdraws and n.absent > 0 then
      perform internal.import_withdraw_absent(run, source_name);
      gone := gone + n.absent;
    end if;
  end if;
  if bulk then
    perform pg_catalog.set_config('exp.listing_cells', '', true);
    -- what the listings' copies are made from changed only if a listing did
    if done.added + done.changed + gone > 0 then perform internal.listings_derived_rebuild(); end if;
  end if;
  delete from internal.import_staging where run_id = run;
  delete from internal.import_seen where run_id = run;
  return jsonb_build_object(
    'new', done.added, 'updated', done.changed, 'unchanged', n.staged - done.added - done.changed, 'withdrawn', gone,
    'withdrawals_held', held, 'would_withdraw', n.leaving + n.absent, 'active_before', n.active_before,
    'unknown_agents', unknown_agents);
end
$$;

-- ─── supabase/schemas/54_consents.sql ───

-- A visitor's consents (docs/privacy.md "Consents"): where consent is the legal basis (Ecuador's
-- LOPDP, Art. 8), each purpose is a box of its own, never ticked in advance, and what she ticked is
-- kept with the request it came with: the words she read, the notice's version, when, from which
-- page. Withdrawing is one click (a link in the mails and webhooks that rely on it, her data's page)
-- and the CRM hears `consent.withdrawn`. Written by the functions with the service role; an agent
-- reads her leads' consents through internal.lead_consents.
create table internal.consents (
  id bigint generated always as identity primary key,
  -- marketing mail, the monthly home report, being contacted by other agents of the brokerage
  purpose text not null check (purpose in ('marketing', 'home_report', 'other_agents')),
  email text not null,
  -- the request it came with: an inquiry, a visit or a seller's lead; or a home report's subscription
  inquiry_id uuid references public.inquiries (id) on delete cascade,
  search_id bigint references internal.saved_searches (id) on delete cascade,
  -- the box's words as she read them, in her language, under this version of the notice
  text text not null check (pg_catalog.length(text) between 1 and 1000),
  lang text not null check (lang in ('en', 'es')),
  notice_version text not null,
  page text,
  given_at timestamptz not null default internal.now(),
  withdrawn_at timestamptz,
  withdrawn_via text check (withdrawn_via in ('link', 'my-data', 'unsubscribe')),
  constraint consents_with_request check (inquiry_id is not null or search_id is not null),
  constraint consents_withdrawn check ((withdrawn_at is null) = (withdrawn_via is null))
);

alter table internal.consents enable row level security;

comment on table internal.consents is 'What a visitor consented to, each purpose on its own, with the words, the notice''s version, the time and the page; withdrawn in one click.';

create index consents_mailbox on internal.consents (internal.mailbox(email));

create index consents_inquiry on internal.consents (inquiry_id) where inquiry_id is not null;

create index consents_search on internal.consents (search_id) where search_id is not null;

-- The withdrawal links' tokens, kept as their SHA-256 only; they work as long as the consent is
-- kept (a withdrawal must never be refused for a late click).
create table internal.consent_tokens (
  token_hash text primary key,
  consent_id bigint not null references internal.consents (id) on delete cascade,
  created_at timestamptz not null default internal.now()
);

alter table internal.consent_tokens enable row level security;

comment on table internal.consent_tokens is 'SHA-256 of the links that withdraw a consent in one click.';

create index consent_tokens_consent on internal.consent_tokens (consent_id);

-- A consent as it is told (her data's page, the agents' area, the webhooks): the one shape.
create or replace function internal.consent_json(c internal.consents)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('id', c.id, 'purpose', c.purpose, 'text', c.text, 'lang', c.lang, 'notice_version', c.notice_version,
    'page', c.page, 'given_at', c.given_at, 'withdrawn_at', c.withdrawn_at, 'withdrawn_via', c.withdrawn_via)
$$;

-- Withdraws these consents (`via`: a mail's link, her data's page, or the report's unsubscribe):
-- a home report withdrawn is unsubscribed (no report is sent again), and the CRM hears
-- consent.withdrawn with the address, so its own mail stops too. The count withdrawn now (one
-- withdrawn before counts nothing).
create or replace function internal.withdraw_consents(ids bigint[], via text)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  c internal.consents;
  n integer := 0;
begin
  for c in update internal.consents x set withdrawn_at = internal.now(), withdrawn_via = via
            where x.id = any (ids) and x.withdrawn_at is null returning x.* loop
    n := n + 1;
    if c.purpose = 'home_report' and c.search_id is not null then
      perform internal.unsubscribe_search(c.search_id);
    end if;
    perform internal.enqueue_webhook('consent.withdrawn', internal.consent_json(c)
      || pg_catalog.jsonb_build_object('email', c.email, 'inquiry_id', c.inquiry_id, 'saved_search_id', c.search_id));
  end loop;
  return n;
end
$$;

-- A saved search unsubscribed (its mail's link, her data's page): the consent it relied on is
-- withdrawn with it. The one way a search is unsubscribed.
create or replace function internal.unsubscribe_search(search bigint)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  update internal.saved_searches s set status = 'unsubscribed', unsubscribed_at = internal.now(), next_run_at = null
   where s.id = search and s.status in ('pending', 'active', 'paused');
  perform internal.withdraw_consents(array(select c.id from internal.consents c where c.search_id = search and c.withdrawn_at is null), 'unsubscribe');
end
$$;

-- The consents of these leads, as the agents' area shows them (public.my_leads): those given with
-- the lead, and her home reports' (a consent is the person's). Only the caller's leads (the team's:
-- all); the words and the page stay with her data's page.
create or replace function internal.lead_consents(ids uuid[])
returns table (lead_id uuid, consents jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select i.id, k.consents
    from public.inquiries i
    cross join lateral (
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('purpose', c.purpose, 'given_at', c.given_at, 'withdrawn_at', c.withdrawn_at) order by c.given_at) as consents
        from (select * from internal.consents c where c.inquiry_id = i.id
              union all
              select * from internal.consents c
               where i.erased_at is null and c.search_id is not null and c.inquiry_id is null and internal.mailbox(c.email) = internal.mailbox(i.email)) c) k
   where i.id = any (ids) and k.consents is not null and (internal.is_team() or i.owner_agent_id = internal.my_agent_id())
$$;

comment on function internal.lead_consents is 'Her leads'' consents (purpose, given, withdrawn), for the caller''s own leads only: docs/privacy.md "Consents".';

-- ─── supabase/schemas/55_privacy.sql ───

-- A visitor's data under Ecuador's law (docs/privacy.md): what we keep about an address, shown to
-- its owner through a single-use link mailed to it, corrected, and erased everywhere it is kept.
-- Read and written only by the privacy function (core/functions/privacy/handler.ts) with the
-- service role: the public key reads none of it, and no agent's token either.

-- Every request, kept without the person once it is answered: its kind, when it came, when it was
-- answered, and what was done (counts). The address is kept only while the request is open.
create table internal.privacy_requests (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('access', 'erasure', 'correction')),
  email text,
  lang text not null default 'es' check (lang in ('en', 'es')),
  client_hash text,
  asked_at timestamptz not null default internal.now(),
  answered_at timestamptz,
  -- what was done: { inquiries: 2, visit_requests: 1, saved_searches: 1, mails: 4, ... }
  outcome jsonb
);

alter table internal.privacy_requests enable row level security;

comment on table internal.privacy_requests is 'Requests about a visitor''s data (access, correction, erasure): the address only while open, then what was done and when.';

create index privacy_requests_open on internal.privacy_requests (internal.mailbox(email), asked_at desc) where email is not null;

create index privacy_requests_client on internal.privacy_requests (client_hash, asked_at desc);

-- The links' tokens, kept as their SHA-256 only: 'open' (the mailed link, used once, 24 hours) and
-- 'session' (what opening it gives the page, 30 minutes, for the download, the correction and the
-- erasure).
create table internal.privacy_tokens (
  token_hash text primary key,
  request_id bigint not null references internal.privacy_requests (id) on delete cascade,
  purpose text not null check (purpose in ('open', 'session')),
  created_at timestamptz not null default internal.now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table internal.privacy_tokens enable row level security;

comment on table internal.privacy_tokens is 'SHA-256 of the links of the privacy mails and of the sessions they open.';

create index privacy_tokens_request on internal.privacy_tokens (request_id);

-- Whether we keep anything about an address (the same mailbox: case and +tags aside).
create or replace function internal.person_known(email text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (select 1 from public.inquiries i where internal.mailbox(i.email) = internal.mailbox(person_known.email) and not i.spam)
      or exists (select 1 from internal.visit_requests v where internal.mailbox(v.email) = internal.mailbox(person_known.email))
      or exists (select 1 from internal.saved_searches s where internal.mailbox(s.email) = internal.mailbox(person_known.email) and not s.spam)
$$;

-- Her inquiries and seller's requests, each with its visit request, its visit and the notes on it.
create or replace function internal.person_inquiries(email text)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', i.id, 'received_at', i.received_at, 'name', i.name, 'email', i.email, 'phone', i.phone, 'message', i.message,
           'about', i.property_title, 'listing_id', i.listing_id, 'seller', i.seller, 'lang', i.lang, 'page', i.page_url,
           'status', i.status, 'agent', (select a.first_name || ' ' || a.last_name from public.agents a where a.id = i.owner_agent_id),
           'visit', (select pg_catalog.jsonb_build_object('mode', v.mode, 'proposed', v.proposed, 'status', v.status, 'phone', v.phone,
                       'confirmed', (select pg_catalog.jsonb_build_object('from', pg_catalog.lower(x.during), 'status', x.status) from internal.visits x where x.request_id = v.id))
                       from internal.visit_requests v where v.inquiry_id = i.id),
           'notes', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('at', n.created_at, 'text', n.body) order by n.created_at), '[]') from public.lead_notes n where n.lead_id = i.id)
         ) order by i.received_at desc), '[]')
    from public.inquiries i
   where internal.mailbox(i.email) = internal.mailbox(person_inquiries.email) and not i.spam
$$;

-- Her saved searches, market follows and home reports, with the alerts sent.
create or replace function internal.person_searches(email text)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', s.id, 'created_at', s.created_at, 'email', s.email, 'filters', s.filters, 'market', s.market, 'home', s.home,
           'frequency', s.frequency, 'status', s.status, 'confirmed_at', s.confirmed_at, 'last_alert_at', s.last_alert_at,
           'alerts_sent', (select pg_catalog.count(*) from internal.search_alerts a where a.search_id = s.id)
         ) order by s.created_at desc), '[]')
    from internal.saved_searches s
   where internal.mailbox(s.email) = internal.mailbox(person_searches.email) and not s.spam
$$;

-- Everything we keep about an address, as the link's page shows it and its download holds it.
create or replace function internal.person_data(email text)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'email', person_data.email,
    'inquiries', internal.person_inquiries(person_data.email),
    'saved_searches', internal.person_searches(person_data.email),
    'mails', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('kind', m.kind, 'status', m.status, 'queued_at', m.created_at, 'sent_at', m.sent_at) order by m.created_at desc), '[]')
                from internal.mail_outbox m where m.kind <> 'webhook' and internal.mailbox(m.recipient) = internal.mailbox(person_data.email)),
    'consents', (select coalesce(pg_catalog.jsonb_agg(internal.consent_json(c) order by c.given_at desc), '[]')
                   from internal.consents c where internal.mailbox(c.email) = internal.mailbox(person_data.email)),
    'requests', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('kind', r.kind, 'asked_at', r.asked_at, 'answered_at', r.answered_at) order by r.asked_at desc), '[]')
                   from internal.privacy_requests r where internal.mailbox(r.email) = internal.mailbox(person_data.email))
  )
$$;

-- Her name and phone, as she corrects them, wherever her requests keep them. The count of rows.
create or replace function internal.correct_person(email text, name text, phone text)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  changed integer;
  more integer;
begin
  update public.inquiries i set name = correct_person.name, phone = correct_person.phone
   where internal.mailbox(i.email) = internal.mailbox(correct_person.email);
  get diagnostics changed = row_count;
  update internal.visit_requests v set name = correct_person.name, phone = correct_person.phone
   where internal.mailbox(v.email) = internal.mailbox(correct_person.email);
  get diagnostics more = row_count;
  return changed + more;
end
$$;

-- Leads without their visitor (at her request, or past their retention): the request stays (that
-- it came, when, about what, whose it was, how far it got), her name, address, phone, words, home
-- and browser go; the agents' notes on it and its visit request's contact go too; the trail says
-- it was erased. The one home of what erasing a lead means.
create or replace function internal.erase_leads(ids uuid[])
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  update public.inquiries i
     set name = '', email = '', phone = null, message = null, client_hash = null, user_agent = null, requested_recipient = null,
         seller = case when i.seller is null then null else '{}'::jsonb end, erased_at = internal.now()
   where i.id = any (ids) and i.erased_at is null;
  delete from public.lead_notes n where n.lead_id = any (ids);
  -- her consents go with her: nothing is done on them any more
  delete from internal.consents c where c.inquiry_id = any (ids);
  -- the trail says it was erased, and when (not by whom: the visitor has no account)
  insert into public.lead_events (lead_id, what) select pg_catalog.unnest(ids), 'erased';
  update internal.visit_requests v set name = '', email = '', phone = null, message = null where v.inquiry_id = any (ids);
end
$$;

-- Her leads, without her (internal.erase_leads), her visit requests' contact and her consents. The leads' ids.
create or replace function internal.erase_person_leads(email text)
returns uuid[]
language plpgsql
volatile
set search_path = ''
as $$
declare
  ids uuid[];
begin
  select coalesce(pg_catalog.array_agg(i.id), '{}') into ids from public.inquiries i
   where internal.mailbox(i.email) = internal.mailbox(erase_person_leads.email);
  perform internal.erase_leads(ids);
  update internal.visit_requests v set name = '', email = '', phone = null, message = null
   where internal.mailbox(v.email) = internal.mailbox(erase_person_leads.email);
  -- and every consent she gave (her home reports' too)
  delete from internal.consents c where internal.mailbox(c.email) = internal.mailbox(erase_person_leads.email);
  return ids;
end
$$;

-- The mails to her and about her, without her: those not sent yet are dropped; what is kept says a
-- mail of a kind went, not to whom or with what. Webhooks that carried her (about her leads or
-- searches, or naming one of her addresses: `addresses`, lower case) are kept as events without
-- their data. The count of rows.
create or replace function internal.erase_person_mails(email text, leads uuid[], searches bigint[], addresses text[])
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  n integer;
begin
  with hers as (
    select m.id from internal.mail_outbox m
     where (m.kind <> 'webhook' and internal.mailbox(m.recipient) = internal.mailbox(erase_person_mails.email))
        or pg_catalog.split_part(m.ref_id, ':', 1) = any (select l::text from pg_catalog.unnest(leads) l)
        or pg_catalog.split_part(m.ref_id, ':', 1) = any (select s::text from pg_catalog.unnest(searches) s)
        or (m.kind = 'webhook' and (m.payload #>> '{data,id}' = any (select l::text from pg_catalog.unnest(leads) l)
                                    or m.payload #>> '{data,id}' = any (select s::text from pg_catalog.unnest(searches) s)
                                    or exists (select 1 from pg_catalog.unnest(addresses) a where pg_catalog.strpos(pg_catalog.lower(m.payload::text), a) > 0)))
  )
  update internal.mail_outbox m
     set recipient = case when m.kind = 'webhook' then m.recipient else '' end,
         payload = case when m.kind = 'webhook' then (m.payload - 'data') || pg_catalog.jsonb_build_object('data', pg_catalog.jsonb_build_object('erased', true)) else '{}'::jsonb end,
         status = case when m.status in ('pending', 'failed') then 'dropped' else m.status end,
         last_error = null
    from hers where m.id = hers.id;
  get diagnostics n = row_count;
  return n;
end
$$;

-- Erases a visitor (docs/privacy.md "Erasure"): her leads and visit requests without her, her saved
-- searches gone (no alert is ever sent again), the mails and webhooks without her; her leads' agents
-- and the team told (no name in those mails), and the CRM hears lead.erased with the ids alone.
-- What was done, in counts.
create or replace function internal.erase_person(email text, request_id bigint, team_inbox text)
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
declare
  leads uuid[];
  searches bigint[];
  addresses text[];
  mails integer;
  agent record;
  done jsonb;
begin
  select coalesce(pg_catalog.array_agg(s.id), '{}') into searches from internal.saved_searches s
   where internal.mailbox(s.email) = internal.mailbox(erase_person.email);
  -- every way she wrote her address (case, +tags), as the mails and webhooks may carry it
  select pg_catalog.array_agg(distinct a) into addresses from (
    select pg_catalog.lower(pg_catalog.btrim(i.email)) as a from public.inquiries i where internal.mailbox(i.email) = internal.mailbox(erase_person.email)
    union select pg_catalog.lower(pg_catalog.btrim(v.email)) from internal.visit_requests v where internal.mailbox(v.email) = internal.mailbox(erase_person.email)
    union select pg_catalog.lower(pg_catalog.btrim(s.email)) from internal.saved_searches s where s.id = any (searches)
    union select pg_catalog.lower(pg_catalog.btrim(erase_person.email))) known;
  leads := internal.erase_person_leads(erase_person.email);
  delete from internal.saved_searches s where s.id = any (searches);
  mails := internal.erase_person_mails(erase_person.email, leads, searches, addresses);
  done := pg_catalog.jsonb_build_object('inquiries', pg_catalog.cardinality(leads), 'saved_searches', pg_catalog.cardinality(searches), 'mails', mails);
  for agent in select distinct a.email from public.inquiries i join public.agents a on a.id = i.owner_agent_id where i.id = any (leads) and a.email is not null loop
    perform internal.enqueue_mail('privacy-erased', request_id::text || ':' || agent.email, agent.email, done);
  end loop;
  if team_inbox is not null and team_inbox <> '' then
    perform internal.enqueue_mail('privacy-erased', request_id::text || ':team', team_inbox, done);
  end if;
  perform internal.enqueue_webhook('lead.erased', pg_catalog.jsonb_build_object('request_id', request_id, 'lead_ids', pg_catalog.to_jsonb(leads),
    'saved_search_ids', pg_catalog.to_jsonb(searches), 'erased_at', internal.now()));
  update internal.privacy_requests r set email = null, answered_at = internal.now(), outcome = done
   where r.id = request_id or (r.email is not null and internal.mailbox(r.email) = internal.mailbox(erase_person.email));
  return done;
end
$$;

-- Nothing kept for ever (docs/privacy.md "Retention"): each run, once across servers (an advisory
-- lock, and not again within `min_gap` of the last), erases the leads whose last contact is older
-- than `leads_months` (internal.erase_leads), deletes the mails and webhooks sent, dropped or
-- failed more than `mails_days` ago, the alert requests never confirmed after `pending_days`, and
-- forgets the address of privacy requests older than that. What it did is kept (retention_runs),
-- the team reads the last run (public.privacy_overview). Null when another server has it or it
-- ran lately.
create table internal.retention_runs (
  id bigint generated always as identity primary key,
  at timestamptz not null default internal.now(),
  outcome jsonb not null
);

alter table internal.retention_runs enable row level security;

comment on table internal.retention_runs is 'What each run of the retention job erased and deleted (counts), for the team.';

-- The leads past their retention: no contact (the lead itself, a change, a note) for `months`.
create or replace function internal.expired_leads(months integer)
returns uuid[]
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.array_agg(i.id), '{}')
    from public.inquiries i
   where i.erased_at is null
     and i.received_at < internal.now() - pg_catalog.make_interval(months => months)
     and not exists (select 1 from public.lead_events e where e.lead_id = i.id and e.at >= internal.now() - pg_catalog.make_interval(months => months))
     and (i.follow_up_on is null or i.follow_up_on < (internal.now() - pg_catalog.make_interval(months => months))::date)
$$;

create or replace function internal.apply_retention(leads_months integer, mails_days integer, pending_days integer, min_gap interval default interval '1 hour')
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
declare
  last timestamptz;
  leads uuid[];
  mails integer;
  pending integer;
  requests integer;
  done jsonb;
begin
  if not pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('internal.apply_retention')) then
    return null;
  end if;
  select s.last_finished_at into last from internal.job_schedule s where s.job = 'retention';
  if last is not null and last > internal.now() - min_gap then
    return null;
  end if;
  leads := internal.expired_leads(leads_months);
  perform internal.erase_leads(leads);
  delete from internal.mail_outbox m where m.status in ('sent', 'dropped', 'failed') and coalesce(m.sent_at, m.created_at) < internal.now() - pg_catalog.make_interval(days => mails_days);
  get diagnostics mails = row_count;
  delete from internal.saved_searches s where s.status in ('pending', 'expired') and s.created_at < internal.now() - pg_catalog.make_interval(days => pending_days);
  get diagnostics pending = row_count;
  update internal.privacy_requests r set email = null where r.email is not null and r.asked_at < internal.now() - pg_catalog.make_interval(days => pending_days);
  get diagnostics requests = row_count;
  delete from internal.retention_runs r where r.at < internal.now() - interval '1 year';
  done := pg_catalog.jsonb_build_object('leads', pg_catalog.cardinality(leads), 'mails', mails, 'pending_searches', pending, 'privacy_requests', requests);
  insert into internal.retention_runs (outcome) values (done);
  insert into internal.job_schedule (job, due_at, last_started_at, last_finished_at, last_full_at)
  values ('retention', internal.now() + min_gap, internal.now(), internal.now(), internal.now())
  on conflict (job) do update set due_at = excluded.due_at, last_started_at = excluded.last_started_at, last_finished_at = excluded.last_finished_at, last_full_at = excluded.last_full_at;
  return done;
end
$$;

-- The team's view of privacy (docs/privacy.md, the team's console): the latest requests (their kind,
-- when asked, when answered and what was done; never the address) and the retention job's last
-- run. Only the team.
create or replace function public.privacy_overview(max_rows integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not internal.is_team() then
    raise exception 'only the team reads the privacy requests' using errcode = '42501';
  end if;
  return pg_catalog.jsonb_build_object(
    'requests', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('kind', r.kind, 'asked_at', r.asked_at, 'answered_at', r.answered_at, 'outcome', r.outcome)
                                   order by r.asked_at desc), '[]')
                   from (select * from internal.privacy_requests r order by r.asked_at desc limit least(greatest(coalesce(max_rows, 50), 1), 500)) r),
    'retention', (select pg_catalog.jsonb_build_object('at', r.at, 'outcome', r.outcome) from internal.retention_runs r order by r.at desc limit 1));
end
$$;

comment on function public.privacy_overview is 'The latest privacy requests (no address) and the retention job''s last run: the team''s (docs/privacy.md).';

-- ─── supabase/schemas/60_jobs.sql ───

-- The scheduled jobs every server on this database shares (an import source each): when each is
-- next due and when it last ran fully. A server runs a job only while it holds the job's advisory
-- lock (server/import/service.ts), so a job runs once per schedule across servers, never twice at
-- once; a server that dies mid-run lets go of the lock with its connection and leaves `due_at`
-- where it was, so the next server to look runs it again.
create table if not exists internal.job_schedule (
  job text primary key,
  due_at timestamptz not null default internal.now(),
  last_full_at timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_runner text
);

-- ─── supabase/schemas/98_data_api_gate.sql ───

-- Each client's share of a hosted project's data API (docs/deployment.md "What the public key may
-- ask"): PostgREST's pre-request hook, which it calls in every request's transaction before the
-- request's own statement, as the role of the request, with the request's headers and path set.
--
-- Our server shares its own pool among clients (server/http/client-shares.ts); on a hosted project
-- PostgREST's pool of connections is shared by whoever asks. A GET runs in a read-only transaction,
-- so the hook cannot count in a table: it holds advisory locks, which end with the transaction.
-- - A client (the address the platform's proxy sets: Cloudflare's CF-Connecting-IP, else the last
--   X-Forwarded-For hop) runs at most 4 requests at once; a fifth is refused at once.
-- - Reads whose size the client chooses (the rows of a table or a view, filtered as it likes, or
--   more than 48 of the search's rows, which it may filter too) take one of two turns across all
--   clients, and a table's read ends at 250 ms: so they never hold more than two of the pool's
--   connections, and the rest is free for the calls the site makes (a page of the search, the
--   count, the clusters, a listing's page); a third is refused at once.
-- Refused means 429 with Retry-After: 1, through PostgREST's own error for a hook (SQLSTATE PGRST,
-- its status and headers in the detail), which postgrest-js and our elements read as a busy API.
-- Only the public key is held; a signed-in agent and the service are not.

-- One of the two turns for a read whose size the client chooses (a table's or a view's rows, or a
-- thousand of the search's), across all clients; refused at once when both are taken.
create or replace function internal.take_bulk_turn()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  for slot in 0..1 loop
    if pg_catalog.pg_try_advisory_xact_lock(1197568870, slot) then
      return;
    end if;
  end loop;
  perform internal.too_many_at_once();
end
$$;

-- PostgREST's answer to a request past its share: 429, Retry-After: 1 (its error for SQLSTATE PGRST)
create or replace function internal.too_many_at_once()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = pg_catalog.json_build_object('code', 'EXP429', 'message', 'Too many requests at once: try again in a second',
                                           'details', null, 'hint', 'docs/data-api.md')::text,
    detail = pg_catalog.json_build_object('status', 429, 'headers', pg_catalog.json_build_object('Retry-After', '1'))::text;
end
$$;

create or replace function internal.data_api_gate()
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  headers jsonb := coalesce(nullif(pg_catalog.current_setting('request.headers', true), '')::jsonb, '{}');
  path text := coalesce(pg_catalog.current_setting('request.path', true), '');
  client text;
begin
  if current_user <> 'anon' then
    return;
  end if;
  client := coalesce(nullif(pg_catalog.btrim(headers->>'cf-connecting-ip'), ''),
                     nullif(pg_catalog.btrim(pg_catalog.split_part(headers->>'x-forwarded-for', ',', -1)), ''),
                     'unknown');
  for slot in 0..3 loop
    if pg_catalog.pg_try_advisory_xact_lock(1197568869, pg_catalog.hashtext(client || '/' || slot)) then
      if path !~ '^/rpc/' then
        perform internal.take_bulk_turn();
        -- and ends at 250 ms: what our pages read so takes 1 to 5 ms, a spec-shaped search over
        -- every listing under 100 (docs/data-api.md)
        perform pg_catalog.set_config('statement_timeout', '250ms', true);
      else
        -- the request's statement ends at 350 ms, so that the request, its other statements with
        -- it, holds its connection at most the public key's 500 ms (00_setup.sql)
        perform pg_catalog.set_config('statement_timeout', '350ms', true);
      end if;
      return;
    end if;
  end loop;
  perform internal.too_many_at_once();
end
$$;

comment on function internal.data_api_gate is 'PostgREST''s pre-request hook: each client at most 4 requests at once, reads of tables and views two at a time (docs/deployment.md).';

-- PostgREST reads its hook from the settings of the role it logs in as (in-database configuration)
alter role authenticator set pgrst.db_pre_request = 'internal.data_api_gate';

-- ─── supabase/schemas/99_privileges.sql ───

-- Who may do what (docs/deployment.md "The database"), after every object exists. A Supabase
-- project grants all on whatever is made in `public` to anon and authenticated (and PostgreSQL lets
-- PUBLIC execute every new function), and PostgREST writes through views: so nothing is left to
-- those defaults. The public key reads the relations we publish (the listings, the agents' public
-- columns, the listings' availability, cities and types) and calls the six functions the elements
-- call; nothing else, anywhere (tests/contract/privileges-catalogue.test.ts holds a database migrated by the
-- Supabase CLI to it).

-- schemas: `internal` is the service's alone
grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
revoke all on schema internal from public;
grant usage on schema internal to service_role;
-- the public views of the listings run with the reader's rights: the public key may name the
-- schema and read the listings' public columns, through the views, which show it the public rows
-- only (20_listings.sql says why the table has no policy); no function or other table of the
-- schema is its
grant usage on schema internal to anon, authenticated;

-- the listings, the agents, the inquiries (the agents' private notes and feed key are not public)
revoke all on internal.listings from anon, authenticated;
grant select (id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
  description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
  agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
  sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search,
  listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed,
  operation, is_public, project, project_id, unit_type_id, unit_of)
  on internal.listings to anon, authenticated;
revoke all on public.listings, public.agents, public.inquiries, public.listing_property_types from anon, authenticated;
grant select on public.listings, public.listing_property_types to anon, authenticated, service_role;
grant select (id, first_name, last_name, email, phone, picture, country_code, location, about, languages,
  specializations, certifications, locations_served, facebook, instagram, linkedin, website,
  first_name_search, last_name_search, email_search, about_es)
  on public.agents to anon, authenticated;
grant all on internal.listings, public.agents, public.inquiries to service_role;
revoke all on public.listing_cities from public, anon, authenticated;
grant select on public.listing_cities to anon, authenticated;
grant all on public.listing_cities to service_role;

-- the new developments (47_projects.sql): their public columns, through the views; the tables'
-- policies show the active ones
revoke all on internal.projects, internal.project_unit_types, public.projects, public.project_unit_types from anon, authenticated;
grant select (id, slug, name, developer, city, sector, address, geo_lat, geo_lon, description_en, description_es, amenities, images,
  stage, progress, delivery, reservation, entrada_pct, agent_id, status, updated_at)
  on internal.projects to anon, authenticated;
grant select (id, project_id, position, property_type, bedrooms, bathrooms, area_min, area_max, price_min, price_max, units_available,
  floor_plans, model)
  on internal.project_unit_types to anon, authenticated;
grant select on public.projects, public.project_unit_types to anon, authenticated, service_role;
grant all on internal.projects, internal.project_unit_types to service_role;

-- what only the service reads and writes
revoke all on internal.mail_outbox, internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens,
  internal.search_alerts, internal.settings, internal.places, internal.place_aliases, internal.import_sources,
  internal.import_runs, internal.import_staging, internal.import_seen, internal.photos, internal.webhook_endpoints,
  internal.job_schedule, internal.listing_spells, internal.market_index, internal.market_bounds, internal.market_runs, internal.market_rents_now,
  internal.agent_visiting_hours, internal.visit_requests, internal.visits, internal.visit_tokens, internal.open_houses,
  internal.privacy_requests, internal.privacy_tokens, internal.retention_runs, internal.consents, internal.consent_tokens,
  internal.points_of_interest from anon, authenticated;
revoke all on internal.job_schedule, internal.listing_words, internal.listing_spells, internal.market_index, internal.market_bounds,
  internal.market_runs, internal.market_rents_now from public;
grant all on internal.mail_outbox, internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens,
  internal.search_alerts, internal.settings, internal.places, internal.place_aliases, internal.job_schedule,
  internal.listing_spells, internal.market_index, internal.market_bounds, internal.market_runs, internal.market_rents_now,
  internal.agent_visiting_hours, internal.visit_requests, internal.visits, internal.visit_tokens, internal.open_houses,
  internal.privacy_requests, internal.privacy_tokens, internal.retention_runs, internal.consents, internal.consent_tokens,
  internal.points_of_interest to service_role;

-- functions: the service's; the public key calls the data API's (docs/data-api.md)
revoke execute on function internal.listing_cells_rebuild(), internal.places_recount(text[], text[]), internal.first_matches,
  internal.word_match_ids, internal.note_price_cut, internal.listing_copies_changed, internal.listings_derived_rebuild,
  internal.import_merge, internal.note_market_spells, internal.rebuild_market_index,
  internal.refresh_market_index, internal.confirm_visit, internal.confirm_visit_at, internal.cancel_visit,
  internal.upcoming_open_houses, internal.open_houses_changed, internal.forget_past_open_houses, internal.import_open_houses from public;
-- (the public key may name the schema `internal` for the views; none of its functions is the public's)
revoke execute on all functions in schema internal from public, anon, authenticated;
grant execute on all functions in schema internal to service_role;
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
  public.listing_open_houses(bigint),
  public.listing_availability(bigint),
  public.nearby_places(double precision, double precision)
  to anon, authenticated;
-- what runs as the caller when the public key filters a column or PostgREST asks the hook
-- (03_public_types.sql, 98_data_api_gate.sql)
grant execute on function
  internal.literal_match(text, text, boolean),
  internal.bounded_like(text, text, boolean),
  internal.plain_match(public.plain_text, public.plain_text),
  internal.plain_imatch(public.plain_text, public.plain_text),
  internal.plain_like(public.plain_text, public.plain_text),
  internal.plain_ilike(public.plain_text, public.plain_text),
  internal.no_json_key(public.plain_json, text),
  internal.no_json_index(public.plain_json, integer),
  internal.no_json_path(public.plain_json, public.plain_json),
  internal.data_api_gate(),
  internal.take_bulk_turn(),
  internal.too_many_at_once()
  to anon, authenticated;

-- the agents' area (48_agent_area.sql): a signed-in agent reads the leads row level security lets
-- her see, moves them through move_lead, notes them, and reads their trail; the public key none of it
revoke all on public.lead_notes, public.lead_events from public, anon, authenticated;
grant select (id, listing_id, agent_id, name, email, phone, message, property_title, property_address, property_price,
  recipient_kind, lang, received_at, lead_agent_id, page_url, element, utm, seller, assigned, assigned_agent_id, owner_agent_id, status, follow_up_on,
  routed, erased_at)
  on public.inquiries to authenticated;
grant update (status, follow_up_on) on public.inquiries to authenticated;
grant select, insert (lead_id, body) on public.lead_notes to authenticated;
grant select on public.lead_events to authenticated;
grant all on public.lead_notes, public.lead_events to service_role;
grant execute on function public.move_lead(uuid, text, date, text), public.reassign_lead(uuid, bigint, text), public.deactivate_agent(bigint) to authenticated;
-- her calendar (49_agent_calendar.sql): through its functions only, each checking whose it is
grant execute on function public.my_visits(timestamptz, timestamptz), public.act_on_visit(bigint, text, integer, timestamptz, text),
  public.my_open_times(bigint), public.my_visiting_hours(), public.set_visiting_hours(jsonb, date[]) to authenticated;
revoke all on internal.agent_days_off from anon, authenticated;
-- her profile (49_agent_profile.sql): read and saved through its two functions; her trail read as row level security lets her
grant execute on function public.my_profile(), public.update_my_profile(jsonb) to authenticated;
revoke all on public.agent_events from public, anon, authenticated;
grant select on public.agent_events to authenticated;
grant all on public.agent_events to service_role;
-- the team's console (49_lead_routing.sql): each function checks the caller is the team's (my_role answers anyone signed in)
grant execute on function public.my_role(), public.team_agents(), public.routing_setup(), public.save_routing(text, jsonb),
  public.invite_agent(text, text, text), public.my_alert_leads(), public.my_leads(integer) to authenticated;
-- her listings' weekly figures (49_listing_figures.sql): counts only, read through one checked function
grant execute on function public.my_listing_figures(integer, bigint, integer) to authenticated;
-- the privacy requests and the retention job's last run (55_privacy.sql): the function checks the caller is the team's
grant execute on function public.privacy_overview(integer) to authenticated;
revoke all on internal.listing_weeks from anon, authenticated;
grant all on internal.listing_weeks to service_role;
revoke all on internal.routing_rules from anon, authenticated;
grant all on internal.routing_rules to service_role;
grant all on internal.agent_days_off to service_role;
grant execute on function internal.my_agent_id(), internal.is_team(), internal.now() to authenticated;
-- her leads' consents (54_consents.sql), read by public.my_leads: the function keeps to the caller's leads
grant execute on function internal.lead_consents(uuid[]) to authenticated;
revoke all on internal.team_members, internal.auth_codes, internal.auth_tries, internal.auth_sessions from anon, authenticated;
grant all on internal.team_members, internal.auth_codes, internal.auth_tries, internal.auth_sessions to service_role;

-- sequences: nobody but the service writes
revoke all on all sequences in schema public from public, anon, authenticated;
grant all on all sequences in schema public to service_role;

-- and what is made in `public` from now on is granted to nobody until its file says so
alter default privileges in schema public revoke all on tables from public, anon, authenticated;
alter default privileges in schema public revoke all on sequences from public, anon, authenticated;
alter default privileges in schema public revoke all on functions from public, anon, authenticated;
alter default privileges in schema internal revoke execute on functions from public, anon, authenticated;
