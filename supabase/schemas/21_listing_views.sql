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
