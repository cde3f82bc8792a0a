-- Rent and buy (issue 46, docs/product.md "Rent and buy"): an operation per listing (sale, the
-- default, or rent: a monthly price), the search's filters for it and for the facts (maximum
-- alícuota, parking spaces, storage, furnished, pets), suites and quintas as types of their own;
-- the map's kept cells, a count of words alone, the places' counts, the market index and the
-- valuation count sales (a rent's similar listings are rents). Made from supabase/schemas/
-- 20_listings.sql, 21_listing_views.sql, 22_listing_words.sql, 24_price_history.sql, 25_market.sql,
-- 30_search.sql, 31_places.sql, 32_map.sql, 34_valuation.sql and 50_imports.sql.

alter table internal.listings
  add column operation text not null default 'sale' check (operation in ('sale', 'rent'));

comment on table internal.listings is 'Listings for sale and for rent, all of them. The public reads active ones through public.listings.';
comment on column internal.listings.operation is 'sale or rent; a rent''s price is USD a month.';

create or replace view public.listings as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
       sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search,
       listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed,
       operation
from internal.listings
where internal.is_public_listing(country_code, status);

alter table internal.listing_words add column operation text not null default 'sale';

drop index internal.listings_map;

create index listings_map on internal.listings (map_x, map_y)
  include (map_lat, map_lng, map_approximate, price, bedrooms, bathrooms, square_feet, property_type, place_search, agent_id, lat, lng, id,
           state_slug, city_slug, sector_slug, features, year_built, lot_size, operation)
  where country_code = 'EC' and status = '1';

drop index internal.listings_near_house, internal.listings_near_apartment, internal.listings_near_land, internal.listings_near_office,
  internal.listings_near_business_premises, internal.listings_near_commercial_building;

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

create index listings_rents on internal.listings (city_slug, sector_slug) include (state_slug, price, square_feet, bedrooms, property_type)
  where country_code = 'EC' and status = '1' and operation = 'rent';

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
           k.months as cut_months
      from internal.listings l
      -- the months in which its price was cut
      left join (select c.listing_id, pg_catalog.array_agg(distinct date_trunc('month', c.changed_at)::date) as months
                   from internal.listing_price_changes c where c.new_price < c.old_price group by c.listing_id) k on k.listing_id = l.id
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

  -- each listing on the market in each month of the period, once, at its price per m² then
  drop table if exists pg_temp.market_priced;
  create temp table market_priced on commit drop as
  with months as materialized (
    select m::date as month, m as start, least(m + interval '1 month', now()) as cutoff
      from pg_catalog.generate_series(since, date_trunc('month', now()), interval '1 month') m
  ),
  -- a listing's asking price over time: each price from when it was set until the next change
  prices as (
    select c.listing_id,
           coalesce(pg_catalog.lag(c.changed_at) over w, '-infinity'::timestamptz) as valid_from,
           c.changed_at as valid_to,
           c.old_price as price
      from internal.listing_price_changes c
    window w as (partition by c.listing_id order by c.changed_at, c.id)
    union all
    (select distinct on (c.listing_id) c.listing_id, c.changed_at, 'infinity'::timestamptz, c.new_price
       from internal.listing_price_changes c
      order by c.listing_id, c.changed_at desc, c.id desc)
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
           coalesce(p.price, l.price)::double precision / l.area as usd_m2,
           o.is_new,
           coalesce(o.month = any (l.cut_months), false) as cut,
           pg_catalog.date_part('epoch', o.until - o.on_at) / 86400 as days
      from on_market o
      join pg_temp.market_listings l on l.id = o.id
      left join prices p on p.listing_id = o.id and p.valid_from <= o.until and p.valid_to > o.until;

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
  return written;
end
$$;

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

create or replace function internal.market_rents(place text)
returns table (path text, name text, listings integer, median numeric, p25 numeric, p75 numeric, two_bedroom numeric, two_bedroom_listings integer)
-- plpgsql: its body is checked when it runs (internal.places is made after this file)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  with recursive chain(path, depth) as (
    select market_rents.place, 0
    union all
    select case
             when c.path ~ '^provincia/' then 'ecuador'
             when c.path ~ '/' then pg_catalog.split_part(c.path, '/', 1)
             else (select 'provincia/' || pl.state_slug from internal.places pl where pl.path = c.path)
           end,
           c.depth + 1
      from chain c
     where c.path is not null and c.path <> 'ecuador' and c.depth < 4
  ),
  figures as (
    select c.path, c.depth, count(*)::integer as listings,
           pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by (l.price / l.square_feet)::double precision) as q,
           pg_catalog.percentile_cont(0.5) within group (order by l.price::double precision) filter (where l.bedrooms = 2 and l.property_type in ('apartment', 'suite')) as two,
           (count(*) filter (where l.bedrooms = 2 and l.property_type in ('apartment', 'suite')))::integer as two_n
      from chain c
      join internal.listings l
        on internal.is_public_listing(l.country_code, l.status) and l.operation = 'rent'
       and l.property_type in ('house', 'quinta', 'apartment', 'suite') and l.square_feet >= 15 and l.price > 0
       and case
             when c.path = 'ecuador' then true
             when c.path ~ '^provincia/' then l.state_slug = pg_catalog.substr(c.path, 11)
             when c.path ~ '/' then l.city_slug = pg_catalog.split_part(c.path, '/', 1) and l.sector_slug = pg_catalog.split_part(c.path, '/', 2)
             else l.city_slug = c.path
           end
     where c.path is not null
     group by c.path, c.depth
  )
  select f.path, coalesce((select pl.name from internal.places pl where pl.path = f.path), 'Ecuador'), f.listings, round(f.q[2]::numeric, 2), round(f.q[1]::numeric, 2), round(f.q[3]::numeric, 2),
         case when f.two_n >= internal.market_minimum() then round(f.two::numeric) end, f.two_n
    from figures f
   where f.listings >= internal.market_minimum()
   order by f.depth
   limit 1;
end
$$;

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
