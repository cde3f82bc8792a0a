create table internal.import_sources (
  name text primary key,
  kind text not null check (kind in ('reso', 'reso-json', 'csv', 'kyero')),
  location text not null,
  -- RESO: the greatest ModificationTimestamp read; the next incremental run reads from it (minus an overlap)
  high_water timestamptz,
  last_full_at timestamptz,
  last_run_at timestamptz
);

alter table internal.import_sources enable row level security;

create table internal.import_runs (
  id bigint generated always as identity primary key,
  source text not null,
  kind text not null,
  mode text not null check (mode in ('full', 'incremental')),
  started_at timestamptz not null default internal.now(),
  finished_at timestamptz,
  -- running, done, held (withdrawals held back), empty (the feed had nothing), failed
  outcome text not null default 'running',
  new integer not null default 0,
  updated integer not null default 0,
  unchanged integer not null default 0,
  withdrawn integer not null default 0,
  quarantined integer not null default 0,
  photos_fetched integer not null default 0,
  photos_failed integer not null default 0,
  message text,
  report jsonb not null default '{}'
);

alter table internal.import_runs enable row level security;

create index import_runs_source on internal.import_runs (source, started_at desc);

create table internal.import_staging (
  run_id bigint not null references internal.import_runs (id) on delete cascade,
  source_key text not null,
  listing jsonb not null,
  primary key (run_id, source_key)
);

alter table internal.import_staging enable row level security;

-- keys a feed lists (a RESO full run's key listing, quarantined records): still in the feed, not withdrawn
create table internal.import_seen (
  run_id bigint not null references internal.import_runs (id) on delete cascade,
  source_key text not null,
  primary key (run_id, source_key)
);

alter table internal.import_seen enable row level security;

create table internal.photos (
  -- one feed photo as named: fetched again only when one of these changes
  url text not null,
  media_key text not null,
  modified text not null default '',
  hash text,
  width integer,
  height integer,
  bytes integer,
  error text,
  fetched_at timestamptz not null default internal.now(),
  primary key (url, media_key, modified)
);

alter table internal.photos enable row level security;

-- A stage of internal.import_merge: what the run would do, before it does it: the source's active
-- listings, the staged ones, those it withdraws by their status and those absent from the feed.
create or replace function internal.import_counts(run bigint, source_name text, absent_withdraws boolean)
returns table (active_before integer, staged integer, leaving integer, absent integer)
language sql stable set search_path = '' as $$
  select (select count(*)::integer from internal.listings where source = source_name and status = '1'),
         (select count(*)::integer from internal.import_staging where run_id = run),
         (select count(*)::integer
            from internal.listings l join internal.import_staging s on s.run_id = run and s.source_key = l.source_key
           where l.source = source_name and l.status = '1' and s.listing->>'status' <> '1'),
         (select count(*)::integer
            from internal.listings l
           where absent_withdraws and l.source = source_name and l.status = '1'
             and not exists (select 1 from internal.import_staging s where s.run_id = run and s.source_key = l.source_key)
             and not exists (select 1 from internal.import_seen s where s.run_id = run and s.source_key = l.source_key))
$$;

-- A stage of internal.import_merge: the agents the run names that are not ours, each named once (a
-- feed names a few hundred agents over a hundred thousand listings).
create or replace function internal.import_unknown_agents(run bigint)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(distinct coalesce(d.agent_key, d.agent_email)), '[]')
    from (select distinct s.listing->>'agent_key' as agent_key, s.listing->>'agent_email' as agent_email
            from internal.import_staging s where s.run_id = run) d
   where coalesce(d.agent_key, d.agent_email) is not null
     and not exists (select 1 from public.agents a where a.agent_key = d.agent_key or lower(a.email) = d.agent_email)
$$;

