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

-- kept as the listings change, and made again after a bulk load: 33_listing_copies.sql
