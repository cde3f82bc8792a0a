-- The advisor (issue 58; docs/deployment.md "The advisor"): Supabase's database linter finds
-- nothing at WARN or ERROR. Every function pins its search path; the public views run with the
-- reader's rights; an active listing is a column (is_public) the partial indexes are of; what a
-- search matches is one text of conditions (internal.listing_conditions) that the statements write
-- in, since a function that pins its search path is not inlined.

-- an active listing of the Ecuador site, one column
alter table internal.listings add column is_public boolean generated always as (country_code = 'EC' and status = '1') stored;
comment on column internal.listings.is_public is 'An active listing of the Ecuador site (country EC, status 1): what the public reads.';

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
    -- for sale unless the search says rent (docs/product.md "Rent and buy")
    and l.operation = coalesce(f->>'operation', 'sale')
    -- the facts of docs/product.md "The facts of a listing": a listing that does not say its
    -- alícuota is kept by a maximum (as a house outside a condominium pays none)
    and (f->>'hoa_max' is null or coalesce(l.hoa_fee, 0) <= (f->>'hoa_max')::numeric)
    and (f->>'parking_min' is null or l.parking_spaces >= (f->>'parking_min')::integer)
    and (f->>'storage' is null or l.storage_unit)
    and (f->>'furnished' is null or l.furnished = 'yes')
    and (f->>'pets' is null or l.pets_allowed)
  $conditions$
$body$;

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

create or replace function internal.now()
returns timestamptz
language sql
stable
parallel safe
set search_path = ''
as $$
  select pg_catalog.now() + coalesce(nullif(pg_catalog.current_setting('exp.clock_offset', true), '')::interval, interval '0')
$$;

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

