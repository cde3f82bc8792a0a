-- The two rules the browser applies too, made the same as the browser's
-- (supabase/functions/_shared/protocol/text.ts; tests/contract/rules.test.ts holds them to one
-- table of cases):
-- - search_fold(): Unicode decomposition, combining marks dropped, A-Z lowered. It used to
--   translate a fixed list of accented letters, which left others (and the browser's answer for
--   them) apart. Lowering only A-Z keeps the answer independent of the database's collation.
-- - parse_coordinate(): a plain decimal with '.' or ',' as the mark, '.5' allowed, any number of
--   decimals, no exponent. A feed's '-0,18' or '.5' used to be a pin for the browser but no
--   position for the database, so "Search this area" missed it.
-- The generated columns that use them are recomputed (an update rewrites stored generated columns).

create or replace function public.search_fold(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select translate(regexp_replace(normalize(coalesce(value, ''), NFD), E'[\u0300-\u036f]', '', 'g'),
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
$$;

create or replace function public.parse_coordinate(value text, max_abs double precision)
returns double precision
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when value ~ '^\s*[-+]?([0-9]+([.,][0-9]+)?|[.,][0-9]+)\s*$' then
      case when abs(replace(btrim(value, E' \t\n\r\f\v'), ',', '.')::double precision) <= max_abs
           then replace(btrim(value, E' \t\n\r\f\v'), ',', '.')::double precision end
  end
$$;

update internal.listings set city = city;
update public.agents set first_name = first_name;
