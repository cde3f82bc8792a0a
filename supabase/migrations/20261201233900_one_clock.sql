-- One clock for every rule that reads the time (docs/decisions.md #33): internal.now(), which the
-- tests move for the sessions our code opens (core/clock.ts), read wherever a rule read now(): the
-- columns' defaults, the triggers, the market index, the search's open houses, the estimate, the
-- visits and the open houses. And the brokerage's calendar is Ecuador's: the market's months begin
-- at midnight in Guayaquil, not in UTC (internal.this_month(); the rebuild runs in Ecuador's zone).

-- The clock every rule that reads the time reads (docs/decisions.md #33): now(), moved by the
-- offset a session carries in `exp.clock_offset` (an interval). Only the tests set it, for the
-- sessions our code opens (core/clock.ts); a hosted project never does, and there this is now().
-- Inlined by the planner where rows are many (the search's open-house filter): so no SET, and
-- every name in it qualified (docs/deployment.md "The database").
create or replace function internal.now()
returns timestamptz
language sql
stable
parallel safe
as $$
  select pg_catalog.now() + coalesce(nullif(pg_catalog.current_setting('exp.clock_offset', true), '')::interval, interval '0')
$$;

-- The month it is in Ecuador now (its first day): the brokerage's calendar is Ecuador's
-- (America/Guayaquil, UTC-5 all year), whatever the session's time zone.
create or replace function internal.this_month()
returns date
language sql
stable
parallel safe
set search_path = ''
as $$
  select pg_catalog.date_trunc('month', internal.now() at time zone 'America/Guayaquil')::date
$$;

create or replace function internal.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a new row was last changed when it was created (unless it says otherwise); a changed one now
  if tg_op = 'INSERT' then
    new.updated_at := coalesce(new.updated_at, new.created_at, internal.now());
    new.listed_at := coalesce(new.listed_at, internal.now());
  else
    new.updated_at := internal.now();
    -- back on the market: new again for the alerts
    if new.status = '1' and old.status is distinct from '1' then
      new.listed_at := internal.now();
    end if;
  end if;
  return new;
end
$$;

create or replace function internal.note_price_cut()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.price is distinct from old.price then
    if new.price < old.price then
      new.price_cut_at := internal.now();
      new.price_before_cut := old.price;
    else
      new.price_cut_at := null;
      new.price_before_cut := null;
    end if;
  end if;
  return new;
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
    select n.id, n.listed_at from new_rows n where internal.is_public_listing(n.country_code, n.status)
    on conflict do nothing;
    return null;
  end if;
  -- off the market: the open spell ends now
  update internal.listing_spells s
     set off_at = greatest(internal.now(), s.on_at)
    from old_rows o join new_rows n using (id)
   where s.listing_id = n.id and s.off_at is null
     and internal.is_public_listing(o.country_code, o.status) and not internal.is_public_listing(n.country_code, n.status);
  -- back on it: a new spell from when it was listed again
  insert into internal.listing_spells (listing_id, on_at)
  select n.id, n.listed_at
    from old_rows o join new_rows n using (id)
   where not internal.is_public_listing(o.country_code, o.status) and internal.is_public_listing(n.country_code, n.status)
  on conflict do nothing;
  return null;
end
$$;

-- Every figure of the index made again from the listings, their spells and their price changes:
-- the last 24 months and the month so far (docs/market.md), or only the months from `from_month`
-- (the hourly refresh: last month and this one), whose outliers are judged by the bounds of the
-- last whole rebuild (internal.market_bounds). Answers how many rows it wrote. Its cost is its
-- row per listing and month and the sorts of them (docs/market.md "Freshness"): the rows are made
-- where they are counted, from each time on the market at one price (its run of months), carry
-- integer keys of the places and come in the order the largest grouping sorts them in; the
-- outlier bounds and outliers are worked out on the runs.
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
         internal.market_type_group(l.property_type) as type_group,
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
   where l.country_code = 'EC' and l.operation = 'sale' and coalesce(l.state_slug, '') <> '' and coalesce(l.city_slug, '') <> ''
     and internal.market_type_group(l.property_type) is not null
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
         f.new_listings, f.price_cuts, round(internal.market_median_days(f.middle_for))::integer, c.lat, c.lng
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

-- The index made again when it is older than `max_age` (the servers call it every few minutes; a
-- hosted project's pg_cron every hour: docs/deployment.md): once across servers (an advisory lock;
-- whoever comes second finds it fresh or busy). Answers the rows written, or null when nothing was due.
create or replace function internal.refresh_market_index(max_age interval default interval '1 hour')
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  built timestamptz;
  whole timestamptz;
  written integer;
begin
  if not pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('internal.market_index')) then
    return null;
  end if;
  select s.last_finished_at, s.last_full_at into built, whole from internal.job_schedule s where s.job = 'market-index';
  if built is not null and built > internal.now() - max_age then
    return null;
  end if;
  -- whole once a day (or when asked with no age at all), else last month and this one
  if whole is null or whole < internal.now() - interval '1 day' or max_age <= interval '0' then
    written := internal.rebuild_market_index();
    whole := internal.now();
  else
    written := internal.rebuild_market_index((internal.this_month() - interval '1 month')::date);
  end if;
  insert into internal.job_schedule (job, due_at, last_started_at, last_finished_at, last_full_at)
  -- finished: the clock's time now, at the end of the rebuild (not the transaction's start)
  values ('market-index', internal.now() + max_age, internal.now(), internal.now() + (pg_catalog.clock_timestamp() - pg_catalog.now()), whole)
  on conflict (job) do update
    set due_at = excluded.due_at, last_started_at = excluded.last_started_at,
        last_finished_at = excluded.last_finished_at, last_full_at = excluded.last_full_at;
  return written;
end
$$;

-- A place's index (docs/market.md), month by month, oldest first: the figure of the place itself
-- where it stands on enough listings, else its parent's (then `path` names the parent), else none.
-- `place`: 'ecuador', 'provincia/pichincha', 'quito', 'quito/cumbaya'; `type_group`: all, house,
-- apartment, land, commercial; `months`: how many, the month so far included (1 to 25).
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
     and s.month >= (internal.this_month() - make_interval(months => months - 1))::date
   order by s.month;
end
$$;

-- The places in a place (a province's cities, a city's sectors; Ecuador's provinces or, with
-- `kind` 'city', its cities) with their figure of last month, of twelve months before that, and
-- the thirteen months between (oldest first; null where a month stands on too few listings), for
-- rankings and their small trend lines; only places whose last month stands on enough listings.
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
     and i.month = (internal.this_month() - interval '1 month')::date
     and i.listings >= internal.market_minimum()
     and (case when market_ranking.kind = 'city' and market_ranking.place = 'ecuador' then i.kind = 'city' else i.parent = market_ranking.place end)
   order by i.median desc, i.path
   limit 200
$$;

-- inlined by the planner (one SELECT of expressions, no sub-select, no SET): only the filters given
-- become conditions, each on its index
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
$$;

-- The estimate (docs/valuation.md has the method and its measured accuracy). `facts`: `lat` and
-- `lng` (or `place`, a path of the location box), `property_type`, `area_m2` (the lot for land:
-- `lot_m2`), and what else is known: `bedrooms`, `bathrooms`, `year_built`, `lot_m2`, `features`;
-- `listing_id`, the home's own listing when it is on the market, is left out of its comparables.
-- Answers `value`, `low`, `high` (null, with `reason`, when too few listings are near), `usd_m2`,
-- `confidence`, the `comparables` it stood on (the closest in weight first), the `place` it is in
-- with its `market` (the index's figure), and `demand`: how many confirmed saved searches a home
-- like it matches (a count only).
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
      case when not has_feats then 0 else coalesce(pg_catalog.cardinality(c.features), 0) - coalesce(pg_catalog.cardinality(feats), 0) end,
      -- when it was listed (the market moves), and where it stands from the home (a local slope)
      c.years,
      c.east_km,
      c.north_km
    ]::double precision[];
  end loop;

  if n < 5 then
    return pg_catalog.jsonb_build_object('value', null, 'low', null, 'high', null, 'usd_m2', null, 'confidence', 'none',
      'reason', 'too_few_comparables', 'comparables', '[]'::jsonb, 'place', null, 'market', null, 'agent', null, 'demand', 0, 'method', 'local-regression-2');
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
    'method', 'local-regression-2'
  );
end
$$;

-- The times a visit may start with this agent (null: the team) between `from_at` and `to_at`:
-- within the agent's hours in Ecuador's time, on the step, from the lead time to the horizon, and
-- never over a visit already confirmed.
create or replace function internal.open_visit_times(agent bigint, from_at timestamptz, to_at timestamptz)
returns setof timestamptz
language sql
stable
set search_path = ''
as $$
  with r as (select * from internal.visit_rules()),
  days as (
    select d::date as day
      from pg_catalog.generate_series((greatest(from_at, internal.now()) at time zone 'America/Guayaquil')::date,
                                      (least(to_at, internal.now() + (select r.horizon from r)) at time zone 'America/Guayaquil')::date, interval '1 day') d
  )
  select t.start
    from days
    join internal.visiting_hours(agent) h on h.weekday = extract(isodow from days.day)
    cross join r
    cross join lateral pg_catalog.generate_series((days.day + h.opens) at time zone 'America/Guayaquil',
                                                  (days.day + h.closes) at time zone 'America/Guayaquil' - r.length, r.step) t(start)
   where t.start >= greatest(from_at, internal.now() + r.lead_time) and t.start <= least(to_at, internal.now() + r.horizon)
     and not exists (select 1 from internal.visits v
                      where v.agent_id = open_visit_times.agent and v.status = 'confirmed'
                        and v.during && pg_catalog.tstzrange(t.start, t.start + r.length))
   order by t.start
$$;

-- The times a visitor may propose to see a listing over the next 14 days, in its agent's calendar
-- (`agent_id`: an element's lead owner, else the listing's agent). Times only: nobody's visits.
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
   where l.id = visit_times.listing_id and l.country_code = 'EC' and l.status = '1'
$$;

-- The visit confirmed at `start`: one of the request's times, or another the agent proposed (the
-- caller checks that one against internal.open_visit_times). The same answers as confirm_visit.
create or replace function internal.confirm_visit_at(request bigint, start timestamptz, at_location text default null)
returns text
language plpgsql
set search_path = ''
as $$
declare
  req internal.visit_requests;
