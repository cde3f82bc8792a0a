-- The estimate may take a wider regression (issue 62; docs/valuation.md "The method", step 3):
-- beside the home's own local regression, one of a bandwidth `wide` times wider and a ridge `wide`²
-- times firmer, taken instead where it misses the comparables by less out of sample (their
-- leave-one-out errors, each weighed as the home's own regression weighs it); `wide` is a constant
-- chosen by the nested cross-validation with the others. The regression becomes a stage of its own
-- (internal.valuation_regression), the weighted squared misses a function both the blend and the
-- choice read (internal.weighted_square_miss); the blend, the estimate's stages and the constants
-- are restated.

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

revoke execute on function internal.weighted_square_miss(double precision[], double precision[]), internal.valuation_regression(integer, integer, double precision[], double precision[], boolean[], double precision[], jsonb) from public, anon, authenticated;
grant execute on function internal.weighted_square_miss(double precision[], double precision[]), internal.valuation_regression(integer, integer, double precision[], double precision[], boolean[], double precision[], jsonb) to service_role;
