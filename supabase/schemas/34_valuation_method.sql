-- The estimate's method (docs/valuation.md "The method"): from the comparables that
-- internal.valuation_comparables finds (34_valuation.sql), their weights, the local regression,
-- the median rule, their blend by leave-one-out errors and the conformal range, each a stage, with
-- the constants chosen out of sample.

-- The estimate's constants (docs/valuation.md "Constants"): how many comparables it reads, the
-- comparable whose distance sets the nearness weights, the likeness in size, the weight of the
-- home's own sector, the ridge and how much of the prior it pulls toward, the neighbours of the
-- median rule, how much wider the regression it may take instead of the home's own is (`wide`, 0:
-- none) and the range's widening. Chosen by nested cross-validation across the benchmark's
-- markets (`npm run bench -- valuation`, which says whether these are still what it would choose).
create or replace function internal.valuation_constants()
returns jsonb language sql immutable set search_path = '' as $$
  select '{"count": 80, "bandwidth_rank": 12, "size_sigma": 0.3, "sector_weight": 2, "ridge": 0.05, "prior": 1, "median_k": 12, "lean": 1, "wide": 2, "widen": 0.85}'::jsonb
$$;

-- A stage of public.estimate_value: each comparable's weight of nearness and likeness (`w0`), and
-- that weighed down by how far its USD/m² is from their weighted median (`w`).
create or replace function internal.valuation_weights(n integer, d double precision[], xs double precision[], same boolean[], y double precision[], k jsonb,
  out w0 double precision[], out w double precision[])
language plpgsql immutable set search_path = '' as $$
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
language plpgsql immutable set search_path = '' as $$
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
language plpgsql immutable set search_path = '' as $$
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
returns double precision[] language plpgsql immutable set search_path = '' as $$
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
language sql immutable set search_path = '' as $$
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

-- What a rule's leave-one-out misses `e` of the nearest comparables weigh, each squared and
-- weighed by the comparable's weight `w` (the sum the blend and the choice of the regression read).
create or replace function internal.weighted_square_miss(w double precision[], e double precision[])
returns double precision language sql immutable set search_path = '' as $$
  select coalesce(sum(u.w * u.e * u.e), 0) from unnest(w[1:pg_catalog.cardinality(e)], e) u(w, e)
$$;

-- A stage of public.estimate_value: one local regression of the `n` comparables with the constants
-- `k`: their weights (internal.valuation_weights), the fit (internal.valuation_fit: its
-- coefficients `b`, misfits `r` and the weights `w` it ended with) and what it would have missed
-- each of the `m` nearest by (`e`, internal.valuation_loo).
create or replace function internal.valuation_regression(n integer, m integer, d double precision[], xs double precision[], same boolean[], y double precision[], k jsonb,
  out b double precision[], out r double precision[], out w double precision[], out e double precision[])
language plpgsql immutable set search_path = '' as $$
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
language plpgsql immutable set search_path = '' as $$
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

-- A stage of public.estimate_value: the value and its range, from what the blend would have missed
-- the `m` nearest comparables by (`s`), the nearer weighing more (a tricube over 1.2 times the
-- distance `d` of the farthest of them), the home itself counted as one more of weight 1 whose miss
-- could be anything (locally weighted split conformal prediction: an 80% range), times the
-- `widen` constant; at least ±4%. How sure it is follows how many count and how wide it is;
-- `lo` and `hi`, the ends in ln before the widening (the benchmark chooses the widening from them).
create or replace function internal.valuation_range(m integer, s double precision[], d double precision[], at double precision, area double precision, k jsonb,
  out value double precision, out low double precision, out high double precision, out confidence text, out lo double precision, out hi double precision)
language plpgsql immutable set search_path = '' as $$
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
-- each it tries. `used`: how many comparables it read (the first, nearest). The regression is the
-- home's own (`near`), or, when `wide` is more than 0, the one of a bandwidth `wide` times wider and
-- a ridge `wide`² times firmer (`far`: fewer local terms, each drawn harder to its prior) where that
-- one misses the comparables by less, out of sample, each weighed as the home's own weighs it
-- (docs/valuation.md "The method", step 5). The median rule and the blend weigh the comparables
-- as the home's own regression does.
create or replace function internal.valuation_of(n integer, d double precision[], xs double precision[], same boolean[], y double precision[], area double precision, k jsonb,
  out used integer, out value double precision, out low double precision, out high double precision, out confidence text, out alpha double precision,
  out lo double precision, out hi double precision, out b double precision[], out r double precision[], out w double precision[])
language plpgsql immutable set search_path = '' as $$
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