-- A stage of internal.import_merge: the staged listings as rows, with their words and whose each
-- agent named is (pg_temp.import_matched). The words are computed for the listings that are new or
-- whose text changed (a whole feed sent again is mostly neither); the others' are their listings'.
create or replace function internal.import_matched(run bigint, source_name text)
returns void language plpgsql volatile set search_path = '' as $$
begin
  -- those listings' words, in one query PostgreSQL runs on every core (an INSERT runs on one).
  -- The planner chooses that from the staging table's statistics (import_merge takes them first:
  -- those of an empty table left 100,000 listings' words on one core, 12.3 s) and from the function's
  -- cost, which it counts per row only in a select list (in FROM, once); `offset 0` keeps it there,
  -- called once per listing.
  drop table if exists pg_temp.import_words;
  create temp table import_words on commit drop as
    select x.source_key, (x.w).words, (x.w).title_words
      from (select s.source_key, internal.listing_words_pair(r.title, r.description, coalesce(r.features, '{}')) as w
              from internal.import_staging s
              cross join pg_catalog.jsonb_to_record(s.listing) as r(title text, description text, features text[])
              left join internal.listings l on l.source = source_name and l.source_key = s.source_key
             where s.run_id = run
               and (l.id is null or (l.title, l.description, l.features)
                                    is distinct from (r.title, r.description, coalesce(r.features, '{}')))
            offset 0) x;
  drop table if exists pg_temp.import_matched;
  create temp table import_matched on commit drop as
  with input as (
    select s.source_key, r.*, coalesce(w.words, l.words) as words, coalesce(w.title_words, l.title_words) as title_words
      from internal.import_staging s
      cross join jsonb_to_record(s.listing) as r(
             listing_ref text, status text, source_status text, title text, address text, price numeric, bedrooms integer,
             bathrooms numeric, square_feet numeric, lot_size numeric, year_built integer, property_type text, city text,
             sector text, state text, country_code text, geo_lat text, geo_lon text, description text, features text[],
             agent_key text, agent_email text, agent_first_name text, agent_last_name text, agent_phone text,
             listed_at timestamptz, source_modified_at timestamptz, media jsonb,
             hoa_fee numeric, parking_spaces smallint, storage_unit boolean, furnished text, pets_allowed boolean, operation text)
      left join pg_temp.import_words w on w.source_key = s.source_key
      left join internal.listings l on l.source = source_name and l.source_key = s.source_key
     where s.run_id = run
  ), owners as (
    -- whose each agent named is: looked up once per agent, not once per listing
    select k.agent_key, k.agent_email, pg_catalog.jsonb_build_array(k.agent_key, k.agent_email) as named,
           a.id as agent_id, a.first_name as our_first_name, a.last_name as our_last_name, a.email as our_email,
           a.phone as our_phone, a.picture as our_picture
      from (select distinct i.agent_key, i.agent_email from input i) k
      left join lateral (
        select a.* from public.agents a
         where (k.agent_key is not null and a.agent_key = k.agent_key) or (k.agent_email is not null and lower(a.email) = k.agent_email)
         order by (a.agent_key is not distinct from k.agent_key) desc, a.id
         limit 1
      ) a on true
  )
  -- joined by a key that tells a missing name from an empty one, and hashes
  select i.*, o.agent_id, o.our_first_name, o.our_last_name, o.our_email, o.our_phone, o.our_picture
    from input i
    join owners o on o.named = pg_catalog.jsonb_build_array(i.agent_key, i.agent_email);
  drop table pg_temp.import_words;
end
$$;