create or replace function internal.contains_pattern(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(value, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

create or replace function public.slugify(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.rtrim(pg_catalog.left(pg_catalog.btrim(pg_catalog.regexp_replace(public.search_fold(value), '[^a-z0-9]+', '-', 'g'), '-'), 80), '-')
$$;

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

create or replace function internal.market_minimum()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 8
$$;

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
  -- when each month of the period begins, from `since`
  starts timestamptz[];
  months integer;
  -- each month (its first day), and when it begins and ends (now, for this month) in microseconds
  month_dates date[];
  start_us bigint[];
  cutoff_us bigint[];
  written integer;
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

  -- the months of the period, numbered from 0
  drop table if exists pg_temp.market_months;
  create temp table market_months on commit drop as
  select (pg_catalog.row_number() over (order by m) - 1)::integer as i, m::date as month, m as start, least(m + interval '1 month', at_now) as cutoff
    from pg_catalog.generate_series(since::timestamptz, internal.this_month()::timestamptz, interval '1 month') m;
  select pg_catalog.array_agg(m.start order by m.i), count(*)::integer into starts, months from pg_temp.market_months m;

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

  -- a whole rebuild judges outliers anew: outside the 2nd-98th percentile of their city and type
  -- group over the whole period (percentile_cont() of the listing-months, worked out from how many
  -- months each price per m² was asked in)
  if from_month is null or not exists (select 1 from internal.market_bounds) then
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
  ),
  -- the listings of each place and type group by the names they write for its places, counted,
  -- with the sums of their positions
  written as materialized (
    select l.state_slug, l.state_name, l.city_slug, l.city_name, l.sector_slug, l.sector_name, l.type_group, count(*) as n,
           sum(l.lat) as lat, count(l.lat) as lats, sum(l.lng) as lng, count(l.lng) as lngs
      from pg_temp.market_listings l
     group by l.state_slug, l.state_name, l.city_slug, l.city_name, l.sector_slug, l.sector_name, l.type_group
  ),
  -- where each place's listings of the group are, on average (the national report's map)
  centres as (
    select case
             when grouping(w.sector_slug) = 0 then w.city_slug || '/' || w.sector_slug
             when grouping(w.city_slug) = 0 then w.city_slug
             when grouping(w.state_slug) = 0 then 'provincia/' || w.state_slug
             else 'ecuador'
           end as path,
           coalesce(w.type_group, 'all') as type_group,
           sum(w.lat) / nullif(sum(w.lats), 0) as lat,
           sum(w.lng) / nullif(sum(w.lngs), 0) as lng
      from written w
     group by grouping sets ((), (w.type_group), (w.state_slug), (w.type_group, w.state_slug), (w.city_slug), (w.type_group, w.city_slug),
                             (w.city_slug, w.sector_slug), (w.type_group, w.city_slug, w.sector_slug))
  ),
  -- each place's name as most of its listings write it (the first in order of those written as
  -- often, as mode() answers), and the place its figure is offered from (a city's province: the one
  -- most of its listings name), once per place, not per month
  named as (
    select distinct on (w.path) w.path, w.name, w.parent
      from (select 'provincia/' || w.state_slug as path, w.state_name as name, 'ecuador' as parent, sum(w.n) as n
              from written w group by w.state_slug, w.state_name
            union all
            select w.city_slug, w.city_name, null, sum(w.n) from written w group by w.city_slug, w.city_name
            union all
            select w.city_slug || '/' || w.sector_slug, w.sector_name, w.city_slug, sum(w.n)
              from written w where w.sector_slug is not null group by w.city_slug, w.sector_slug, w.sector_name) w
     order by w.path, w.name is null, w.n desc, w.name
  ),
  provinces as (
    select distinct on (w.city_slug) w.city_slug as path, 'provincia/' || w.state_slug as parent
      from (select w.city_slug, w.state_slug, sum(w.n) as n from written w group by w.city_slug, w.state_slug) w
     order by w.city_slug, w.n desc, w.state_slug
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
    left join centres c on c.path = f.path and c.type_group = f.type_group
    left join named n on n.path = f.path
    left join provinces v on v.path = f.path;
  get diagnostics written = row_count;

  -- beside the months a ranking reads (last month and this one): each figure's trend
  update internal.market_index i
     set median_year_before = (select y.median from internal.market_index y
                                where y.path = i.path and y.type_group = i.type_group and y.month = (i.month - interval '12 months')::date
                                  and y.listings >= internal.market_minimum()),
         trend = (select pg_catalog.array_agg(case when t.listings >= internal.market_minimum() then t.median end order by m.month)
                    from pg_catalog.generate_series(i.month - interval '12 months', i.month, interval '1 month') m(month)
                    left join internal.market_index t on t.path = i.path and t.type_group = i.type_group and t.month = m.month::date)
   where i.month >= greatest(since, (internal.this_month() - interval '1 month')::date);

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
     and l.is_public and l.operation = 'sale'
     and internal.market_type_group(l.property_type) is not null
     and coalesce(l.city_slug, '') <> ''
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
  p constant integer := 10;
  h double precision;
  -- when the estimate is for: the home's own listing date when it is a listing, else now
  at_time timestamptz;
  -- the weights of nearness and likeness, before the fit's own reweighting of the misfits
  w0 double precision[] := '{}';
  typical double precision;
  wx double precision;
  x double precision[];
  ata double precision[];
  atb double precision[];
  prior constant double precision[] := array[0, -0.15, 0.03, 0.02, 0.04, 0.05, 0.03, 0, 0, 0];
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
  demand jsonb;
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
  at_time := coalesce((select l.listed_at from internal.listings l where l.id = own), internal.now());

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
      case when not has_feats then 0 else coalesce(pg_catalog.cardinality(c.features), 0) - coalesce(pg_catalog.cardinality(feats), 0) end,
      -- when it was listed (the market moves), and where it stands from the home (a local slope)
      c.years,
      c.east_km,
      c.north_km
    ]::double precision[];
  end loop;

  if n < 5 then
    return pg_catalog.jsonb_build_object('value', null, 'low', null, 'high', null, 'usd_m2', null, 'confidence', 'none',
      'reason', 'too_few_comparables', 'comparables', '[]'::jsonb, 'place', null, 'market', null, 'agent', null, 'demand', null, 'demand_fewer_than', null, 'method', 'local-regression-2');
  end if;

  -- weights: nearer (a tricube over the distance of the 25th, at least 1 km), closer in size, and
  -- in the same sector (a sector's price level is its own: a street apart may be another market)
  h := greatest(d[least(n, 25)] * 1.2, 1000);
  for i in 1..n loop
    w0 := w0 || (case when d[i] >= h then 0.01 else power(1 - power(d[i] / h, 3), 3) end) * exp(-0.5 * power(xs[(i - 1) * p + 2] / 0.5, 2))
              * (case when same[i] then 3 else 1 end);
  end loop;
  -- a listing priced unlike its neighbours (a typo, a wreck, a sale between relatives) must not
  -- pull the estimate: each comparable weighed down by how far its USD/m² is from their weighted
  -- median (Tukey's bisquare over six median deviations), and again below by how far it misses the fit
  typical := internal.weighted_quantile(y, w0, 0.5);
  w := internal.bisquare_weights(w0, (select pg_catalog.array_agg(u.ln_usd - typical order by u.ord) from unnest(y) with ordinality u(ln_usd, ord)));

  -- weighted least squares of ln(USD/m²) on the differences, each coefficient drawn toward its
  -- prior as much as its spread among the comparables is small (a ridge scaled per column); then
  -- once again with the weights of how far each misses the first fit
  for pass in 1..2 loop
    sw := 0;
    for i in 1..n loop sw := sw + w[i]; end loop;
    mean := pg_catalog.array_fill(0::double precision, array[p]);
    var := pg_catalog.array_fill(0::double precision, array[p]);
    for j in 1..p loop
      for i in 1..n loop mean[j] := mean[j] + w[i] * xs[(i - 1) * p + j] / sw; end loop;
      for i in 1..n loop var[j] := var[j] + w[i] * power(xs[(i - 1) * p + j] - mean[j], 2) / sw; end loop;
    end loop;
    ata := pg_catalog.array_fill(0::double precision, array[p * p]);
    atb := pg_catalog.array_fill(0::double precision, array[p]);
    -- one triangle of the symmetric matrix, then its mirror; a comparable weighed down to 0 adds nothing
    for i in 1..n loop
      continue when w[i] = 0;
      for j in 1..p loop
        wx := w[i] * xs[(i - 1) * p + j];
        atb[j] := atb[j] + wx * y[i];
        for k in j..p loop
          ata[(j - 1) * p + k] := ata[(j - 1) * p + k] + wx * xs[(i - 1) * p + k];
        end loop;
      end loop;
    end loop;
    for j in 2..p loop
      for k in 1..j - 1 loop
        ata[(j - 1) * p + k] := ata[(k - 1) * p + j];
      end loop;
    end loop;
    for j in 2..p loop
      ata[(j - 1) * p + j] := ata[(j - 1) * p + j] + sw * (0.2 * var[j] + 1e-6);
      atb[j] := atb[j] + sw * (0.2 * var[j] + 1e-6) * prior[j];
    end loop;
    b := internal.solve_linear(ata, atb);
    if b is null then
      b := array[internal.weighted_quantile(y, w, 0.5)] || prior[2:p];
    end if;
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
  sw := 0; sw2 := 0;
  for i in 1..n loop sw := sw + w[i]; sw2 := sw2 + w[i] * w[i]; end loop;
  neff := sw * sw / sw2;
  -- the range: the comparables' misfit, widened for what the fit used up of them
  inflate := 1.35 * sqrt(neff / greatest(neff - 3, 1));
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
   where m.month = (internal.this_month() - interval '1 month')::date;

  -- the agent who serves it (a seller's lead goes to them)
  select pg_catalog.jsonb_build_object('id', a.id, 'name', nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), ''), 'picture', a.picture)
    into agent
    from public.agents a
   where a.id = internal.area_agent(near_path);

  -- buyers whose confirmed saved searches a home like this, at this value, would match
  subject := pg_catalog.jsonb_populate_record(null::internal.listings, pg_catalog.jsonb_build_object(
    'country_code', 'EC', 'status', '1', 'is_public', true, 'operation', 'sale', 'property_type', kind, 'price', round(value), 'bedrooms', beds, 'bathrooms', baths,
    'square_feet', built, 'lot_size', lot, 'year_built', built_year, 'features', coalesce(feats, '{}'),
    'lat', at_lat, 'lng', at_lng, 'location', point(at_lng, at_lat)::text,
    'city_slug', (select l.city_slug from internal.listings l where l.id = ids[1]),
    'sector_slug', (select l.sector_slug from internal.listings l where l.id = ids[1]),
    'state_slug', (select l.state_slug from internal.listings l where l.id = ids[1]),
    'place_search', (select l.place_search from internal.listings l where l.id = ids[1])
  ));
  demand := internal.buyer_demand(subject, ids, area);

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
    'demand', (demand ->> 'count')::integer,
    'demand_fewer_than', (demand ->> 'fewer_than')::integer,
    'method', 'local-regression-2'
  );
