-- The market index read (docs/market.md): a place's months, a listing's place, the rankings, the
-- rents and the report, as the data API serves them.

-- A place's index (docs/market.md), month by month, oldest first: the figure of the place itself
-- where it stands on enough listings, else its parent's (then `path` names the parent), else none.
-- `place`: 'ecuador', 'provincia/pichincha', 'quito', 'quito/cumbaya'; `type_group`: all, house,
-- apartment, land, commercial; `months`: how many, the month so far included (1 to 25).
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
language plpgsql stable
-- it reads the index (closed to the public key): figures of public listings only
security definer set search_path = ''
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

-- A listing's market (docs/market.md, "Where it shows"): last month and this one of its sector's
-- index for its type group (or of the nearest place that has a figure), asked by the listing's id
-- so that a listing's page asks for it at the same time as the listing itself.
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
language sql stable security definer set search_path = ''
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

-- The places in a place (a province's cities, a city's sectors; Ecuador's provinces or, with
-- `kind` 'city', its cities) with their figure of last month, of twelve months before that, and
-- the thirteen months between (oldest first; null where a month stands on too few listings), for
-- rankings and their small trend lines; only places whose last month stands on enough listings.
create or replace function public.market_ranking(place text, type_group text default 'all', kind text default null)
returns table (path public.plain_text, name public.plain_text, listings integer, median numeric, median_year_before numeric, trend numeric[], lat double precision, lng double precision)
language sql stable security definer set search_path = ''
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

-- The rents of a place (docs/market.md "Rents"), now (as the index's last refresh found them:
-- internal.market_rents_now): the place's, else the nearest place above it with at least
-- internal.market_minimum() rentals (its city, its province, Ecuador).
create or replace function internal.market_rents(place text)
returns table (path text, name text, listings integer, median numeric, p25 numeric, p75 numeric, two_bedroom numeric, two_bedroom_listings integer)
-- plpgsql: its body is checked when it runs (internal.places is made after this file)
language plpgsql stable set search_path = '' as $$
#variable_conflict use_column
declare
  here text := market_rents.place;
  steps integer := 0;
  f internal.market_rents_now;
begin
  while here is not null and steps <= 4 loop
    select * into f from internal.market_rents_now r where r.path = here;
    if f.listings >= internal.market_minimum() then
      return query
      select f.path, coalesce((select pl.name from internal.places pl where pl.path = f.path), 'Ecuador'), f.listings,
             f.median, f.p25, f.p75, f.two_bedroom, f.two_bedroom_listings;
      return;
    end if;
    here := case
              when here = 'ecuador' then null
              when here ~ '^provincia/' then 'ecuador'
              when here ~ '/' then pg_catalog.split_part(here, '/', 1)
              else (select 'provincia/' || pl.state_slug from internal.places pl where pl.path = here)
            end;
    steps := steps + 1;
  end loop;
end
$$;

-- the homes for rent, read by the rents' figures (a narrow walk of the rentals)
create index listings_rents on internal.listings (city_slug, sector_slug) include (state_slug, price, square_feet, bedrooms, property_type)
  where is_public and operation = 'rent';

-- Everything a place's report shows (docs/market.md, "Where it shows"), in one answer: the place's
-- months for `type_group` (as public.market_index), each type group's last 14 months, the places
-- within ranked (a sector: its city's sectors) and, for Ecuador, every city ranked.
create or replace function public.market_report(place text, type_group text default 'all', months integer default 25)
returns jsonb language sql stable security definer set search_path = ''
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
