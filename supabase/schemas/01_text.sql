-- Folding text for search at a quarter of the cost (docs/decisions.md #29, "Speed").
--
-- search_fold() lowered A-Z with translate(), which for text of more than one byte per character
-- compares each character with each of the 26 letters: two thirds of folding a description, and
-- a listing's text is folded six times as it is stored (its words in two languages, its title's
-- words, its place, its city). lower() under the "C" collation lowers A-Z and nothing else, the
-- same rule (core/protocol/text.ts fold(); tests/contract/rules.test.ts holds both to one table of
-- cases), whatever the database's own collation. The stored values do not change.

create or replace function public.search_fold(value text)
returns text language sql immutable parallel safe set search_path = '' as $$
  select pg_catalog.lower(
    pg_catalog.regexp_replace(pg_catalog.normalize(coalesce(value, ''), 'NFD'), E'[\u0300-\u036f]', '', 'g') collate pg_catalog."C")
$$;

create or replace function public.parse_coordinate(value text, max_abs double precision)
returns double precision language sql immutable parallel safe set search_path = '' as $$
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
returns text language sql immutable parallel safe set search_path = '' as $$
  select pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.btrim(email)), '\+[^@]*@', '@')
$$;

-- part of a text, taken literally in a LIKE: %, _ and \ are plain characters
create or replace function internal.contains_pattern(value text)
returns text language sql immutable parallel safe set search_path = '' as $$
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
returns text language sql immutable parallel safe set search_path = '' as $$
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
returns text language sql immutable parallel safe set search_path = '' as $$
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
returns tsvector language plpgsql immutable parallel safe set search_path = '' as $$
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
language plpgsql immutable parallel safe
-- about 130 µs a listing (two stemmers over the folded title and description): so the planner
-- spreads a merge's listings over the cores (import_merge)
cost 1000 set search_path = '' as $$
begin
  title_words := internal.text_words(coalesce(title, '') operator(pg_catalog.||) ' ' operator(pg_catalog.||) internal.feature_words(features));
  words := pg_catalog.setweight(title_words, 'A') operator(pg_catalog.||) pg_catalog.setweight(internal.text_words(description), 'B');
end
$$;
create or replace function internal.listing_words(title text, description text, features text[])
returns tsvector language sql immutable parallel safe set search_path = '' as $$
  select (internal.listing_words_pair(title, description, features)).words
$$;

-- a visitor's words as a query: websearch syntax, folded, in Spanish or in English (either reading
-- matches; an excluded word is excluded in both, since a listing holds both stems of each word)
create or replace function public.words_query(words text)
returns tsquery language sql immutable parallel safe set search_path = '' as $$
  select pg_catalog.websearch_to_tsquery('pg_catalog.spanish'::regconfig, public.search_fold(pg_catalog.left(words, 200)))
      || pg_catalog.websearch_to_tsquery('pg_catalog.english'::regconfig, public.search_fold(pg_catalog.left(words, 200)))
$$;

-- the texts of a JSON array (a function of its own: a sub-select in listing_matches() itself would
-- keep PostgreSQL from inlining it, and every caller from planning its conditions on indexes)
create or replace function internal.jsonb_texts(value jsonb)
returns text[] language sql immutable parallel safe set search_path = '' as $$
  select array(select pg_catalog.jsonb_array_elements_text(value))
$$;
