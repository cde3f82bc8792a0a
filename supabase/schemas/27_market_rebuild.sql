-- The market index made (docs/market.md "Freshness"), its last stages: the places told, the index's
-- rows, trends, what each report shows and the rents; internal.rebuild_market_index, which runs the
-- stages of 26_market_figures.sql and these in order, and the schedule that calls it.

-- A stage of internal.rebuild_market_index: what each place's listings say of it, once per
-- place (not per month): its listings by the names they write, where they are on average, its name
-- and the place above it (pg_temp.market_written, market_centres, market_named, market_provinces).
create or replace function internal.market_places_told()
returns void language plpgsql volatile set search_path = '' as $$
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
returns integer language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns void language plpgsql volatile set search_path = '' as $$
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
returns integer language plpgsql security definer set search_path = ''
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

-- The index made again when it is older than `max_age` (the servers call it every few minutes; a
-- hosted project's pg_cron every hour: docs/deployment.md): once across servers (an advisory lock;
-- whoever comes second finds it fresh or busy). Answers the rows written, or null when nothing was due.
create or replace function internal.refresh_market_index(max_age interval default interval '1 hour')
returns integer language plpgsql security definer set search_path = '' as $$
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
