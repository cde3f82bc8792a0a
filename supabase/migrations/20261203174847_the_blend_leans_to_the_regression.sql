-- The blend leans toward the regression (issue 62; docs/valuation.md "The method", step 6): the
-- regression's share, weighed from forty comparables' leave-one-out misses, is drawn toward the
-- regression by a constant of its own (`lean`, chosen by the nested cross-validation with the
-- others). Only the blend, the stage that passes it the constant, and the constants change (the
-- run that chose `lean` chose a wider bandwidth and a firmer ridge with it).

drop function internal.valuation_blend(integer, double precision[], double precision[], double precision[], double precision, double precision);

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
  select '{"count": 80, "bandwidth_rank": 24, "size_sigma": 0.5, "sector_weight": 2, "ridge": 0.2, "prior": 1, "median_k": 12, "lean": 1, "widen": 0.85}'::jsonb
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
  rr double precision := 0;
  mm double precision := 0;
begin
  for i in 1..m loop
    rr := rr + w[i] * e_reg[i] * e_reg[i];
    mm := mm + w[i] * e_med[i] * e_med[i];
  end loop;
  alpha := case when rr + mm <= 1e-12 then 1 else (1 + lean) * mm / ((1 + lean) * mm + rr) end;
  at := alpha * reg + (1 - alpha) * med;
  s := '{}';
  for i in 1..m loop s := s || (alpha * e_reg[i] + (1 - alpha) * e_med[i]); end loop;
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
  select * into bl from internal.valuation_blend(m, fit.w, internal.valuation_loo(m, xs, fit.w, fit.r, fit.a), mr.e_med, fit.b[1], mr.med,
                                                    (k ->> 'lean')::double precision);
  select v.value, v.low, v.high, v.confidence, v.lo, v.hi into value, low, high, confidence, lo, hi from internal.valuation_range(m, bl.s, d[1:m], bl.at, area, k) v;
  alpha := bl.alpha;
  b := fit.b;
  r := fit.r;
  w := fit.w;
end
$$;

revoke execute on function internal.valuation_blend(integer, double precision[], double precision[], double precision[], double precision, double precision, double precision) from public, anon, authenticated;
grant execute on function internal.valuation_blend(integer, double precision[], double precision[], double precision[], double precision, double precision, double precision) to service_role;
