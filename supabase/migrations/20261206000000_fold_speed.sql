-- Folding text for search at a quarter of the cost (docs/decisions.md #29, "Speed").
--
-- search_fold() lowered A-Z with translate(), which for text of more than one byte per character
-- compares each character with each of the 26 letters: two thirds of folding a description, and
-- a listing's text is folded six times as it is stored (its words in two languages, its title's
-- words, its place, its city). lower() under the "C" collation lowers A-Z and nothing else, the
-- same rule (core/protocol/text.ts fold(); tests/contract/rules.test.ts holds both to one table of
-- cases), whatever the database's own collation. The stored values do not change.

create or replace function public.search_fold(value text)
returns text
language sql
immutable
parallel safe
as $$
  select pg_catalog.lower(
    pg_catalog.regexp_replace(pg_catalog.normalize(coalesce(value, ''), 'NFD'), E'[\u0300-\u036f]', '', 'g') collate pg_catalog."C")
$$;
