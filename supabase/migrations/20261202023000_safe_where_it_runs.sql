-- Safe where it really runs (issue 58; docs/decisions.md #24): mail to one mailbox is counted
-- however its address is written; an alert's new listings are those that appeared here, whatever
-- date a feed gives as their market date.

-- The mailbox an e-mail address reaches, to count mails to one person however the address is
-- written (docs/decisions.md #24): lower case, without a "+tag" after the local part
-- (ana+x@example.org and Ana@Example.org are one mailbox). Never stored: counted by.
create or replace function internal.mailbox(email text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.btrim(email)), '\+[^@]*@', '@')
$$;

-- a seller's requests by the mailbox they ask for (the mails to one person a day are capped:
-- core/functions/inquiry/handler.ts)
create index inquiries_seller_mailbox on public.inquiries (internal.mailbox(email), received_at desc) where seller is not null;

-- when a listing appeared here: inserted active, or made active again (never from a feed, whose
-- OnMarketDate is listed_at). The rows already here appeared when they came on the market (not
-- when this ran, which would make every one of them new to every alert), set without the
-- triggers, which would count it as a change of each listing
alter table internal.listings add column appeared_at timestamptz;
alter table internal.listings disable trigger user;
update internal.listings set appeared_at = listed_at;
alter table internal.listings enable trigger user;
alter table internal.listings alter column appeared_at set default internal.now(), alter column appeared_at set not null;
comment on column internal.listings.listed_at is 'When the listing came on the market: the feed''s date, else when it was inserted active or made active again.';
comment on column internal.listings.appeared_at is 'When it appeared here (inserted, or made active again): new for the alerts, whatever date its feed gives.';

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
    new.appeared_at := coalesce(new.appeared_at, internal.now());
  else
    new.updated_at := internal.now();
    -- back on the market: new again for the alerts
    if new.status = '1' and old.status is distinct from '1' then
      new.listed_at := internal.now();
      new.appeared_at := internal.now();
    end if;
  end if;
  return new;
end
$$;

-- the alerts' new listings: those that appeared here since a search's mark
create index listings_appeared on internal.listings (appeared_at) where country_code = 'EC' and status = '1';

-- Buyer demand for the estimate (docs/valuation.md "Buyer demand"): how many confirmed saved
-- searches a home like the subject matches, told only where it says nothing about one buyer. A count
-- from DEMAND_FLOOR on, else "fewer than" it (none and four read alike); and nothing for facts that
-- no home among its comparables has (the type, bedrooms and bathrooms as given, the area within a
-- fifth, its features), which a caller could choose to single out one buyer's criteria.
create or replace function internal.buyer_demand(subject internal.listings, comparables bigint[], area double precision)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with floor as (select 5 as n),
  real_home as (
    select exists (
      select 1 from internal.listings l
       where l.id = any (comparables)
         and l.property_type = subject.property_type
         and (subject.bedrooms is null or l.bedrooms = subject.bedrooms)
         and (subject.bathrooms is null or l.bathrooms = subject.bathrooms)
         and (case when subject.property_type = 'land' then l.lot_size else l.square_feet end) between area / 1.2 and area * 1.2
         and subject.features <@ l.features
    ) as yes
  ),
  matched as (
    select count(*)::integer as n
      from internal.saved_searches s, real_home
     where real_home.yes and s.status = 'active' and s.market is null and s.home is null and not s.spam
       and internal.listing_matches(subject, s.filters)
  )
  select case when not real_home.yes then null
              when matched.n >= floor.n then pg_catalog.jsonb_build_object('count', matched.n)
              else pg_catalog.jsonb_build_object('fewer_than', floor.n) end
    from real_home, matched, floor
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
  demand jsonb;
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
      'reason', 'too_few_comparables', 'comparables', '[]'::jsonb, 'place', null, 'market', null, 'agent', null, 'demand', null, 'demand_fewer_than', null, 'method', 'local-regression-2');
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
  demand := internal.buyer_demand(subject, ids, area);

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
    'demand', (demand ->> 'count')::integer,
    'demand_fewer_than', (demand ->> 'fewer_than')::integer,
    'method', 'local-regression-2'
  );
end
$$;

-- The team keeps a calendar too: its visits (no agent) are one calendar, 0, in the constraint and
-- in the times offered (a null agent was never equal to another, so team visits could overlap)
alter table internal.visits drop constraint visits_no_double_booking;
alter table internal.visits add constraint visits_no_double_booking exclude using gist ((coalesce(agent_id, 0)) with =, during with &&) where (status = 'confirmed');

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
                      where coalesce(v.agent_id, 0) = coalesce(open_visit_times.agent, 0) and v.status = 'confirmed'
                        and v.during && pg_catalog.tstzrange(t.start, t.start + r.length))
   order by t.start
$$;
