-- What the public key may ask of a column (docs/deployment.md "What the public key may ask").
--
-- On a hosted project the data API is Supabase's PostgREST: our server's bounds on a request
-- (server/stand-in/rest/parse.ts) never run there, and a filter of a hundred bytes may cost the database
-- seconds: a regular expression with back-references (`match`, `imatch`) takes 45 s on one title of
-- 60 characters, a LIKE pattern of a thousand wildcards half a second over the listings. So the
-- public relations give their columns types that offer no such operator, and the database refuses
-- the request before it runs:
-- - `public.plain_text`, the text a visitor may filter on: `match`/`imatch` take literal text only
--   (each of \^$.|?*+()[]{} escaped, as our directory sends a visitor's words) and are answered by
--   a plain search for that text; `like`/`ilike` take at most 200 characters and 8 wildcards;
-- - `public.plain_json`, JSON a client reads whole: its paths (`->`, `->>`), which would hand
--   their text to the regular expressions, are refused;
-- - long text a client reads but never filters (a listing's description) is `json`, which has
--   no comparison, pattern or order at all.
-- PostgREST sends every filter's value as a parameter of unknown type, which PostgreSQL reads as
-- the column's own type: so these operators, declared for the domain, are the ones that run.

create domain public.plain_text as text;
comment on domain public.plain_text is 'Text the public key may filter: match and imatch take literal text; like and ilike short patterns (docs/deployment.md).';

create domain public.plain_json as jsonb;
comment on domain public.plain_json is 'JSON the public key reads whole: no paths (docs/deployment.md).';

-- match (~) and imatch (~*): the pattern's text, unescaped, found in the value
create or replace function internal.literal_match(value text, pattern text, insensitive boolean)
returns boolean language plpgsql immutable strict parallel safe set search_path = '' as $$
begin
  if pattern !~ '^(?:[^\\^$.|?*+()[\]{}]|\\[\\^$.|?*+()[\]{}])*$' then
    raise exception 'match and imatch take literal text here: escape each of \^$.|?*+()[]{} with a backslash'
      using errcode = '22023', hint = 'No classes, repetitions or back-references (docs/data-api.md); ilike finds a part of a value.';
  end if;
  pattern := pg_catalog.regexp_replace(pattern, '\\(.)', '\1', 'g');
  if insensitive then
    return pg_catalog.strpos(pg_catalog.lower(value), pg_catalog.lower(pattern)) > 0;
  end if;
  return pg_catalog.strpos(value, pattern) > 0;
end
$$;

-- like (~~) and ilike (~~*): PostgreSQL's own, on a pattern of bounded size
create or replace function internal.bounded_like(value text, pattern text, insensitive boolean)
returns boolean language plpgsql immutable strict parallel safe set search_path = '' as $$
begin
  if pg_catalog.length(pattern) > 200 or pg_catalog.length(pattern) - pg_catalog.length(pg_catalog.replace(pattern, '%', '')) > 8 then
    raise exception 'like and ilike take patterns of at most 200 characters and 8 wildcards here'
      using errcode = '22023', hint = 'docs/data-api.md';
  end if;
  if insensitive then
    return value operator(pg_catalog.~~*) pattern;
  end if;
  return value operator(pg_catalog.~~) pattern;
end
$$;

create or replace function internal.plain_match(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.literal_match(value, pattern, false) $$;
create or replace function internal.plain_imatch(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.literal_match(value, pattern, true) $$;
create or replace function internal.plain_like(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.bounded_like(value, pattern, false) $$;
create or replace function internal.plain_ilike(value public.plain_text, pattern public.plain_text) returns boolean
language sql immutable strict parallel safe set search_path = '' as $$ select internal.bounded_like(value, pattern, true) $$;

create operator public.~ (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_match);
create operator public.~* (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_imatch);
create operator public.~~ (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_like);
create operator public.~~* (leftarg = public.plain_text, rightarg = public.plain_text, function = internal.plain_ilike);

-- a JSON path of plain_json: refused, whatever its key (a number, or text PostgREST sends untyped)
create or replace function internal.no_json_key(value public.plain_json, key text)
returns public.plain_text language plpgsql immutable parallel safe set search_path = '' as $$
begin
  raise exception 'this column is read whole: its JSON paths are not offered'
    using errcode = '22023', hint = 'docs/data-api.md';
end
$$;
create or replace function internal.no_json_index(value public.plain_json, key integer) returns public.plain_text
language sql immutable parallel safe set search_path = '' as $$ select internal.no_json_key(value, key::text) $$;
create or replace function internal.no_json_path(value public.plain_json, key public.plain_json) returns public.plain_text
language sql immutable parallel safe set search_path = '' as $$ select internal.no_json_key(value, key::text) $$;

create operator public.-> (leftarg = public.plain_json, rightarg = integer, function = internal.no_json_index);
create operator public.->> (leftarg = public.plain_json, rightarg = integer, function = internal.no_json_index);
create operator public.-> (leftarg = public.plain_json, rightarg = text, function = internal.no_json_key);
create operator public.->> (leftarg = public.plain_json, rightarg = text, function = internal.no_json_key);
create operator public.-> (leftarg = public.plain_json, rightarg = public.plain_json, function = internal.no_json_path);
create operator public.->> (leftarg = public.plain_json, rightarg = public.plain_json, function = internal.no_json_path);
