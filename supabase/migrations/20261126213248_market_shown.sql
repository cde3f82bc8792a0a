-- The market reports read what they show from rows written with the index (docs/market.md):
-- each place's figures, the nearest place's where its own stand on too few (internal.market_shown),
-- and each figure's trend beside it for the rankings. A database without rentals made the index
-- again without failing.
alter table internal.market_index add column median_year_before numeric, add column trend numeric[];

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

  -- beside the months a ranking reads (last month and this one): each figure's trend
  update internal.market_index i
     set median_year_before = (select y.median from internal.market_index y
                                where y.path = i.path and y.type_group = i.type_group and y.month = (i.month - interval '12 months')::date
                                  and y.listings >= internal.market_minimum()),
         trend = (select pg_catalog.array_agg(case when t.listings >= internal.market_minimum() then t.median end order by m.month)
                    from pg_catalog.generate_series(i.month - interval '12 months', i.month, interval '1 month') m(month)
                    left join internal.market_index t on t.path = i.path and t.type_group = i.type_group and t.month = m.month::date)
   where i.month >= greatest(since, (date_trunc('month', now()) - interval '1 month')::date);

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
       where internal.is_public_listing(l.country_code, l.status) and l.operation = 'rent'
         and l.property_type in ('house', 'quinta', 'apartment', 'suite') and l.square_feet >= 15 and l.price > 0
       group by grouping sets ((), (l.state_slug), (l.city_slug), (l.city_slug, l.sector_slug))
    ) r
   -- a place has a name in each part of its path (a listing without a sector is its city's only);
   -- no rentals at all: no row (the grand total of nothing is a row of nulls)
   where r.listings > 0 and r.path ~ '^(ecuador|provincia/[^/]+|[^/]+|[^/]+/[^/]+)$';
  return written;
end
$$;

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
  -- written with the index (internal.market_shown): each month, the nearest place's figure that
  -- stands on enough listings
  return query
  select s.month, s.path, s.name, s.listings, s.median, s.p25, s.p75, s.new_listings, s.price_cuts, s.median_days
    from internal.market_shown s
   where s.place = market_index.place and s.type_group = market_index.type_group
     and s.month >= (date_trunc('month', now()) - make_interval(months => months - 1))::date
   order by s.month;
end
$$;

create or replace function public.market_ranking(place text, type_group text default 'all', kind text default null)
returns table (path text, name text, listings integer, median numeric, median_year_before numeric, trend numeric[], lat double precision, lng double precision)
language sql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select i.path, i.name, i.listings, i.median, i.median_year_before, i.trend, i.lat, i.lng
    from internal.market_index i
   where i.type_group = market_ranking.type_group
     and i.month = (date_trunc('month', now()) - interval '1 month')::date
     and i.listings >= internal.market_minimum()
     and (case when market_ranking.kind = 'city' and market_ranking.place = 'ecuador' then i.kind = 'city' else i.parent = market_ranking.place end)
   order by i.median desc, i.path
   limit 200
$$;

-- the rows the reports read now, from the listings as they are
select internal.rebuild_market_index();