end
$$;

create or replace function internal.visit_rules()
returns table (length interval, lead_time interval, horizon interval, step interval)
language sql
immutable
set search_path = ''
as $$
  select interval '1 hour', interval '2 hours', interval '14 days', interval '30 minutes'
$$;

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
      internal.now(), internal.now() + interval '14 days') t
   where l.id = visit_times.listing_id and l.is_public
$$;

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
   where o.listing_id = listing_open_houses.listing_id and o.ends_at > internal.now()
     and l.is_public
   order by o.starts_at
   limit 20
$$;

-- the public views run with the reader's rights (99_privileges.sql grants what they read)
create or replace view public.listings with (security_invoker = true) as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
       sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search,
       listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed,
       operation
from internal.listings
where is_public;

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
select property_type from types where property_type is not null and btrim(property_type) <> '';

create or replace view public.listing_cities with (security_invoker = true) as
select city, count(*)::integer as listings
from internal.listings
where is_public and city is not null and btrim(city) <> ''
group by city;

-- the partial indexes are of the public rows, as the statements now say them
drop index internal.listings_recent;
create index listings_recent on internal.listings (created_at desc, id desc) where is_public;

drop index internal.listings_price_asc;
create index listings_price_asc on internal.listings (price asc nulls last, id asc) where is_public;