begin
  select * into req from internal.visit_requests r where r.id = request for update;
  if req.id is null then
    return 'unknown';
  end if;
  if req.status <> 'requested' then
    return 'done';
  end if;
  if start <= internal.now() then
    return 'past';
  end if;
  begin
    insert into internal.visits (request_id, agent_id, during, location)
    values (req.id, req.agent_id, pg_catalog.tstzrange(start, start + (select r.length from internal.visit_rules() r)), at_location);
  exception when exclusion_violation then
    return 'taken';
  end;
  update internal.visit_requests set status = 'confirmed' where id = req.id;
  return 'confirmed';
end
$$;

-- A visit cancelled (by the visitor or the agent): its time is free again, its sequence one more.
-- Answers 'cancelled', 'done' (cancelled already), or 'unknown'.
create or replace function internal.cancel_visit(request bigint)
returns text
language plpgsql
set search_path = ''
as $$
declare
  changed integer;
begin
  update internal.visits v set status = 'cancelled', cancelled_at = internal.now(), sequence = v.sequence + 1
   where v.request_id = request and v.status = 'confirmed';
  get diagnostics changed = row_count;
  update internal.visit_requests r set status = 'cancelled' where r.id = request and r.status <> 'cancelled';
  if changed > 0 or found then
    return 'cancelled';
  end if;
  return case when exists (select 1 from internal.visit_requests r where r.id = request) then 'done' else 'unknown' end;
