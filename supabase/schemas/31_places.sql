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
returns void language sql security definer set search_path = '' as $$
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
language sql stable security definer set search_path = ''
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
