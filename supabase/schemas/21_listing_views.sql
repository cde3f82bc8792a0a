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
returns text language sql stable parallel safe set search_path = '' as $$
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
language sql stable
-- it reads whether a listing that is no longer public was ever here (nothing else of it)
security definer set search_path = ''
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