-- A stage of internal.import_merge: the matched listings the feed sends as they are here, left out,
-- so that they are not written, locked or run through a trigger (a whole feed sent again is mostly
-- such). As they are: every column the merge writes as it would write it, an active listing `held`
-- on the market counted as staying there.
create or replace function internal.import_drop_unchanged(source_name text, held boolean)
returns void language plpgsql volatile set search_path = '' as $$
begin
  delete from pg_temp.import_matched m
   using internal.listings l
   where l.source = source_name and l.source_key = m.source_key
     and (l.listing_ref, l.status, l.source_status, l.title, l.address, l.price, l.bedrooms, l.bathrooms, l.square_feet,
          l.lot_size, l.year_built, l.property_type, l.city, l.sector, l.state, l.country_code, l.geo_lat, l.geo_lon,
          l.description, l.features, l.agent_id, l.agent_first_name, l.agent_last_name, l.agent_email, l.agent_phone,
          l.agent_picture, l.source_modified_at, l.source_media, l.hoa_fee, l.parking_spaces, l.storage_unit, l.furnished,
          l.pets_allowed, l.operation)
         is not distinct from
         (m.listing_ref, case when held and l.status = '1' and m.status <> '1' then l.status else m.status end,
          m.source_status, m.title, m.address, m.price, m.bedrooms, m.bathrooms, m.square_feet, m.lot_size, m.year_built,
          m.property_type, m.city, m.sector, m.state, m.country_code, m.geo_lat, m.geo_lon, m.description,
          coalesce(m.features, '{}'), m.agent_id, coalesce(m.our_first_name, m.agent_first_name),
          coalesce(m.our_last_name, m.agent_last_name), coalesce(m.our_email, m.agent_email),
          coalesce(m.our_phone, m.agent_phone), m.our_picture, m.source_modified_at, coalesce(m.media, '[]'), m.hoa_fee,
          m.parking_spaces, m.storage_unit, m.furnished, m.pets_allowed, coalesce(m.operation, 'sale'));
end
$$;

