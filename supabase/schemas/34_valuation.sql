-- What a home may ask (docs/valuation.md): an estimate of its asking price from the active
-- listings around it, for a seller's first question. One rule, read by <exp-home-valuation>, the
-- seller's mails and the monthly home report alike, through /rest/v1/rpc/estimate_value.

-- A number of the facts, or null when it is not given; anything else is refused, naming the field.
create or replace function internal.fact_number(facts jsonb, field text, low double precision, high double precision)
returns double precision language plpgsql immutable set search_path = '' as $$
declare
  v jsonb := facts -> field;
begin
  if v is null or v = 'null'::jsonb then
    return null;
  end if;
  if pg_catalog.jsonb_typeof(v) <> 'number' or (v::text)::double precision not between low and high then
    raise exception '%: must be a number from % to %', field, low, high using errcode = '22023';
  end if;
  return (v::text)::double precision;
end
$$;

-- A stage of public.estimate_value: the home's facts, checked (a refused one names its field).
create or replace function internal.valuation_home(facts jsonb, out kind text, out grp text, out kinds text[], out built double precision, out lot double precision,
  out area double precision, out beds double precision, out baths double precision, out built_year double precision, out feats text[], out has_feats boolean, out own bigint)
language plpgsql stable set search_path = '' as $$
declare
  f jsonb := facts;
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
end
$$;

-- A stage of public.estimate_value: where the home is: a point in Ecuador (the mainland or the
-- Galápagos), else a place of the location box.
create or replace function internal.valuation_point(facts jsonb, out at_lat double precision, out at_lng double precision, out place text)
language plpgsql stable set search_path = '' as $$
declare
  f jsonb := facts;
begin
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
end
$$;

-- A stage of public.estimate_value: its comparables, at most 80 nearest active listings of the type
-- within 30 km, each with its distance, its ln(USD/m²), whether it is in the home's sector, and
-- what it differs from the home in (`xs`: p = 10 a comparable, row by row).
create or replace function internal.valuation_comparables(kind text, kinds text[], area double precision, built_year double precision, beds double precision, baths double precision, lot double precision,
  has_feats boolean, feats text[], at_lat double precision, at_lng double precision, place text, own bigint,
  out n integer, out ids bigint[], out same boolean[], out d double precision[], out y double precision[], out xs double precision[])
language plpgsql stable set search_path = '' as $$
declare
  shrink double precision := cos(radians(at_lat));
  -- when the estimate is for: the home's own listing date when it is a listing, else now
  at_time timestamptz := coalesce((select l.listed_at from internal.listings l where l.id = own), internal.now());
  -- the home's sector (the place's, else the nearest comparable's)
  home_sector text;
  c record;
begin
  n := 0; ids := '{}'; same := '{}'; d := '{}'; y := '{}'; xs := '{}';
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
     -- listings at one distance (flats of one building) in the order of their ids, so that the same
     -- market gives the same comparables however its rows were written (docs/valuation.md, step 1)
     order by l.location <-> point(at_lng, at_lat), l.id
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
end
$$;

-- A stage of public.estimate_value: the six heaviest comparables, with what each says the home asks.
create or replace function internal.valuation_comparables_told(ids bigint[], d double precision[], y double precision[], r double precision[], w double precision[], b double precision[], area double precision)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', l.id, 'title', l.title, 'price', l.price, 'area_m2', l.square_feet, 'lot_m2', l.lot_size, 'bedrooms', l.bedrooms,
           'bathrooms', l.bathrooms, 'property_type', l.property_type, 'city', l.city, 'sector', l.sector, 'images', l.images,
           'distance_m', round(u.dist), 'usd_m2', round((exp(u.y))::numeric, 2),
           'adjusted', round((exp(b[1] + u.r) * area / 1000)::numeric) * 1000
         ) order by u.w desc, l.id), '[]'::jsonb)
    from (
      select t.id, t.dist, t.y, t.r, t.w
        from unnest(ids, d, y, r, w) as t(id, dist, y, r, w)
       order by t.w desc, t.id
       limit 6
    ) u
    join internal.listings l on l.id = u.id
$$;

