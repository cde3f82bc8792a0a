-- The market rebuild as a chain of stages (issue 61; docs/market.md): internal.rebuild_market_index
-- runs them in order, each a function of its own that makes what the next reads; every figure as
-- before (`npm run bench -- stages` compares them row by row at 100,000 listings).

-- A stage of internal.rebuild_market_index, run in its settings (Ecuador's clock, work_mem):
-- the listings that can count (pg_temp.market_found).
create or replace function internal.market_found()
returns void
language plpgsql
volatile
set search_path = ''
as $$
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
end
$$;

-- A stage of internal.rebuild_market_index: the places and type groups as integer keys, and the
-- listings with them (pg_temp.market_places, market_groups, market_listings).
create or replace function internal.market_keys()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
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
end
$$;

-- A stage of internal.rebuild_market_index: each price a repriced listing asked, and when
-- (pg_temp.market_prices).
create or replace function internal.market_prices()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
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
end
$$;

-- A stage of internal.rebuild_market_index: the months of the period from `since`
-- (pg_temp.market_months). How many.
create or replace function internal.market_months(since date, at_now timestamptz)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- the months of the period, numbered from 0
  drop table if exists pg_temp.market_months;
  create temp table market_months on commit drop as
  select (pg_catalog.row_number() over (order by m) - 1)::integer as i, m::date as month, m as start, least(m + interval '1 month', at_now) as cutoff
    from pg_catalog.generate_series(since::timestamptz, internal.this_month()::timestamptz, interval '1 month') m;
  return (select count(*)::integer from pg_temp.market_months);
end
$$;

-- A stage of internal.rebuild_market_index: each time on the market of a listing that counts,
-- with the months it counts in (pg_temp.market_spells).
create or replace function internal.market_spells(months integer, at_now timestamptz)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  starts timestamptz[];
begin
  -- when each month of the period begins
  select pg_catalog.array_agg(m.start order by m.i) into starts from pg_temp.market_months m;
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
end
$$;

-- A stage of internal.rebuild_market_index: the runs of months each listing asked one price per
-- m² (internal.market_runs).
create or replace function internal.market_runs_made()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
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
end
$$;

-- A stage of internal.rebuild_market_index: the outliers out of the runs, by the bounds of
-- the last whole rebuild, made anew on a `whole` one (internal.market_bounds).
create or replace function internal.market_outliers_out(whole boolean)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- a whole rebuild judges outliers anew: outside the 2nd-98th percentile of their city and type
  -- group over the whole period (percentile_cont() of the listing-months, worked out from how many
  -- months each price per m² was asked in)
  if whole or not exists (select 1 from internal.market_bounds) then
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
end
$$;

-- A stage of internal.rebuild_market_index: every figure, each month, of every place and type
-- group (pg_temp.market_figures); the runs they were made of emptied.
create or replace function internal.market_figures_made(months integer)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  -- each month (its first day), and when it begins and ends (now, for this month) in microseconds
  month_dates date[];
  start_us bigint[];
  cutoff_us bigint[];
begin
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
end
$$;

-- A stage of internal.rebuild_market_index: what each place's listings say of it, once per
-- place (not per month): its listings by the names they write, where they are on average, its name
-- and the place above it (pg_temp.market_written, market_centres, market_named, market_provinces).
create or replace function internal.market_places_told()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- the listings of each place and type group by the names they write for its places, counted,
  -- with the sums of their positions
  drop table if exists pg_temp.market_written;
  create temp table market_written on commit drop as
  select l.state_slug, l.state_name, l.city_slug, l.city_name, l.sector_slug, l.sector_name, l.type_group, count(*) as n,
         sum(l.lat) as lat, count(l.lat) as lats, sum(l.lng) as lng, count(l.lng) as lngs
    from pg_temp.market_listings l
   group by l.state_slug, l.state_name, l.city_slug, l.city_name, l.sector_slug, l.sector_name, l.type_group;
  -- where each place's listings of the group are, on average (the national report's map)
  drop table if exists pg_temp.market_centres;
  create temp table market_centres on commit drop as
  select case
           when grouping(w.sector_slug) = 0 then w.city_slug || '/' || w.sector_slug
           when grouping(w.city_slug) = 0 then w.city_slug
           when grouping(w.state_slug) = 0 then 'provincia/' || w.state_slug
           else 'ecuador'
         end as path,
         coalesce(w.type_group, 'all') as type_group,
         sum(w.lat) / nullif(sum(w.lats), 0) as lat,
         sum(w.lng) / nullif(sum(w.lngs), 0) as lng
    from pg_temp.market_written w
   group by grouping sets ((), (w.type_group), (w.state_slug), (w.type_group, w.state_slug), (w.city_slug), (w.type_group, w.city_slug),
                           (w.city_slug, w.sector_slug), (w.type_group, w.city_slug, w.sector_slug));
  -- each place's name as most of its listings write it (the first in order of those written as
  -- often, as mode() answers), and the place its figure is offered from (a city's province: the one
  -- most of its listings name), once per place, not per month
  drop table if exists pg_temp.market_named;
  create temp table market_named on commit drop as
  select distinct on (w.path) w.path, w.name, w.parent
    from (select 'provincia/' || w.state_slug as path, w.state_name as name, 'ecuador' as parent, sum(w.n) as n
            from pg_temp.market_written w group by w.state_slug, w.state_name
          union all
          select w.city_slug, w.city_name, null, sum(w.n) from pg_temp.market_written w group by w.city_slug, w.city_name
          union all
          select w.city_slug || '/' || w.sector_slug, w.sector_name, w.city_slug, sum(w.n)
            from pg_temp.market_written w where w.sector_slug is not null group by w.city_slug, w.sector_slug, w.sector_name) w
   order by w.path, w.name is null, w.n desc, w.name;
  drop table if exists pg_temp.market_provinces;
  create temp table market_provinces on commit drop as
  select distinct on (w.city_slug) w.city_slug as path, 'provincia/' || w.state_slug as parent
    from (select w.city_slug, w.state_slug, sum(w.n) as n from pg_temp.market_written w group by w.city_slug, w.state_slug) w
   order by w.city_slug, w.n desc, w.state_slug;
