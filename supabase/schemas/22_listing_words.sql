-- The words of the public listings in a narrow table of their own (docs/decisions.md #27, "Speed
-- of words"), so counting a common word and listing its matches' ids read fewer, smaller pages.
--
-- A word's matches are found through a GIN index, which knows rows, not ids: counting them, or
-- listing their ids for the other filters and the map's clusters (internal.word_match_ids), visits
-- the row of every match. A listing's row is wide (its words, title words, description, photos and
-- some sixty other columns), so "casa" (a quarter of the market) visited 14,000 pages of the
-- listings, the p95 of a word search at 100,000 listings. internal.listing_words holds only the id
-- and the words: at 100,000 listings, "casa" is counted in about half the time, and the clusters of
-- a word in a drawn area lose a third (docs/benchmarks.md). The words stay in the row: PostgreSQL
-- moves a value out of line only from rows over about 2 KB (toast_tuple_target does not lower that
-- threshold), and these rows are about 1 KB.
--
-- It is a copy that statement triggers keep equal to the public listings' words, as the places'
-- counts are kept: internal.listing_matches() (l.words @@ ...) stays the rule, and the tests hold
-- the copy to it after inserts, edits, withdrawals, relistings and deletes (tests/contract/
-- word-copy.test.ts).

create table internal.listing_words (
  id bigint primary key,
  words tsvector not null,
  -- sale or rent: a count of words alone is of the sales (what no operation means)
  operation text not null default 'sale'
);

comment on table internal.listing_words is 'The words of each public listing (internal.listings.words), kept by triggers: counts and id lists of word searches read it.';

create index listing_words_words on internal.listing_words using gin (words);

-- keeps the copy: a listing that becomes public (or changes its words) is written, one that stops
-- being public (withdrawn, deleted) is taken out
create or replace function internal.listing_words_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a bulk load (the seed, a large import) makes the copy once at its end (listings_derived_rebuild)
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  -- each statement names only the transition tables its event has
  if tg_op = 'DELETE' then
    delete from internal.listing_words w using old_rows o where w.id = o.id;
  elsif tg_op = 'UPDATE' then
    delete from internal.listing_words w
     using old_rows o
     where w.id = o.id
       and not exists (select 1 from new_rows n where n.id = o.id and internal.is_public_listing(n.country_code, n.status) and n.words is not null);
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation
      from new_rows n
     where internal.is_public_listing(n.country_code, n.status) and n.words is not null
       and not exists (select 1 from old_rows o where o.id = n.id and o.words = n.words and o.operation = n.operation and internal.is_public_listing(o.country_code, o.status))
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
  else
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation from new_rows n where internal.is_public_listing(n.country_code, n.status) and n.words is not null
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
  end if;
  return null;
end
$$;

create trigger listing_words_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.listing_words_changed();

create trigger listing_words_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.listing_words_changed();

create trigger listing_words_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.listing_words_changed();

-- every copy of what the listings say, made again from them: the map's cells and the places'
-- counts (listing_cells_rebuild) and the words' copy, after a bulk load that deferred them
create or replace function internal.listings_derived_rebuild()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.listing_cells_rebuild();
  delete from internal.listing_words;
  insert into internal.listing_words (id, words, operation)
  select l.id, l.words, l.operation from internal.listings l where internal.is_public_listing(l.country_code, l.status) and l.words is not null;
end
$$;