-- A stage of public.estimate_value: what is around the home: its place (the sector, else the city,
-- of the nearest comparable) and its market figure, the agent who serves it, and the buyers whose
-- confirmed saved searches a home like it, at its value, would match.
create or replace function internal.valuation_context(ids bigint[], grp text, kind text, value double precision, area double precision, beds double precision, baths double precision, built double precision,
  lot double precision, built_year double precision, feats text[], at_lat double precision, at_lng double precision,
  out near_path text, out near_name text, out market jsonb, out agent jsonb, out demand jsonb)
language plpgsql stable set search_path = '' as $$
declare
  nearest record;
  serving bigint;
  subject internal.listings;
begin
  -- the place: the sector (else the city) of the nearest comparable, and its market figure (its
  -- row read once: the place and the buyers' match below both read it)
  select l.city_slug, l.sector_slug, l.state_slug, l.place_search,
         case when coalesce(l.sector_slug, '') <> '' then l.city_slug || '/' || l.sector_slug else l.city_slug end as path
    into nearest
    from internal.listings l where l.id = ids[1];
  near_path := nearest.path;
  select pl.name into near_name from internal.places pl where pl.path = near_path;
  select pg_catalog.jsonb_build_object('path', m.path, 'name', m.name, 'month', m.month, 'median', m.median, 'listings', m.listings,
           'year_before', (select y.median from public.market_index(near_path, grp, 14) y where y.month = (m.month - interval '12 months')::date and y.path = m.path))
    into market
    from public.market_index(near_path, grp, 2) m
   where m.month = (internal.this_month() - interval '1 month')::date;

  -- the agent who serves it (a seller's lead goes to them), asked once: written in the query's
  -- condition, the planner would also run it to estimate the rows (docs/valuation.md "Accuracy", speed)
  serving := internal.area_agent(near_path);
  select pg_catalog.jsonb_build_object('id', a.id, 'name', nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), ''), 'picture', a.picture)
    into agent
    from public.agents a
   where a.id = serving;

  -- buyers whose confirmed saved searches a home like this, at this value, would match
  subject := pg_catalog.jsonb_populate_record(null::internal.listings, pg_catalog.jsonb_build_object(
    'country_code', 'EC', 'status', '1', 'is_public', true, 'operation', 'sale', 'property_type', kind, 'price', round(value), 'bedrooms', beds, 'bathrooms', baths,
    'square_feet', built, 'lot_size', lot, 'year_built', built_year, 'features', coalesce(feats, '{}'),
    'lat', at_lat, 'lng', at_lng, 'location', point(at_lng, at_lat)::text,
    'city_slug', nearest.city_slug, 'sector_slug', nearest.sector_slug, 'state_slug', nearest.state_slug, 'place_search', nearest.place_search
  ));
  demand := internal.buyer_demand(subject, ids, area);
end
$$;