end
$$;

-- A listing's open houses not ended yet, as one multirange (empty when none).
create or replace function internal.upcoming_open_houses(listing bigint)
returns tstzmultirange
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.range_agg(pg_catalog.tstzrange(o.starts_at, o.ends_at)), '{}'::pg_catalog.tstzmultirange)
    from internal.open_houses o
   where o.listing_id = upcoming_open_houses.listing and o.ends_at > internal.now()
$$;

-- The copies of open houses that have ended, dropped (the hourly refresh calls it; a copy that is
-- late changes nothing the public sees: every read asks for those not ended).
create or replace function internal.forget_past_open_houses()
returns integer
language sql
set search_path = ''
as $$
  with gone as (
    delete from internal.open_houses o where o.ends_at < internal.now() - interval '1 day' returning o.listing_id
  ), stale as (
    update internal.listings l set open_houses = internal.upcoming_open_houses(l.id)
     where l.open_houses <> '{}'::pg_catalog.tstzmultirange and pg_catalog.upper(l.open_houses) <= internal.now()
     returning l.id
  )
  select (select count(*)::integer from gone) + (select count(*)::integer from stale)
$$;

-- A listing's open houses not ended yet, first first: what its page and its detail show.
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
     and internal.is_public_listing(l.country_code, l.status)
   order by o.starts_at
   limit 20
$$;

alter table public.agents alter column created_at set default internal.now();
alter table internal.listings alter column created_at set default internal.now();
alter table internal.listings alter column listed_at set default internal.now();
alter table internal.listing_price_changes alter column changed_at set default internal.now();
alter table public.inquiries alter column received_at set default internal.now();
alter table internal.mail_outbox alter column next_attempt_at set default internal.now();
alter table internal.mail_outbox alter column created_at set default internal.now();
alter table internal.saved_searches alter column created_at set default internal.now();
alter table internal.saved_search_tokens alter column created_at set default internal.now();
alter table internal.search_alerts alter column created_at set default internal.now();
alter table internal.settings alter column created_at set default internal.now();
alter table internal.webhook_endpoints alter column created_at set default internal.now();
alter table internal.visit_requests alter column created_at set default internal.now();
alter table internal.visits alter column confirmed_at set default internal.now();
alter table internal.import_runs alter column started_at set default internal.now();
alter table internal.photos alter column fetched_at set default internal.now();
alter table internal.job_schedule alter column due_at set default internal.now();

-- the index's months were UTC's: the next refresh makes the whole index again, in Ecuador's months
update internal.job_schedule set last_full_at = null where job = 'market-index';