drop index internal.listings_price_desc;
create index listings_price_desc on internal.listings (price desc nulls last, id desc) where is_public;

drop index internal.listings_types;
create index listings_types on internal.listings (property_type) where is_public;

drop index internal.listings_position;
create index listings_position on internal.listings (lat, lng) where is_public and lat is not null and lng is not null;

drop index internal.listings_sitemap;
create index listings_sitemap on internal.listings (id) include (updated_at, title) where is_public;

drop index internal.listings_listed;
create index listings_listed on internal.listings (listed_at) where is_public;

drop index internal.listings_appeared;
create index listings_appeared on internal.listings (appeared_at) where is_public;

drop index internal.listings_search;
create index listings_search on internal.listings using gin (
  place_search extensions.gin_trgm_ops, property_type extensions.gin_trgm_ops
) where is_public;

drop index internal.listings_features;
create index listings_features on internal.listings using gin (features) where is_public;

drop index internal.listings_year_built;
create index listings_year_built on internal.listings (year_built) where is_public;

drop index internal.listings_lot_size;
create index listings_lot_size on internal.listings (lot_size) where is_public;

drop index internal.listings_map;
create index listings_map on internal.listings (map_x, map_y)
  include (map_lat, map_lng, map_approximate, price, bedrooms, bathrooms, square_feet, property_type, place_search, agent_id, lat, lng, id,
           state_slug, city_slug, sector_slug, features, year_built, lot_size, operation)
  where is_public;

drop index internal.listings_words;
create index listings_words on internal.listings using gin (words) where is_public;

drop index internal.listings_title_words;
create index listings_title_words on internal.listings using gin (title_words) where is_public;

drop index internal.listings_location;
create index listings_location on internal.listings using gist (location)
  include (map_x, map_y, map_lat, map_lng, map_approximate, price, id, property_type, square_feet, bedrooms, city_slug, sector_slug)
  where is_public;

drop index internal.listings_place;
create index listings_place on internal.listings (city_slug, sector_slug) include (property_type, id) where is_public;

drop index internal.listings_province;
create index listings_province on internal.listings (state_slug) include (property_type, id) where is_public;

drop index internal.listings_near_house;
create index listings_near_house on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'house';

drop index internal.listings_near_apartment;
create index listings_near_apartment on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'apartment';

drop index internal.listings_near_land;
create index listings_near_land on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'land';

drop index internal.listings_near_office;
create index listings_near_office on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'office';

drop index internal.listings_near_business_premises;
create index listings_near_business_premises on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'business_premises';

drop index internal.listings_near_commercial_building;
create index listings_near_commercial_building on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'commercial_building';

drop index internal.listings_near_suite;
create index listings_near_suite on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'suite';

drop index internal.listings_near_quinta;
create index listings_near_quinta on internal.listings using gist (location)
  include (price, id, square_feet, bedrooms, city_slug, sector_slug, operation)
  where is_public and property_type = 'quinta';

drop index internal.listings_rents;
create index listings_rents on internal.listings (city_slug, sector_slug) include (state_slug, price, square_feet, bedrooms, property_type)
  where is_public and operation = 'rent';

-- the public reads the table through the views only, which say which rows are public: no policy,
-- which would plan every search of the REST without the table's statistics (20_listings.sql)
drop policy "Active listings are public" on internal.listings;
alter table internal.listings disable row level security;

-- whether a listing id is active, gone or unknown: a function (the view read rows the public may not)
drop view public.listing_availability;
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

-- gone: made of the column and the conditions' text above, or written where they are used
drop function internal.is_public_listing(text, text);
drop function internal.market_median_days(bigint[]);
drop function internal.title_match(internal.listings, jsonb);

-- the public key names the schema for the views and reads the listings' public columns; no
-- function of the schema is the public's
grant usage on schema internal to anon, authenticated;
revoke all on internal.listings from anon, authenticated;
grant select (id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
  description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
  agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
  sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search,
  listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed,
  operation, is_public)
  on internal.listings to anon, authenticated;
revoke execute on all functions in schema internal from public, anon, authenticated;
grant execute on all functions in schema internal to service_role;
alter default privileges in schema internal revoke execute on functions from public, anon, authenticated;
revoke all on function public.listing_availability(bigint) from public, anon, authenticated;
grant execute on function public.listing_availability(bigint) to anon, authenticated, service_role;
