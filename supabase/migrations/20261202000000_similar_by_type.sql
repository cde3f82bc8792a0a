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
  include (price, id, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1' and property_type = 'house';
create index listings_near_apartment on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1' and property_type = 'apartment';
create index listings_near_land on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1' and property_type = 'land';
create index listings_near_office on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1' and property_type = 'office';
create index listings_near_business_premises on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1' and property_type = 'business_premises';
create index listings_near_commercial_building on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug)
  where country_code = 'EC' and status = '1' and property_type = 'commercial_building';
