-- What a search's filters `f` ask of a listing `l` (docs/decisions.md #25): the one text of the
-- conditions. The search, its count and the map's clusters write it into the statement they run
-- (EXECUTE, planned for the filters given: each filter not given folds away and each given one is a
-- condition on its index, as an inlined function would plan); internal.listing_matches() below is
-- made from it, for those that test one listing against many searches (the alerts, buyer demand).
-- As text, not an inlinable SQL function, because the functions pin their search path (Supabase's
-- advisor, docs/deployment.md "The advisor"), which stops the planner from inlining them.
create or replace function internal.listing_conditions()
returns text language sql immutable parallel safe set search_path = ''
as $body$
  select $conditions$
    l.is_public
    and (f->>'property_type' is null or l.property_type ilike internal.contains_pattern(f->>'property_type'))
    and (f->>'price_min' is null or l.price >= (f->>'price_min')::numeric)
    and (f->>'price_max' is null or l.price <= (f->>'price_max')::numeric)
    and (f->>'beds_min' is null or l.bedrooms >= (f->>'beds_min')::numeric)
    and (f->>'baths_min' is null or l.bathrooms >= (f->>'baths_min')::numeric)
    and (f->>'area_min' is null or l.square_feet >= (f->>'area_min')::numeric)
    and (f->>'area_max' is null or l.square_feet <= (f->>'area_max')::numeric)
    and (f->>'city' is null or l.place_search like internal.contains_pattern(public.search_fold(f->>'city')))
    and (f->>'place' is null or case
           when f->>'place' like 'provincia/%' then l.state_slug = pg_catalog.substr(f->>'place', 11)
           else l.city_slug = pg_catalog.split_part(f->>'place', '/', 1)
                and (pg_catalog.split_part(f->>'place', '/', 2) = '' or l.sector_slug = pg_catalog.split_part(f->>'place', '/', 2))
         end)
    and (f->'features' is null or l.features @> internal.jsonb_texts(f->'features'))
    and (f->>'year_min' is null or l.year_built >= (f->>'year_min')::integer)
    and (f->>'year_max' is null or l.year_built <= (f->>'year_max')::integer)
    and (f->>'lot_min' is null or l.lot_size >= (f->>'lot_min')::numeric)
    and (f->>'lot_max' is null or l.lot_size <= (f->>'lot_max')::numeric)
    and (f->>'agent' is null or l.agent_id = (f->>'agent')::bigint)
    and (f->>'area_south' is null or l.lat >= (f->>'area_south')::double precision)
    and (f->>'area_north' is null or l.lat <= (f->>'area_north')::double precision)
    and (f->>'area_west' is null or l.lng >= (f->>'area_west')::double precision)
    and (f->>'area_east' is null or l.lng <= (f->>'area_east')::double precision)
    -- words that are only stop words or signs ask for nothing
    and (f->>'words' is null or pg_catalog.numnode(public.words_query(f->>'words')) = 0 or l.words @@ public.words_query(f->>'words'))
    and (f->'polygon' is null or l.location <@ internal.area_polygon(f->'polygon'))
    -- an open house in the next seven days (or under way): docs/visits.md "Open houses"
    and (f->>'open_house' is null or l.open_houses && pg_catalog.tstzrange(internal.now(), internal.now() + interval '7 days'))
    -- for sale unless the search says rent or new developments (docs/product.md "Rent and buy")
    and l.operation = coalesce(f->>'operation', 'sale')
    -- a new development delivered by the end of a year (its listing's year built), or already (docs/projects.md)
    and (f->>'delivery_by' is null or l.project->>'stage' = 'delivered' or l.year_built <= (f->>'delivery_by')::integer)
    and (f->>'stage' is null or l.project->>'stage' = f->>'stage')
    -- the facts of docs/product.md "The facts of a listing": a listing that does not say its
    -- alícuota is kept by a maximum (as a house outside a condominium pays none)
    and (f->>'hoa_max' is null or coalesce(l.hoa_fee, 0) <= (f->>'hoa_max')::numeric)
    and (f->>'parking_min' is null or l.parking_spaces >= (f->>'parking_min')::integer)
    and (f->>'storage' is null or l.storage_unit)
    and (f->>'furnished' is null or l.furnished = 'yes')
    and (f->>'pets' is null or l.pets_allowed)
  $conditions$
$body$;

-- The filters `f` in a statement that runs internal.listing_conditions(): `filters`, an expression
-- of the statement (a parameter, '$1'), as the relation the conditions read `f` from.
create or replace function internal.filters_as_f(filters text)
returns text language sql immutable parallel safe set search_path = '' as $$
  select '(select (' || filters || ')::jsonb as f) as filters_f'
$$;

-- whether a listing matches a search's filters, one at a time
do $$
begin
  execute pg_catalog.format(
    'create or replace function internal.listing_matches(l internal.listings, f jsonb) returns boolean language sql stable parallel safe set search_path = %L as %L',
    '', 'select ' || internal.listing_conditions());
end
$$;

-- the filters as the calls take them: a JSON object; nulls and empty texts are no filter (as
-- public.listing_clusters reads them)
create or replace function internal.search_filters(filters jsonb)
returns jsonb language plpgsql immutable set search_path = '' as $$
declare
  f jsonb := pg_catalog.jsonb_strip_nulls(coalesce(filters, '{}'));
begin
  if pg_catalog.jsonb_typeof(f) <> 'object' then
    raise exception 'filters must be a JSON object' using errcode = '22023';
  end if;
  select coalesce(pg_catalog.jsonb_object_agg(key, value), '{}') into f from pg_catalog.jsonb_each(f) where value <> '""'::jsonb;
  -- a sale is what no operation means: one search, one set of filters (the map's kept cells)
  if f ? 'operation' and f->>'operation' not in ('sale', 'rent', 'project') then
    raise exception 'operation must be sale, rent or project' using errcode = '22023';
  end if;
  if f->>'operation' = 'sale' then
    f := f - 'operation';
  end if;
  return f;
end
$$;

-- With words, the planner is told to read the words' GIN index: it prices a tsvector match like a
-- comparison, though each row's tsvector must be decompressed, and for a common word ("casa",
-- a quarter of the listings) it chose to test every active listing instead (280 ms against 38 ms
-- at 100,000 listings). Only for this call: what the settings were comes back after it.
create or replace function internal.prefer_word_index(f jsonb, active boolean)
returns void language plpgsql set search_path = '' as $$
begin
  if active and f ? 'words' then
    perform pg_catalog.set_config('exp.indexscan', pg_catalog.current_setting('enable_indexscan'), true),
            pg_catalog.set_config('exp.seqscan', pg_catalog.current_setting('enable_seqscan'), true),
            pg_catalog.set_config('enable_indexscan', 'off', true),
            pg_catalog.set_config('enable_seqscan', 'off', true);
  elsif not active and f ? 'words' then
    perform pg_catalog.set_config('enable_indexscan', pg_catalog.current_setting('exp.indexscan'), true),
            pg_catalog.set_config('enable_seqscan', pg_catalog.current_setting('exp.seqscan'), true);
  end if;
end
$$;

create or replace function public.search_listings(
  filters jsonb default '{}',
  sort text default 'featured',
  page_size integer default 24,
  page_offset integer default 0
)
returns setof public.listings language plpgsql stable
-- it reads internal.listings for the public key; only the public listings (the conditions check
-- is_public) and only the view's columns
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
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
  -- more than a page, asked through a hosted project's PostgREST by the public key: one of the two
  -- turns of a read whose size the client chooses (98_data_api_gate.sql)
  if page_size > 48 and pg_catalog.current_setting('role', true) = 'anon' and pg_catalog.current_setting('request.path', true) is not null then
    perform internal.take_bulk_turn();
  end if;
  walk := case coalesce(sort, 'featured')
    when 'price_asc' then 'price_asc' when 'price_desc' then 'price_desc'
    when 'relevance' then 'newest' when 'featured' then 'newest' when 'newest' then 'newest' end;
  if walk is null then
    raise exception 'sort must be featured, newest, price_asc, price_desc or relevance' using errcode = '22023';
  end if;
  columns := internal.public_listing_columns('l');

  if not (f ? 'words' and pg_catalog.numnode(public.words_query(f->>'words')) > 0) then
    return query execute
      'select ' || columns || ' from internal.listings l, ' || internal.filters_as_f('$1') || ' where ' || internal.listing_conditions()
        || ' order by ' || internal.walk_order(walk, 'l') || ' limit $2 offset $3'
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

-- The exact number of matching listings.
create or replace function public.search_listings_count(filters jsonb default '{}')
returns bigint language plpgsql stable security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  f jsonb := internal.search_filters(filters);
  n bigint;
begin
  if f - 'words' = '{}'::jsonb then
    if f->>'words' is not null and pg_catalog.numnode(public.words_query(f->>'words')) > 0 then
      -- words alone: counted in the narrow copy
      perform internal.prefer_word_index(f, true);
      select count(*) into n from internal.listing_words w where w.operation = 'sale' and w.words @@ public.words_query(f->>'words');
      perform internal.prefer_word_index(f, false);
      return n;
    end if;
    -- nothing asked (or only stop words): every public listing
    execute 'select count(*) from internal.listings l, ' || internal.filters_as_f('$1') || ' where ' || internal.listing_conditions()
      into n using '{}'::jsonb;
    return n;
  end if;
  -- a null array folds away in EXECUTE's one-shot plan, and an array becomes a hashed condition
  execute 'select count(*) from internal.listings l, ' || internal.filters_as_f('$1') || ' where ' || internal.listing_conditions()
    || ' and ($2::bigint[] is null or l.id + 0 = any($2))'
    into n using f - 'words', internal.word_match_ids(f);
  return n;
end
$$;

-- a walk order of the search (newest, price_asc, price_desc) as the ORDER BY of a table alias:
-- the order an index holds (listings_recent, listings_price_asc, listings_price_desc)
create or replace function internal.walk_order(sort text, alias text)
returns text language sql immutable set search_path = '' as $$
  select case sort
    when 'price_asc' then pg_catalog.format('%1$s.price asc nulls last, %1$s.id asc', alias)
    when 'price_desc' then pg_catalog.format('%1$s.price desc nulls last, %1$s.id desc', alias)
    else pg_catalog.format('%1$s.created_at desc, %1$s.id desc', alias) end
$$;

-- the first `need` matches' ids in a sort's order (a walk order of the search: newest, price_asc,
-- price_desc), of those whose title matches or does not when `title` is 'title' or 'not title'
create or replace function internal.first_matches(f jsonb, title text, sort text, need integer)
returns bigint[] language plpgsql stable set search_path = '' as $$
declare
  key text := case sort when 'newest' then 'created_at' else 'price' end;
  -- a window is the listings from the first in the order to its edge, ties included
  within text := case sort when 'price_asc' then 'l.price <= $2::numeric' when 'price_desc' then 'l.price >= $2::numeric' else 'l.created_at >= $2::timestamptz' end;
  -- the listing's words are in its title or its features (Best match's first rank); words in the
  -- title are in the listing's words, unless the words exclude one (-ruido): then the title's match
  -- needs no test of the whole text, which is the cost of a common word
  in_title constant text := 'l.title_words @@ public.words_query($1->>''words'')';
  matching text := 'internal.listings l, '
    || internal.filters_as_f(case when title = 'title' and pg_catalog.strpos(public.words_query(f->>'words')::text, '!') = 0 then '$1 - ''words''' else '$1' end)
    || ' where ' || internal.listing_conditions()
    || case title when 'title' then ' and ' || in_title when 'not title' then ' and not ' || in_title else '' end;
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
      execute 'select w.' || key || '::text from internal.listings w where w.is_public order by '
        || internal.walk_order(sort, 'w') || ' offset $1 limit 1'
        into edge using size - 1;
    end if;
    perform internal.prefer_word_index(f, true);
    if edge is null then
      execute 'select array(select l.id from ' || matching || ' order by '
        || internal.walk_order(sort, 'l') || ' limit $2)'
        into ids using f, need;
      perform internal.prefer_word_index(f, false);
      exit;
    end if;
    execute 'select array(select l.id from ' || matching || ' and ' || within
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

-- the ids of the public listings whose words match, from the narrow copy (its GIN index: the
-- planner would otherwise test the words of every row of a common word's table)
create or replace function internal.word_match_ids(f jsonb)
returns bigint[] language plpgsql stable set search_path = '' as $$
declare
  ids bigint[];
begin
  if f->>'words' is null or pg_catalog.numnode(public.words_query(f->>'words')) = 0 then
    return null;
  end if;
  perform internal.prefer_word_index(f, true);
  ids := array(select w.id from internal.listing_words w where w.words @@ public.words_query(f->>'words'));
  perform internal.prefer_word_index(f, false);
  return ids;
end
$$;
