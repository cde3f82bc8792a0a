-- The market index made (docs/market.md "Freshness"), its first stages: the listings that count,
-- their times on the market and prices, the outliers out, and every figure of every place and month.
-- internal.rebuild_market_index (27_market_rebuild.sql) runs them in order.

-- A stage of internal.rebuild_market_index, run in its settings (Ecuador's clock, work_mem):
-- the listings that can count (pg_temp.market_found).
create or replace function internal.market_found()
returns void language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns integer language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
