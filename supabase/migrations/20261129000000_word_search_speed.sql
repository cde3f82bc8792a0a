-- Word searches at the speed of the other filters (docs/decisions.md #27, "Speed of words").
--
-- A common word ("casa", "piscina") is in a quarter of the listings. Sorting every match to show 24
-- of them read 24,000 rows at 100,000 listings (50-70 ms), though the newest 24 matches are among
-- the newest few hundred listings. So a page with words is looked for in windows: the first
-- listings in the sort's order (an index holds that order, and a range of it is read with the
-- words' index), twenty times the rows the page needs; when a window holds enough matches, they
-- are the page's, since every match outside it comes later in the order. Else a larger window
-- (sized by the matches the first one held), and at last all the listings. Every window gives the
-- same page; the tests compare pages near and far with SQL written apart from this file.
--
-- "Best match" becomes an order windows can keep: the listings whose title or features hold the
-- words first, then those whose description does, newest first within each. ts_rank over the title
-- ordered the same listings almost the same way (a title names each word once or twice) and had to
-- rank every match first.
--
-- The page is chosen by id, then its columns are read for its rows only: sorting the whole rows of
-- 24,000 matches cost a third of the time.

-- Best match's first rank, read through an index of its own: a word seldom in titles ("chimenea")
-- finds its few first-rank listings without reading every match
create index listings_title_words on internal.listings using gin (title_words) where country_code = 'EC' and status = '1';

-- the listing's words are in its title or its features (Best match's first rank)
create or replace function internal.title_match(l internal.listings, f jsonb)
returns boolean
language sql
stable
as $$
  select l.title_words @@ public.words_query(f->>'words')
$$;

-- a walk order of the search (newest, price_asc, price_desc) as the ORDER BY of a table alias:
-- the order an index holds (listings_recent, listings_price_asc, listings_price_desc)
create or replace function internal.walk_order(sort text, alias text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case sort
    when 'price_asc' then pg_catalog.format('%1$s.price asc nulls last, %1$s.id asc', alias)
    when 'price_desc' then pg_catalog.format('%1$s.price desc nulls last, %1$s.id desc', alias)
    else pg_catalog.format('%1$s.created_at desc, %1$s.id desc', alias) end
$$;

-- the first `need` matches' ids in a sort's order (a walk order of the search: newest, price_asc,
-- price_desc), of those whose title matches or does not when `title` is 'title' or 'not title'
create or replace function internal.first_matches(f jsonb, title text, sort text, need integer)
returns bigint[]
language plpgsql
stable
set search_path = ''
as $$
declare
  key text := case sort when 'newest' then 'created_at' else 'price' end;
  -- a window is the listings from the first in the order to its edge, ties included
  within text := case sort when 'price_asc' then 'l.price <= $2::numeric' when 'price_desc' then 'l.price >= $2::numeric' else 'l.created_at >= $2::timestamptz' end;
  -- words in the title are in the listing's words, unless the words exclude one (-ruido): then the
  -- title's match needs no test of the whole text, which is the cost of a common word
  condition text := case
    when title = 'title' and pg_catalog.strpos(public.words_query(f->>'words')::text, '!') = 0
      then 'internal.listing_matches(l, $1 - ''words'') and internal.title_match(l, $1)'
    when title = 'title' then 'internal.listing_matches(l, $1) and internal.title_match(l, $1)'
    when title = 'not title' then 'internal.listing_matches(l, $1) and not internal.title_match(l, $1)'
    else 'internal.listing_matches(l, $1)' end;
  size bigint := need::bigint * 20;
  edge text;
  ids bigint[];
begin
  if need <= 0 then
    return '{}';
  end if;
  loop
    -- the window's edge: the sort key of its last listing (none: the window is every listing)
    edge := null;
    -- (a window is read row by row: past a few thousand rows every match through the words' index
    -- is cheaper)
    if size <= 5000 then
      execute 'select w.' || key || '::text from internal.listings w where internal.is_public_listing(w.country_code, w.status) order by '
        || internal.walk_order(sort, 'w') || ' offset $1 limit 1'
        into edge using size - 1;
    end if;
    perform internal.prefer_word_index(f, true);
    if edge is null then
      execute 'select array(select l.id from internal.listings l where ' || condition || ' order by '
        || internal.walk_order(sort, 'l') || ' limit $2)'
        into ids using f, need;
      perform internal.prefer_word_index(f, false);
      exit;
    end if;
    execute 'select array(select l.id from internal.listings l where ' || condition || ' and ' || within
      || ' order by ' || internal.walk_order(sort, 'l') || ' limit $3)'
      into ids using f, edge, need;
    perform internal.prefer_word_index(f, false);
    exit when pg_catalog.cardinality(ids) >= need;
    -- the next window: large enough for the matches this one held to fill the page, twice over
    size := case when pg_catalog.cardinality(ids) = 0 then size * 20 else pg_catalog.ceil(size * need * 2.0 / pg_catalog.cardinality(ids))::bigint end;
  end loop;
  return ids;
end
$$;

create or replace function public.search_listings(
  filters jsonb default '{}',
  sort text default 'featured',
  page_size integer default 24,
  page_offset integer default 0
)
returns setof public.listings
language plpgsql
stable
-- it reads internal.listings for the public key; only the public listings (listing_matches checks
-- is_public_listing) and only the view's columns
security definer
set search_path = ''
as $$
declare
  f jsonb := internal.search_filters(filters);
  walk text;
  columns text;
  need integer;
  ids bigint[];
begin
  if page_size is null or page_size not between 1 and 1000 or page_offset is null or page_offset < 0 then
    raise exception 'page_size must be 1 to 1000 and page_offset 0 or more' using errcode = '22023';
  end if;
  walk := case coalesce(sort, 'featured')
    when 'price_asc' then 'price_asc' when 'price_desc' then 'price_desc'
    when 'relevance' then 'newest' when 'featured' then 'newest' when 'newest' then 'newest' end;
  if walk is null then
    raise exception 'sort must be featured, newest, price_asc, price_desc or relevance' using errcode = '22023';
  end if;
  -- the view's columns, read from the catalogue: the view stays the one list of what is public
  select pg_catalog.string_agg('l.' || pg_catalog.quote_ident(a.attname), ', ' order by a.attnum) into columns
  from pg_catalog.pg_attribute a
  where a.attrelid = 'public.listings'::regclass and a.attnum > 0 and not a.attisdropped;

  if not (f ? 'words' and pg_catalog.numnode(public.words_query(f->>'words')) > 0) then
    return query execute
      'select ' || columns || ' from internal.listings l where internal.listing_matches(l, $1) order by ' || internal.walk_order(walk, 'l') || ' limit $2 offset $3'
      using f, page_size, page_offset;
    return;
  end if;

  need := page_offset + page_size;
  if sort = 'relevance' then
    ids := internal.first_matches(f, 'title', walk, need);
    ids := ids || internal.first_matches(f, 'not title', walk, need - pg_catalog.cardinality(ids));
  else
    ids := internal.first_matches(f, '', walk, need);
  end if;
  return query execute
    'select ' || columns || ' from pg_catalog.unnest($1) with ordinality as p(id, n) join internal.listings l on l.id = p.id order by p.n'
    using ids[page_offset + 1:];
end
$$;

revoke execute on function public.search_listings, internal.first_matches from public;
grant execute on function public.search_listings to anon, authenticated, service_role;
