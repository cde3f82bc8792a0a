-- The index's rebuild shares its figures out to parallel workers (docs/market.md "Freshness"): its
-- rows of a listing and month go into an unlogged table they can read, and the figures of the four
-- levels are four branches of one statement.

-- The rebuild's rows, one per listing and month, while it runs (emptied when it ends): a table of
-- its own, not a temporary one, so that parallel workers can read it (docs/market.md "Freshness");
-- unlogged, as nothing in it outlives the rebuild. Two rebuilds at once take turns on it.
create unlogged table internal.market_work (
  month date not null,
  group_key smallint not null,
  state_key integer not null,
  city_key integer not null,
  sector_key integer,
  usd_m2 double precision,
  is_new boolean not null,
  cut boolean not null,
  days double precision not null
);

alter table internal.market_work enable row level security;

revoke all on internal.market_work from anon, authenticated;
revoke all on internal.market_work from public;
grant all on internal.market_work to service_role;

-- Every figure of the index made again from the listings, their spells and their price changes:
-- the last 24 months and the month so far (docs/market.md), or only the months from `from_month`
-- (the hourly refresh: last month and this one), whose outliers are judged by the bounds of the
-- last whole rebuild (internal.market_bounds). Answers how many rows it wrote. Its cost is the
-- sorts of a row per listing and month (docs/benchmarks.md): those rows carry integer keys of the
-- places, not their names, and are made without a sort of their own.
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
  truncate internal.market_work;
  insert into internal.market_work (month, group_key, state_key, city_key, sector_key, usd_m2, is_new, cut, days)
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
      from internal.market_work p
     where p.usd_m2 > 0
     group by p.city_key, p.group_key;
  end if;
  -- the outliers out (and the rows of a city and group that has no bounds)
  delete from internal.market_work w
   where not exists (select 1 from internal.market_bounds b
                       join (select distinct m.city_key, m.city_slug from pg_temp.market_places m) c on c.city_slug = b.city_slug
                       join pg_temp.market_groups g on g.type_group = b.type_group
                      where c.city_key = w.city_key and g.group_key = w.group_key and w.usd_m2 between b.lo and b.hi);
  analyze internal.market_work;

  -- every figure: each month for all types (a null group) and each group, in the country, each
  -- province, each city and each sector (`level` says which keys it is by: grouping() over the
  -- four keys); one branch a level, which parallel workers share out
  drop table if exists pg_temp.market_figures;
  create temp table market_figures on commit drop as
  select k.month, k.group_key, null::integer as state_key, null::integer as city_key, null::integer as sector_key, 7 + 8 * grouping(k.group_key) as level,
         count(*)::integer as listings, pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2) as q, count(*) filter (where k.is_new)::integer as new_listings,
         count(*) filter (where k.cut)::integer as price_cuts, pg_catalog.percentile_cont(0.5) within group (order by k.days) as median_days
    from internal.market_work k group by grouping sets ((k.month), (k.month, k.group_key))
  union all
  select k.month, k.group_key, k.state_key, null, null, 3 + 8 * grouping(k.group_key), count(*)::integer, pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2),
         count(*) filter (where k.is_new)::integer, count(*) filter (where k.cut)::integer, pg_catalog.percentile_cont(0.5) within group (order by k.days)
    from internal.market_work k group by grouping sets ((k.month, k.state_key), (k.month, k.state_key, k.group_key))
  union all
  select k.month, k.group_key, null, k.city_key, null, 5 + 8 * grouping(k.group_key), count(*)::integer, pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2),
         count(*) filter (where k.is_new)::integer, count(*) filter (where k.cut)::integer, pg_catalog.percentile_cont(0.5) within group (order by k.days)
    from internal.market_work k group by grouping sets ((k.month, k.city_key), (k.month, k.city_key, k.group_key))
  union all
  -- a sector's figure is of listings that name one
  select k.month, k.group_key, null, k.city_key, k.sector_key, 4 + 8 * grouping(k.group_key), count(*)::integer,
         pg_catalog.percentile_cont(array[0.25, 0.5, 0.75]) within group (order by k.usd_m2), count(*) filter (where k.is_new)::integer, count(*) filter (where k.cut)::integer,
         pg_catalog.percentile_cont(0.5) within group (order by k.days)
    from internal.market_work k where k.sector_key is not null group by grouping sets ((k.month, k.city_key, k.sector_key), (k.month, k.city_key, k.sector_key, k.group_key));
  truncate internal.market_work;

  delete from internal.market_index i where i.month >= since;
  with
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
      from pg_temp.market_figures f
      left join centres c on c.level = f.level and coalesce(c.group_key, 0) = coalesce(f.group_key, 0) and coalesce(c.state_key, 0) = coalesce(f.state_key, 0)
                         and coalesce(c.city_key, 0) = coalesce(f.city_key, 0) and coalesce(c.sector_key, 0) = coalesce(f.sector_key, 0)
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
