-- The estimate may take a wider regression (issue 62; docs/valuation.md "The method", step 3):
-- beside the home's own local regression, one of a bandwidth `wide` times wider and a ridge `wide`²
-- times firmer, taken instead where it misses the comparables by less out of sample (their
-- leave-one-out errors, each weighed as the home's own regression weighs it); `wide` is a constant
-- chosen by the nested cross-validation with the others. The regression becomes a stage of its own
-- (internal.valuation_regression), the weighted squared misses a function both the blend and the
-- choice read (internal.weighted_square_miss); the blend, the estimate's stages and the constants
-- are restated.
--
-- And the comparables are the same however the market's rows were written: the nearest listings
-- at one distance (flats of one building) come in the order of their ids (the benchmark's Athens,
-- 1,000 flats at 572 points, gave 70 of 320 homes other comparables when loaded a second time).

-- The estimate's constants (docs/valuation.md "Constants"): how many comparables it reads, the
-- comparable whose distance sets the nearness weights, the likeness in size, the weight of the
-- home's own sector, the ridge and how much of the prior it pulls toward, the neighbours of the
-- median rule, how much wider the regression it may take instead of the home's own is (`wide`, 0:
-- none) and the range's widening. Chosen by nested cross-validation across the benchmark's
-- markets (`npm run bench -- valuation`, which says whether these are still what it would choose).
create or replace function internal.valuation_constants()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select '{"count": 80, "bandwidth_rank": 12, "size_sigma": 0.3, "sector_weight": 2, "ridge": 0.05, "prior": 1, "median_k": 12, "lean": 1, "wide": 2, "widen": 0.85}'::jsonb
$$;

-- What a rule's leave-one-out misses `e` of the nearest comparables weigh, each squared and
-- weighed by the comparable's weight `w` (the sum the blend and the choice of the regression read).
create or replace function internal.weighted_square_miss(w double precision[], e double precision[])
returns double precision
language sql
immutable
set search_path = ''
as $$
  select coalesce(sum(u.w * u.e * u.e), 0) from unnest(w[1:pg_catalog.cardinality(e)], e) u(w, e)
$$;