-- The estimate (docs/valuation.md has the method and its measured accuracy). `facts`: `lat` and
-- `lng` (or `place`, a path of the location box), `property_type`, `area_m2` (the lot for land:
-- `lot_m2`), and what else is known: `bedrooms`, `bathrooms`, `year_built`, `lot_m2`, `features`;
-- `listing_id`, the home's own listing when it is on the market, is left out of its comparables.
-- Answers `value`, `low`, `high` (null, with `reason`, when too few listings are near), `usd_m2`,
-- `confidence`, the `comparables` it stood on (the closest in weight first), the `place` it is in
-- with its `market` (the index's figure), and `demand`: how many confirmed saved searches a home
-- like it matches, from a floor (else `demand_fewer_than`; neither for facts no home near it has:
-- internal.buyer_demand).
create or replace function public.estimate_value(facts jsonb)
returns jsonb language plpgsql stable
-- it reads the listings' rows and the saved searches (closed to the public key) to answer figures and a count
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  -- each stage's answer, in the order they run
  h record;
  pt record;
  c record;
  est record;
  x record;
begin
  select * into h from internal.valuation_home(facts);
  select * into pt from internal.valuation_point(facts);
  select * into c from internal.valuation_comparables(h.kind, h.kinds, h.area, h.built_year, h.beds, h.baths, h.lot, h.has_feats, h.feats, pt.at_lat, pt.at_lng, pt.place, h.own);
  if c.n < 5 then
    return pg_catalog.jsonb_build_object('value', null, 'low', null, 'high', null, 'usd_m2', null, 'confidence', 'none',
      'reason', 'too_few_comparables', 'comparables', '[]'::jsonb, 'place', null, 'market', null, 'agent', null, 'demand', null, 'demand_fewer_than', null, 'method', 'blend-conformal-1');
  end if;
  select * into est from internal.valuation_of(c.n, c.d, c.xs, c.same, c.y, h.area, internal.valuation_constants());
  select * into x from internal.valuation_context(c.ids, h.grp, h.kind, est.value, h.area, h.beds, h.baths, h.built, h.lot, h.built_year, h.feats, pt.at_lat, pt.at_lng);
  return pg_catalog.jsonb_build_object(
    'value', round(est.value / 1000) * 1000,
    'low', round(est.low / 1000) * 1000,
    'high', round(est.high / 1000) * 1000,
    'usd_m2', round((est.value / h.area)::numeric, 2),
    'confidence', est.confidence,
    'comparables', internal.valuation_comparables_told(c.ids[1:est.used], c.d[1:est.used], c.y[1:est.used], est.r, est.w, est.b, h.area),
    'place', case when x.near_path is null then null else pg_catalog.jsonb_build_object('path', x.near_path, 'name', coalesce(x.near_name, x.near_path)) end,
    'market', x.market,
    'agent', x.agent,
    'demand', (x.demand ->> 'count')::integer,
    'demand_fewer_than', (x.demand ->> 'fewer_than')::integer,
    'method', 'blend-conformal-1'
  );
end
$$;

-- The agents who serve a place (docs/valuation.md "The seller's lead"): those whose locations
-- served name its sector, then those who name its city (folded, as the directory compares names);
-- each kind, the one with the most active listings in that city first, then by id. Answers the
-- place they serve (the one asked for, or its city when none names the place itself) and the
-- agents' ids in that order (their public columns are read from
-- public.agents as the directory reads them); an unknown place, no ids.
create or replace function public.area_agents(place text)
returns jsonb language sql stable
-- it reads the places and the listings (closed to the public key) to answer ids and a place's name
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  with p as (
    select pl.path, pl.name, public.search_fold(pl.name) as folded,
           public.search_fold((select c.name from internal.places c where c.path = pg_catalog.split_part(area_agents.place, '/', 1))) as city
      from internal.places pl
     where pl.path = pg_catalog.left(area_agents.place, 200)
  ),
  serving as (
    select a.id,
           exists (select 1 from pg_catalog.unnest(a.locations_served) s(x) where public.search_fold(s.x) = p.folded) as names_it,
           (select count(*) from internal.listings l where l.agent_id = a.id and l.status = '1' and l.city_slug = pg_catalog.split_part(p.path, '/', 1)) as listings
      from public.agents a
      cross join p
     where a.is_ours
       and exists (select 1 from pg_catalog.unnest(a.locations_served) s(x) where public.search_fold(s.x) in (p.folded, p.city))
  )
  -- the place they serve: the one asked for, or its city when they all name only the city
  select pg_catalog.jsonb_build_object(
           'place', (select case when exists (select 1 from serving s where not s.names_it) and not exists (select 1 from serving s where s.names_it)
                                 then (select pg_catalog.jsonb_build_object('path', c.path, 'name', c.name) from internal.places c where c.path = pg_catalog.split_part(p.path, '/', 1))
                                 else pg_catalog.jsonb_build_object('path', p.path, 'name', p.name) end
                       from p),
           'agents', coalesce((select pg_catalog.jsonb_agg(s.id order by s.names_it desc, s.listings desc, s.id) from serving s), '[]'::jsonb))
$$;

-- The agent a seller's lead about a place goes to: the first of public.area_agents() with an
-- e-mail. Null when none does.
create or replace function internal.area_agent(place text)
returns bigint language sql stable set search_path = '' as $$
  select a.id
    from pg_catalog.jsonb_array_elements_text(public.area_agents(area_agent.place) -> 'agents') with ordinality as o(id, n)
    join public.agents a on a.id = o.id::bigint
   where coalesce(btrim(a.email), '') <> ''
   order by o.n
   limit 1
$$;
