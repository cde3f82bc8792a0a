-- Numbers the estimate works with (docs/valuation.md): linear systems, an inverse, weighted
-- quantiles and robust weights.

-- Solves a x = b for a square matrix (row by row in `a`) by Gaussian elimination with partial
-- pivoting; the estimate's weighted least squares (a handful of unknowns) are solved with it.
create or replace function internal.solve_linear(a double precision[], b double precision[])
returns double precision[] language plpgsql immutable set search_path = '' as $$
declare
  n integer := pg_catalog.array_length(b, 1);
  m double precision[] := a;
  x double precision[] := b;
  best integer;
  f double precision;
  t double precision;
begin
  for col in 1..n loop
    best := col;
    for r in col + 1..n loop
      if abs(m[(r - 1) * n + col]) > abs(m[(best - 1) * n + col]) then
        best := r;
      end if;
    end loop;
    if abs(m[(best - 1) * n + col]) < 1e-12 then
      return null;
    end if;
    if best <> col then
      for c in 1..n loop
        t := m[(col - 1) * n + c]; m[(col - 1) * n + c] := m[(best - 1) * n + c]; m[(best - 1) * n + c] := t;
      end loop;
      t := x[col]; x[col] := x[best]; x[best] := t;
    end if;
    for r in col + 1..n loop
      f := m[(r - 1) * n + col] / m[(col - 1) * n + col];
      if f <> 0 then
        for c in col..n loop
          m[(r - 1) * n + c] := m[(r - 1) * n + c] - f * m[(col - 1) * n + c];
        end loop;
        x[r] := x[r] - f * x[col];
      end if;
    end loop;
  end loop;
  for r in reverse n..1 loop
    t := x[r];
    for c in r + 1..n loop
      t := t - m[(r - 1) * n + c] * x[c];
    end loop;
    x[r] := t / m[(r - 1) * n + r];
  end loop;
  return x;
end
$$;

-- The inverse of a square matrix (row by row) by Gauss-Jordan elimination with partial pivoting;
-- null when it has none. The estimate's leverages are read from it.
create or replace function internal.inverse_matrix(a double precision[])
returns double precision[] language plpgsql immutable set search_path = '' as $$
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

-- The weighted quantile `q` of values with weights (both arrays the same length).
create or replace function internal.weighted_quantile(vals double precision[], weights double precision[], q double precision)
returns double precision language sql immutable set search_path = '' as $$
  with v as (
    select u.v, u.w, sum(u.w) over (order by u.v, u.n) as upto, sum(u.w) over () as total
      from unnest(vals, weights) with ordinality u(v, w, n)
     where u.w > 0
  )
  select v.v from v where v.upto >= q * v.total order by v.upto limit 1
$$;

-- Robust weights (docs/valuation.md, step 3): each weight times Tukey's bisquare of its deviation
-- over six median deviations; a deviation beyond that weighs nothing. The median deviation is the
-- plain one of all that count (weight above 0): weighed, it would stand on the few heaviest, and one
-- of them priced unlike the rest would move the scale that is to find it.
create or replace function internal.bisquare_weights(weights double precision[], deviations double precision[])
returns double precision[] language sql immutable set search_path = '' as $$
  select pg_catalog.array_agg(u.w * power(greatest(0, 1 - power(u.dev / greatest(s.scale, 1e-6), 2)), 2) order by u.n)
    from unnest(weights, deviations) with ordinality u(w, dev, n),
         (select pg_catalog.percentile_cont(0.5) within group (order by abs(v.dev)) * 6 as scale
            from unnest(weights, deviations) v(w, dev) where v.w > 0) s
$$;