end
$$;

-- A stage of internal.rebuild_market_index: the index's rows from `since`, each figure with its
-- place's path, kind, name, parent and centre (internal.market_index). How many.
create or replace function internal.market_index_made(since date)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  written integer;
begin
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
    left join pg_temp.market_centres c on c.path = f.path and c.type_group = f.type_group
    left join pg_temp.market_named n on n.path = f.path
    left join pg_temp.market_provinces v on v.path = f.path;
  get diagnostics written = row_count;
  return written;
end
$$;

-- A stage of internal.rebuild_market_index: each figure's trend, beside the months a ranking
-- reads.
create or replace function internal.market_trends(since date)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- beside the months a ranking reads (last month and this one): each figure's trend
  update internal.market_index i
     set median_year_before = (select y.median from internal.market_index y
                                where y.path = i.path and y.type_group = i.type_group and y.month = (i.month - interval '12 months')::date
                                  and y.listings >= internal.market_minimum()),
         trend = (select pg_catalog.array_agg(case when t.listings >= internal.market_minimum() then t.median end order by m.month)
                    from pg_catalog.generate_series(i.month - interval '12 months', i.month, interval '1 month') m(month)
                    left join internal.market_index t on t.path = i.path and t.type_group = i.type_group and t.month = m.month::date)
   where i.month >= greatest(since, (internal.this_month() - interval '1 month')::date);
end
$$;

-- A stage of internal.rebuild_market_index: what each place's report shows from `since`
-- (internal.market_shown).
create or replace function internal.market_shown_made(since date)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
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
end
$$;

-- A stage of internal.rebuild_market_index: the rents now, every place at once
-- (internal.market_rents_now).
create or replace function internal.market_rents_made()
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
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
end
$$;

-- Every figure of the index made again from the listings, their spells and their price changes:
-- the last 24 months and the month so far (docs/market.md), or only the months from `from_month`
-- (the hourly refresh: last month and this one), whose outliers are judged by the bounds of the
-- last whole rebuild (internal.market_bounds). Answers how many rows it wrote. Its cost is its
-- row per listing and month and the sorts of them (docs/market.md "Freshness"): the rows are made
-- where they are counted, from each time on the market at one price (its run of months), carry
-- integer keys of the places and come in the order the largest grouping sorts them in; the
-- outlier bounds and outliers are worked out on the runs. Its stages, each a function of its own
-- above, in the order it runs them; each makes what the next reads (temporary tables, dropped at
-- the transaction's end).
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
  months integer;
  written integer;
begin
  perform internal.market_found();
  perform internal.market_keys();
  perform internal.market_prices();
  months := internal.market_months(since, at_now);
  perform internal.market_spells(months, at_now);
  perform internal.market_runs_made();
  perform internal.market_outliers_out(from_month is null);
  perform internal.market_figures_made(months);
  perform internal.market_places_told();
  written := internal.market_index_made(since);
  perform internal.market_trends(since);
  perform internal.market_shown_made(since);
  perform internal.market_rents_made();
  return written;
end
$$;


revoke execute on function internal.market_found(), internal.market_keys(), internal.market_prices(), internal.market_months(date, timestamptz), internal.market_spells(integer, timestamptz), internal.market_runs_made(), internal.market_outliers_out(boolean), internal.market_figures_made(integer), internal.market_places_told(), internal.market_index_made(date), internal.market_trends(date), internal.market_shown_made(date), internal.market_rents_made() from public, anon, authenticated;
grant execute on function internal.market_found(), internal.market_keys(), internal.market_prices(), internal.market_months(date, timestamptz), internal.market_spells(integer, timestamptz), internal.market_runs_made(), internal.market_outliers_out(boolean), internal.market_figures_made(integer), internal.market_places_told(), internal.market_index_made(date), internal.market_trends(date), internal.market_shown_made(date), internal.market_rents_made() to service_role;
