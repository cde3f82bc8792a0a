-- The estimate blends its regression with the median of its nearest comparables by how each
-- would have missed the comparables themselves, and its range is conformal (issue 62;
-- docs/valuation.md): the method's stages take their constants as an argument
-- (internal.valuation_constants(), chosen by nested cross-validation), the regression's
-- leave-one-out errors come from its leverages (internal.inverse_matrix), the median rule and the
-- blend are stages of their own, and the range is made from the blend's out-of-sample misses. The
-- robust weights' scale is the plain median deviation (internal.bisquare_weights), so that the
-- heaviest comparable priced unlike the rest cannot move the scale that is to find it.

drop function internal.valuation_weights(integer, double precision[], double precision[], boolean[], double precision[]);
drop function internal.valuation_ridge(integer, double precision[], double precision[], double precision[]);
drop function internal.valuation_fit(integer, double precision[], double precision[], double precision[], double precision[]);
drop function internal.valuation_range(integer, double precision[], double precision[], double precision[], double precision);

-- The inverse of a square matrix (row by row) by Gauss-Jordan elimination with partial pivoting;
-- null when it has none. The estimate's leverages are read from it.
create or replace function internal.inverse_matrix(a double precision[])
returns double precision[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  n integer := round(sqrt(pg_catalog.array_length(a, 1)));
  m double precision[] := a;
  inv double precision[] := pg_catalog.array_fill(0::double precision, array[n * n]);
  best integer;
  f double precision;
  t double precision;
begin
  for i in 1..n loop inv[(i - 1) * n + i] := 1; end loop;
  for col in 1..n loop
    best := col;
    for r in col + 1..n loop
      if abs(m[(r - 1) * n + col]) > abs(m[(best - 1) * n + col]) then best := r; end if;
    end loop;
    if abs(m[(best - 1) * n + col]) < 1e-12 then
      return null;
    end if;
    for c in 1..n loop
      t := m[(col - 1) * n + c]; m[(col - 1) * n + c] := m[(best - 1) * n + c]; m[(best - 1) * n + c] := t;
      t := inv[(col - 1) * n + c]; inv[(col - 1) * n + c] := inv[(best - 1) * n + c]; inv[(best - 1) * n + c] := t;
    end loop;
    f := m[(col - 1) * n + col];
    for c in 1..n loop m[(col - 1) * n + c] := m[(col - 1) * n + c] / f; inv[(col - 1) * n + c] := inv[(col - 1) * n + c] / f; end loop;
    for r in 1..n loop
      continue when r = col or m[(r - 1) * n + col] = 0;
      f := m[(r - 1) * n + col];
      for c in 1..n loop
        m[(r - 1) * n + c] := m[(r - 1) * n + c] - f * m[(col - 1) * n + c];
        inv[(r - 1) * n + c] := inv[(r - 1) * n + c] - f * inv[(col - 1) * n + c];
      end loop;
    end loop;
  end loop;
  return inv;
end
$$;

-- Robust weights (docs/valuation.md, step 3): each weight times Tukey's bisquare of its deviation
-- over six median deviations; a deviation beyond that weighs nothing. The median deviation is the
-- plain one of all that count (weight above 0): weighed, it would stand on the few heaviest, and one
-- of them priced unlike the rest would move the scale that is to find it.
create or replace function internal.bisquare_weights(weights double precision[], deviations double precision[])
returns double precision[]
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.array_agg(u.w * power(greatest(0, 1 - power(u.dev / greatest(s.scale, 1e-6), 2)), 2) order by u.n)
    from unnest(weights, deviations) with ordinality u(w, dev, n),
         (select pg_catalog.percentile_cont(0.5) within group (order by abs(v.dev)) * 6 as scale
            from unnest(weights, deviations) v(w, dev) where v.w > 0) s
$$;

-- The estimate's constants (docs/valuation.md "Constants"): how many comparables it reads, the
-- comparable whose distance sets the nearness weights, the likeness in size, the weight of the
-- home's own sector, the ridge and how much of the prior it pulls toward, the neighbours of the
-- median rule and the range's widening. Chosen by nested cross-validation across the benchmark's
-- markets (`npm run bench -- valuation`, which says whether these are still what it would choose).
create or replace function internal.valuation_constants()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select '{"count": 80, "bandwidth_rank": 12, "size_sigma": 0.5, "sector_weight": 2, "ridge": 0.05, "prior": 1, "median_k": 12, "widen": 0.85}'::jsonb
$$;

-- A stage of public.estimate_value: each comparable's weight of nearness and likeness (`w0`), and
-- that weighed down by how far its USD/m² is from their weighted median (`w`).
create or replace function internal.valuation_weights(n integer, d double precision[], xs double precision[], same boolean[], y double precision[], k jsonb,
  out w0 double precision[], out w double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  sigma constant double precision := (k ->> 'size_sigma')::double precision;
  sector constant double precision := (k ->> 'sector_weight')::double precision;
  h double precision;
  typical double precision;
begin
  w0 := '{}';
  -- weights: nearer (a tricube over the distance of the `bandwidth_rank`th, at least 1 km), closer
  -- in size, and in the same sector (a sector's price level is its own: a street apart may be another market)
  h := greatest(d[least(n, (k ->> 'bandwidth_rank')::integer)] * 1.2, 1000);
  for i in 1..n loop
    w0 := w0 || (case when d[i] >= h then 0.01 else power(1 - power(d[i] / h, 3), 3) end) * exp(-0.5 * power(xs[(i - 1) * p + 2] / sigma, 2))
              * (case when same[i] then sector else 1 end);
  end loop;
  -- a listing priced unlike its neighbours (a typo, a wreck, a sale between relatives) must not
  -- pull the estimate: each comparable weighed down by how far its USD/m² is from their weighted
  -- median (Tukey's bisquare over six median deviations), and again below by how far it misses the fit
  typical := internal.weighted_quantile(y, w0, 0.5);
  w := internal.bisquare_weights(w0, (select pg_catalog.array_agg(u.ln_usd - typical order by u.ord) from unnest(y) with ordinality u(ln_usd, ord)));
end
$$;

-- A stage of public.estimate_value: weighted least squares of ln(USD/m²) on the differences, each
-- coefficient drawn toward its prior as much as its spread among the comparables is small (a ridge
-- scaled per column). Its coefficients `b` (the prior's, and the weighted median for the intercept,
-- when the system has no single answer) and the system's matrix `a` (for the leverages).
create or replace function internal.valuation_ridge(n integer, xs double precision[], y double precision[], w double precision[], k jsonb,
  out b double precision[], out a double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  prior constant double precision[] := array[0, -0.15, 0.03, 0.02, 0.04, 0.05, 0.03, 0, 0, 0];
  ridge constant double precision := (k ->> 'ridge')::double precision;
  pull constant double precision := (k ->> 'prior')::double precision;
  mean double precision[] := pg_catalog.array_fill(0::double precision, array[p]);
  var double precision[] := pg_catalog.array_fill(0::double precision, array[p]);
  sw double precision := 0;
  wx double precision;
  atb double precision[] := pg_catalog.array_fill(0::double precision, array[p]);
begin
  for i in 1..n loop sw := sw + w[i]; end loop;
  for j in 1..p loop
    for i in 1..n loop mean[j] := mean[j] + w[i] * xs[(i - 1) * p + j] / sw; end loop;
    for i in 1..n loop var[j] := var[j] + w[i] * power(xs[(i - 1) * p + j] - mean[j], 2) / sw; end loop;
  end loop;
  a := pg_catalog.array_fill(0::double precision, array[p * p]);
  -- one triangle of the symmetric matrix, then its mirror; a comparable weighed down to 0 adds nothing
  for i in 1..n loop
    continue when w[i] = 0;
    for j in 1..p loop
      wx := w[i] * xs[(i - 1) * p + j];
      atb[j] := atb[j] + wx * y[i];
      for c in j..p loop
        a[(j - 1) * p + c] := a[(j - 1) * p + c] + wx * xs[(i - 1) * p + c];
      end loop;
    end loop;
  end loop;
  for j in 2..p loop
    for c in 1..j - 1 loop a[(j - 1) * p + c] := a[(c - 1) * p + j]; end loop;
    a[(j - 1) * p + j] := a[(j - 1) * p + j] + sw * (ridge * var[j] + 1e-6);
    atb[j] := atb[j] + sw * (ridge * var[j] + 1e-6) * prior[j] * pull;
  end loop;
  b := internal.solve_linear(a, atb);
  if b is null then
    b := array[internal.weighted_quantile(y, w, 0.5)] || (select pg_catalog.array_agg(v * pull) from unnest(prior[2:p]) v);
  end if;
end
$$;

-- A stage of public.estimate_value: the fit (internal.valuation_ridge), then once again with the
-- weights of how far each comparable misses the first: its coefficients `b` (the home's
-- ln(USD/m²) the intercept), each comparable's misfit `r`, the weights `w` it ended with and its matrix `a`.
create or replace function internal.valuation_fit(n integer, xs double precision[], y double precision[], w0 double precision[], inout w double precision[], k jsonb,
  out b double precision[], out r double precision[], out a double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  fit double precision;
begin
  for pass in 1..2 loop
    select * into b, a from internal.valuation_ridge(n, xs, y, w, k);
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
end
$$;

-- A stage of public.estimate_value: what the fit would have missed each of the `m` nearest
-- comparables by had it been made without it (its leave-one-out error: its misfit over one less its
-- leverage, exact for weighted least squares with a fixed ridge).
create or replace function internal.valuation_loo(m integer, xs double precision[], w double precision[], r double precision[], a double precision[])
returns double precision[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  p constant integer := 10;
  inv double precision[] := internal.inverse_matrix(a);
  e double precision[] := '{}';
  h double precision;
  v double precision;
begin
  for i in 1..m loop
    h := 0;
    if inv is not null and w[i] > 0 then
      for j in 1..p loop
        v := 0;
        for c in 1..p loop v := v + inv[(j - 1) * p + c] * xs[(i - 1) * p + c]; end loop;
        h := h + xs[(i - 1) * p + j] * v;
      end loop;
      h := least(w[i] * h, 0.95);
    end if;
    e := e || (r[i] / (1 - h));
  end loop;
  return e;
end
$$;

-- A stage of public.estimate_value: the simple rule, the median ln(USD/m²) of the `median_k`
-- comparables nearest the home (`med`), and what it misses each of the `m` nearest comparables by,
-- valued by the same rule from the others nearest it (`e_med`). Those the fit weighed down to
-- nothing (`w` 0: priced unlike their neighbours) count in neither: one of them among a dozen
-- would move a median by a whole rank.
create or replace function internal.valuation_median_rule(n integer, m integer, xs double precision[], y double precision[], w double precision[], k jsonb,
  out med double precision, out e_med double precision[])
language sql
immutable
set search_path = ''
as $$
  with c as (
    select u.j, u.y, u.w > 0 as counts, xs[(u.j - 1) * 10 + 9] as east, xs[(u.j - 1) * 10 + 10] as north
      from unnest(y, w) with ordinality u(y, w, j)
  )
  select (select percentile_cont(0.5) within group (order by h.y)
            from (select c.y from c where c.counts order by c.j limit (k ->> 'median_k')::integer) h),
         (select pg_catalog.array_agg(i.y - (select percentile_cont(0.5) within group (order by o.y)
                                                from (select o.y from c o where o.j <> i.j and o.counts
                                                       order by power(o.east - i.east, 2) + power(o.north - i.north, 2), o.j
                                                       limit (k ->> 'median_k')::integer) o) order by i.j)
            from c i where i.j <= m)
$$;

-- A stage of public.estimate_value: the regression and the median rule blended home by home as
-- their leave-one-out errors on the comparables say: each weighed by the inverse of its weighted
-- mean squared miss (`alpha`, the regression's share: 1 the regression alone, 0 the median alone;
-- weights fitted with the two errors' covariance swing with a single listing, these do not); the
-- home's ln(USD/m²) `at`, and what the blend would have missed each comparable by (`s`).
create or replace function internal.valuation_blend(m integer, w double precision[], e_reg double precision[], e_med double precision[], reg double precision,
  med double precision, out alpha double precision, out at double precision, out s double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  rr double precision := 0;
  mm double precision := 0;
begin
  for i in 1..m loop
    rr := rr + w[i] * e_reg[i] * e_reg[i];
    mm := mm + w[i] * e_med[i] * e_med[i];
  end loop;
  alpha := case when rr + mm <= 1e-12 then 1 else mm / (rr + mm) end;
  at := alpha * reg + (1 - alpha) * med;
  s := '{}';
  for i in 1..m loop s := s || (alpha * e_reg[i] + (1 - alpha) * e_med[i]); end loop;
end
$$;

-- A stage of public.estimate_value: the value and its range, from what the blend would have missed
-- the `m` nearest comparables by (`s`), the nearer weighing more (a tricube over 1.2 times the
-- distance `d` of the farthest of them), the home itself counted as one more of weight 1 whose miss
-- could be anything (locally weighted split conformal prediction: an 80% range), times the
-- `widen` constant; at least ±4%. How sure it is follows how many count and how wide it is;
-- `lo` and `hi`, the ends in ln before the widening (the benchmark chooses the widening from them).
create or replace function internal.valuation_range(m integer, s double precision[], d double precision[], at double precision, area double precision, k jsonb,
  out value double precision, out low double precision, out high double precision, out confidence text, out lo double precision, out hi double precision)
language plpgsql
immutable
set search_path = ''
as $$
declare
  widen constant double precision := (k ->> 'widen')::double precision;
  reach constant double precision := greatest(d[m] * 1.2, 1);
  c double precision[] := '{}';
  sw double precision := 0;
  sw2 double precision := 0;
  neff double precision;
begin
  for i in 1..m loop
    c := c || power(1 - power(least(d[i] / reach, 1), 3), 3);
    sw := sw + c[i]; sw2 := sw2 + c[i] * c[i];
  end loop;
  neff := sw * sw / sw2;
  hi := case when 0.9 * (sw + 1) >= sw then (select max(v) from unnest(s) v) else internal.weighted_quantile(s, c, 0.9 * (sw + 1) / sw) end;
  lo := case when 0.1 * (sw + 1) <= 1 then (select min(v) from unnest(s) v) else internal.weighted_quantile(s, c, (0.1 * (sw + 1) - 1) / sw) end;
  value := exp(at) * area;
  low := value * exp(least(lo * widen, -0.04));
  high := value * exp(greatest(hi * widen, 0.04));
  confidence := case when neff >= 12 and (high - low) / value <= 0.3 then 'high' when neff >= 5 and (high - low) / value <= 0.5 then 'medium' else 'low' end;
end
$$;

-- The estimate from its comparables (the stages after internal.valuation_comparables), with the
-- constants `k`: public.estimate_value's with internal.valuation_constants(), the benchmark's with
-- each it tries. `used`: how many comparables it read (the first, nearest).
create or replace function internal.valuation_of(n integer, d double precision[], xs double precision[], same boolean[], y double precision[], area double precision, k jsonb,
  out used integer, out value double precision, out low double precision, out high double precision, out confidence text, out alpha double precision,
  out lo double precision, out hi double precision, out b double precision[], out r double precision[], out w double precision[])
language plpgsql
immutable
set search_path = ''
as $$
declare
  m integer;
  wt record;
  fit record;
  mr record;
  bl record;
begin
  used := least(n, (k ->> 'count')::integer);
  m := least(used, 40);
  select * into wt from internal.valuation_weights(used, d[1:used], xs[1:used * 10], same[1:used], y[1:used], k);
  select * into fit from internal.valuation_fit(used, xs[1:used * 10], y[1:used], wt.w0, wt.w, k);
  select * into mr from internal.valuation_median_rule(used, m, xs[1:used * 10], y[1:used], fit.w, k);
  select * into bl from internal.valuation_blend(m, fit.w, internal.valuation_loo(m, xs, fit.w, fit.r, fit.a), mr.e_med, fit.b[1], mr.med);
  select v.value, v.low, v.high, v.confidence, v.lo, v.hi into value, low, high, confidence, lo, hi from internal.valuation_range(m, bl.s, d[1:m], bl.at, area, k) v;
  alpha := bl.alpha;
  b := fit.b;
  r := fit.r;
  w := fit.w;
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
returns jsonb
language plpgsql
stable
-- it reads the listings' rows and the saved searches (closed to the public key) to answer figures and a count
security definer
set search_path = ''
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

revoke execute on function internal.inverse_matrix(double precision[]), internal.valuation_constants(), internal.valuation_weights(integer, double precision[], double precision[], boolean[], double precision[], jsonb), internal.valuation_ridge(integer, double precision[], double precision[], double precision[], jsonb), internal.valuation_fit(integer, double precision[], double precision[], double precision[], double precision[], jsonb), internal.valuation_loo(integer, double precision[], double precision[], double precision[], double precision[]), internal.valuation_median_rule(integer, integer, double precision[], double precision[], double precision[], jsonb), internal.valuation_blend(integer, double precision[], double precision[], double precision[], double precision, double precision), internal.valuation_range(integer, double precision[], double precision[], double precision, double precision, jsonb), internal.valuation_of(integer, double precision[], double precision[], boolean[], double precision[], double precision, jsonb) from public, anon, authenticated;
grant execute on function internal.inverse_matrix(double precision[]), internal.valuation_constants(), internal.valuation_weights(integer, double precision[], double precision[], boolean[], double precision[], jsonb), internal.valuation_ridge(integer, double precision[], double precision[], double precision[], jsonb), internal.valuation_fit(integer, double precision[], double precision[], double precision[], double precision[], jsonb), internal.valuation_loo(integer, double precision[], double precision[], double precision[], double precision[]), internal.valuation_median_rule(integer, integer, double precision[], double precision[], double precision[], jsonb), internal.valuation_blend(integer, double precision[], double precision[], double precision[], double precision, double precision), internal.valuation_range(integer, double precision[], double precision[], double precision, double precision, jsonb), internal.valuation_of(integer, double precision[], double precision[], boolean[], double precision[], double precision, jsonb) to service_role;