-- A stage of public.estimate_value: one local regression of the `n` comparables with the constants
-- `k`: their weights (internal.valuation_weights), the fit (internal.valuation_fit: its
-- coefficients `b`, misfits `r` and the weights `w` it ended with) and what it would have missed
-- each of the `m` nearest by (`e`, internal.valuation_loo).
create or replace function internal.valuation_regression(n integer, m integer, d double precision[], xs double precision[], same boolean[], y double precision[], k jsonb,
  out b double precision[], out r double precision[], out w double precision[], out e double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  wt record;
  fit record;
begin
  select * into wt from internal.valuation_weights(n, d[1:n], xs[1:n * 10], same[1:n], y[1:n], k);
  select * into fit from internal.valuation_fit(n, xs[1:n * 10], y[1:n], wt.w0, wt.w, k);
  b := fit.b;
  r := fit.r;
  w := fit.w;
  e := internal.valuation_loo(m, xs, fit.w, fit.r, fit.a);
end
$$;

-- A stage of public.estimate_value: the regression and the median rule blended home by home as
-- their leave-one-out errors on the comparables say: each weighed by the inverse of its weighted
-- mean squared miss (`alpha`, the regression's share: 1 the regression alone, 0 the median alone;
-- weights fitted with the two errors' covariance swing with a single listing, these do not), the
-- median's misses counted 1 + `lean` times (the constant of that name: forty comparables' misses
-- tell the two rules apart only roughly, and the regression is the better more often than they
-- say; a rule that never misses still takes it all); the home's ln(USD/m²) `at`, and what the blend
-- would have missed each comparable by (`s`).
create or replace function internal.valuation_blend(m integer, w double precision[], e_reg double precision[], e_med double precision[], reg double precision,
  med double precision, lean double precision, out alpha double precision, out at double precision, out s double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  rr constant double precision := internal.weighted_square_miss(w, e_reg);
  mm constant double precision := internal.weighted_square_miss(w, e_med);
begin
  alpha := case when rr + mm <= 1e-12 then 1 else (1 + lean) * mm / ((1 + lean) * mm + rr) end;
  at := alpha * reg + (1 - alpha) * med;
  s := '{}';
  for i in 1..m loop s := s || (alpha * e_reg[i] + (1 - alpha) * e_med[i]); end loop;
end
$$;

-- The estimate from its comparables (the stages after internal.valuation_comparables), with the
-- constants `k`: public.estimate_value's with internal.valuation_constants(), the benchmark's with
-- each it tries. `used`: how many comparables it read (the first, nearest). The regression is the
-- home's own (`near`), or, when `wide` is more than 0, the one of a bandwidth `wide` times wider and
-- a ridge `wide`² times firmer (`far`: fewer local terms, each drawn harder to its prior) where that
-- one misses the comparables by less, out of sample, each weighed as the home's own weighs it
-- (docs/valuation.md "The method", step 5). The median rule and the blend weigh the comparables
-- as the home's own regression does.
create or replace function internal.valuation_of(n integer, d double precision[], xs double precision[], same boolean[], y double precision[], area double precision, k jsonb,
  out used integer, out value double precision, out low double precision, out high double precision, out confidence text, out alpha double precision,
  out lo double precision, out hi double precision, out b double precision[], out r double precision[], out w double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  wide constant double precision := coalesce((k ->> 'wide')::double precision, 0);
  m integer;
  near record;
  far record;
  e double precision[];
  mr record;
  bl record;
begin
  used := least(n, (k ->> 'count')::integer);
  m := least(used, 40);
  select * into near from internal.valuation_regression(used, m, d, xs, same, y, k);
  b := near.b; r := near.r; w := near.w; e := near.e;
  if wide > 0 then
    select * into far from internal.valuation_regression(used, m, d, xs, same, y,
      k || pg_catalog.jsonb_build_object('bandwidth_rank', round(wide * (k ->> 'bandwidth_rank')::double precision), 'ridge', wide * wide * (k ->> 'ridge')::double precision));
    if internal.weighted_square_miss(near.w, far.e) < internal.weighted_square_miss(near.w, near.e) then
      b := far.b; r := far.r; w := far.w; e := far.e;
    end if;
  end if;
  select * into mr from internal.valuation_median_rule(used, m, xs[1:used * 10], y[1:used], near.w, k);
  select * into bl from internal.valuation_blend(m, near.w, e, mr.e_med, b[1], mr.med, (k ->> 'lean')::double precision);
  select v.value, v.low, v.high, v.confidence, v.lo, v.hi into value, low, high, confidence, lo, hi from internal.valuation_range(m, bl.s, d[1:m], bl.at, area, k) v;
  alpha := bl.alpha;
end
$$;

-- A stage of public.estimate_value: its comparables, at most 80 nearest active listings of the type
-- within 30 km, each with its distance, its ln(USD/m²), whether it is in the home's sector, and
-- what it differs from the home in (`xs`: p = 10 a comparable, row by row).
create or replace function internal.valuation_comparables(kind text, kinds text[], area double precision, built_year double precision, beds double precision, baths double precision, lot double precision,
  has_feats boolean, feats text[], at_lat double precision, at_lng double precision, place text, own bigint,
  out n integer, out ids bigint[], out same boolean[], out d double precision[], out y double precision[], out xs double precision[])
language plpgsql
stable
set search_path = ''
as $$
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

revoke execute on function internal.weighted_square_miss(double precision[], double precision[]), internal.valuation_regression(integer, integer, double precision[], double precision[], boolean[], double precision[], jsonb) from public, anon, authenticated;
grant execute on function internal.weighted_square_miss(double precision[], double precision[]), internal.valuation_regression(integer, integer, double precision[], double precision[], boolean[], double precision[], jsonb) to service_role;
