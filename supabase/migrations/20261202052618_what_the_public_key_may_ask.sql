-- What the public key may ask (issue 58, point 1; docs/deployment.md "What the public key may ask"):
-- on a hosted project the data API is Supabase's PostgREST, which runs none of our server's bounds,
-- so the database holds them. The public relations' columns get types that offer no operator that
-- can run long (03_public_types.sql); the public key's statements end at 500 ms; PostgREST's
-- pre-request hook shares the pool among clients (98_data_api_gate.sql).

-- the role PostgREST logs in as, on a bare PostgreSQL too; the public key's time limit
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator nologin noinherit;
  end if;
end
$$;
alter role anon set statement_timeout = '500ms';

-- the types of what the public reads
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

-- the listings' views, with those types; the functions that return the view's rows go with it
drop view public.listings cascade;
drop view public.listing_property_types;
drop view public.listing_cities;
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
       parking_spaces, storage_unit, furnished::public.plain_text as furnished, pets_allowed, operation::public.plain_text as operation
from internal.listings
where is_public;

comment on view public.listings is 'Active listings (status 1): what the public key may read.';


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

create or replace view public.listing_cities with (security_invoker = true) as
select city::public.plain_text as city, count(*)::integer as listings
from internal.listings
where is_public and city is not null and btrim(city) <> ''
group by city;

comment on view public.listing_cities is 'Cities with active listings in Ecuador and their number of listings (place pages).';


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


-- the agents' public columns, with those types (the folded copies are made again after them)
alter table public.agents drop column first_name_search, drop column last_name_search, drop column email_search;
alter table public.agents
  alter column first_name type public.plain_text, alter column last_name type public.plain_text,
  alter column email type public.plain_text, alter column phone type public.plain_text,
  alter column picture type public.plain_text, alter column country_code type public.plain_text,
  alter column location type public.plain_text, alter column about type public.plain_text,
  alter column facebook type public.plain_text, alter column instagram type public.plain_text,
  alter column linkedin type public.plain_text, alter column website type public.plain_text;
alter table public.agents
  add column first_name_search public.plain_text generated always as (public.search_fold(first_name)) stored,
  add column last_name_search public.plain_text generated always as (public.search_fold(last_name)) stored,
  add column email_search public.plain_text generated always as (public.search_fold(email)) stored;

-- the functions' rows the public key may filter too (PostgREST filters a function's rows as a view's):
-- their text is public.plain_text
drop function public.market_index(text, text, integer);
drop function public.listing_market(bigint);
drop function public.market_ranking(text, text, text);
drop function public.place_suggestions(text, integer);
drop function public.listing_price_history(bigint);
drop function public.listing_open_houses(bigint);

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

create or replace function public.place_suggestions(q text, max_results integer default 8)
returns table (
  kind public.plain_text,
  path public.plain_text,
  name public.plain_text,
  city public.plain_text,
  province public.plain_text,
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

revoke all on function public.market_index(text, text, integer), public.listing_market(bigint), public.market_ranking(text, text, text), public.place_suggestions(text, integer), public.listing_price_history(bigint), public.listing_open_houses(bigint) from public, anon, authenticated;
grant execute on function public.market_index(text, text, integer), public.listing_market(bigint), public.market_ranking(text, text, text), public.place_suggestions(text, integer), public.listing_price_history(bigint), public.listing_open_houses(bigint) to anon, authenticated, service_role;

-- each client's share of the data API
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

-- who may do what (99_privileges.sql)
revoke all on public.listings, public.listing_property_types, public.listing_cities from public, anon, authenticated;
grant select on public.listings, public.listing_property_types to anon, authenticated, service_role;
grant select on public.listing_cities to anon, authenticated;
grant all on public.listing_cities to service_role;
grant select (first_name_search, last_name_search, email_search) on public.agents to anon, authenticated;
revoke all on function public.search_listings(jsonb, text, integer, integer), public.similar_listings(bigint, integer) from public, anon, authenticated;
grant execute on function public.search_listings(jsonb, text, integer, integer), public.similar_listings(bigint, integer) to anon, authenticated, service_role;
revoke execute on all functions in schema internal from public, anon, authenticated;
grant execute on all functions in schema internal to service_role;
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