-- A stage of internal.import_merge: the matched listings into the listings, new ones added and
-- changed ones updated (an active one `held` stays on the market); how many of each. Every one left
-- is new or changed (import_drop_unchanged). Its caller says the words are supplied
-- (exp.words_supplied).
create or replace function internal.import_upsert(source_name text, held boolean)
returns table (added integer, changed integer)
language plpgsql volatile set search_path = '' as $$
begin
  return query
  with merged as (
    insert into internal.listings as l (
      source, source_key, listing_ref, status, source_status, title, address, price, bedrooms, bathrooms, square_feet,
      lot_size, year_built, property_type, city, sector, state, country_code, geo_lat, geo_lon, description, features,
      agent_id, agent_first_name, agent_last_name, agent_email, agent_phone, agent_picture, listed_at, source_modified_at,
      source_media, images, words, title_words, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed, operation)
    select source_name, m.source_key, m.listing_ref, m.status, m.source_status, m.title, m.address, m.price, m.bedrooms,
           m.bathrooms, m.square_feet, m.lot_size, m.year_built, m.property_type, m.city, m.sector, m.state, m.country_code,
           m.geo_lat, m.geo_lon, m.description, coalesce(m.features, '{}'),
           m.agent_id, coalesce(m.our_first_name, m.agent_first_name), coalesce(m.our_last_name, m.agent_last_name),
           coalesce(m.our_email, m.agent_email), coalesce(m.our_phone, m.agent_phone), m.our_picture,
           m.listed_at, m.source_modified_at, coalesce(m.media, '[]'), '[]'::jsonb, m.words, m.title_words,
           m.hoa_fee, m.parking_spaces, m.storage_unit, m.furnished, m.pets_allowed, coalesce(m.operation, 'sale')
      from pg_temp.import_matched m
     -- new listings take their ids in the order of their changes (the feed's), whatever the plan:
     -- one merge of a feed and several of its parts number the same listings alike
     order by m.source_modified_at nulls first, m.source_key
    on conflict (source, source_key) do update set
      listing_ref = excluded.listing_ref,
      -- held back: an active listing stays on the market whatever this run says
      status = case when held and l.status = '1' and excluded.status <> '1' then l.status else excluded.status end,
      source_status = excluded.source_status,
      title = excluded.title, address = excluded.address, price = excluded.price, bedrooms = excluded.bedrooms,
      bathrooms = excluded.bathrooms, square_feet = excluded.square_feet, lot_size = excluded.lot_size,
      year_built = excluded.year_built, property_type = excluded.property_type, city = excluded.city,
      sector = excluded.sector, state = excluded.state, country_code = excluded.country_code,
      geo_lat = excluded.geo_lat, geo_lon = excluded.geo_lon, description = excluded.description,
      features = excluded.features, agent_id = excluded.agent_id, agent_first_name = excluded.agent_first_name,
      agent_last_name = excluded.agent_last_name, agent_email = excluded.agent_email, agent_phone = excluded.agent_phone,
      agent_picture = excluded.agent_picture, source_modified_at = excluded.source_modified_at,
      source_media = excluded.source_media, words = excluded.words, title_words = excluded.title_words,
      hoa_fee = excluded.hoa_fee, parking_spaces = excluded.parking_spaces, storage_unit = excluded.storage_unit,
      furnished = excluded.furnished, pets_allowed = excluded.pets_allowed, operation = excluded.operation
    returning (xmax = 0) as inserted
  )
  select (count(*) filter (where inserted))::integer, (count(*) filter (where not inserted))::integer from merged;
end
$$;

-- A stage of internal.import_merge: the source's active listings the feed no longer has, withdrawn.
create or replace function internal.import_withdraw_absent(run bigint, source_name text)
returns void language sql volatile set search_path = '' as $$
  update internal.listings l
     set status = 'absent', source_status = 'not in the feed'
   where l.source = source_name and l.status = '1'
     and not exists (select 1 from internal.import_staging s where s.run_id = run and s.source_key = l.source_key)
     and not exists (select 1 from internal.import_seen s where s.run_id = run and s.source_key = l.source_key)
$$;

-- A feed's run merged into the listings (docs/import.md), as a chain of the stages above: what it
-- would do; withdrawals held back when they are too many (more than 5 and more than `max_share` of
-- the source's active listings, unless `allow_withdrawals`); the staged listings matched and merged;
-- the absent ones withdrawn (`absent_withdraws`); the staging emptied. What it did, as JSON.
create or replace function internal.import_merge(run bigint, source_name text, absent_withdraws boolean, max_share numeric, allow_withdrawals boolean)
returns jsonb language plpgsql set search_path = '' as $$
declare
  n record;
  held boolean;
  done record;
  gone integer := 0;
  unknown_agents jsonb;
  bulk boolean;
begin
  -- the run's statistics before any stage plans a join on it: the staging table is filled just
  -- before a run and emptied after it, so the statistics PostgreSQL keeps are another run's (or an
  -- empty table's). Planned on those, the counts joined the run to the source's listings as nested
  -- loops over every pair: a feed of 20,000 listings merged the second time took minutes.
  analyze internal.import_staging, internal.import_seen;
  select count(*) > 10000 into bulk from internal.import_staging where run_id = run;
  if bulk then perform pg_catalog.set_config('exp.listing_cells', 'deferred', true); end if;
  select * into n from internal.import_counts(run, source_name, absent_withdraws);
  held := not allow_withdrawals and n.leaving + n.absent > 5 and n.leaving + n.absent > max_share * n.active_before;
  unknown_agents := internal.import_unknown_agents(run);
  perform internal.import_matched(run, source_name);
  -- the words were computed with the rows (import_matched): the listings' trigger takes them as they are
  perform pg_catalog.set_config('exp.words_supplied', 'on', true);
  perform internal.import_drop_unchanged(source_name, held);
  select * into done from internal.import_upsert(source_name, held);
  perform pg_catalog.set_config('exp.words_supplied', '', true);
  drop table pg_temp.import_matched;
  if not held then
    gone := n.leaving;
    if absent_withdraws and n.absent > 0 then
      perform internal.import_withdraw_absent(run, source_name);
      gone := gone + n.absent;
    end if;
  end if;
  if bulk then
    perform pg_catalog.set_config('exp.listing_cells', '', true);
    -- what the listings' copies are made from changed only if a listing did
    if done.added + done.changed + gone > 0 then perform internal.listings_derived_rebuild(); end if;
  end if;
  delete from internal.import_staging where run_id = run;
  delete from internal.import_seen where run_id = run;
  return jsonb_build_object(
    'new', done.added, 'updated', done.changed, 'unchanged', n.staged - done.added - done.changed, 'withdrawn', gone,
    'withdrawals_held', held, 'would_withdraw', n.leaving + n.absent, 'active_before', n.active_before,
    'unknown_agents', unknown_agents);
end
$$;
