-- A feed's run takes its statistics first (docs/import.md "A run", step 3): the staging table is filled
-- just before a run and emptied after it, so the statistics PostgreSQL kept were another run's, and
-- the counts that open the merge (import_counts) joined the run to the source's listings as nested
-- loops over every pair: a feed of 20,000 listings merged for the second time took minutes. The
-- analyze moves from import_matched, which ran after the counts, to the top of import_merge.

-- A stage of internal.import_merge: the staged listings as rows, with their words and whose each
-- agent named is (pg_temp.import_matched).
create or replace function internal.import_matched(run bigint)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  -- every staged listing's words, in one query PostgreSQL runs on every core (an INSERT runs on one).
  -- The planner chooses that from the staging table's statistics (import_merge takes them first:
  -- those of an empty table left 100,000 listings' words on one core, 12.3 s) and from the function's
  -- cost, which it counts per row only in a select list (in FROM, once); `offset 0` keeps it there,
  -- called once per listing.
  drop table if exists pg_temp.import_words;
  create temp table import_words on commit drop as
    select x.source_key, (x.w).words, (x.w).title_words
      from (select s.source_key, internal.listing_words_pair(r.title, r.description, coalesce(r.features, '{}')) as w
              from internal.import_staging s,
                   pg_catalog.jsonb_to_record(s.listing) as r(title text, description text, features text[])
             where s.run_id = run
            offset 0) x;
  drop table if exists pg_temp.import_matched;
  create temp table import_matched on commit drop as
  with input as (
    select s.source_key, r.*, w.words, w.title_words
      from internal.import_staging s,
           jsonb_to_record(s.listing) as r(
             listing_ref text, status text, source_status text, title text, address text, price numeric, bedrooms integer,
             bathrooms numeric, square_feet numeric, lot_size numeric, year_built integer, property_type text, city text,
             sector text, state text, country_code text, geo_lat text, geo_lon text, description text, features text[],
             agent_key text, agent_email text, agent_first_name text, agent_last_name text, agent_phone text,
             listed_at timestamptz, source_modified_at timestamptz, media jsonb,
             hoa_fee numeric, parking_spaces smallint, storage_unit boolean, furnished text, pets_allowed boolean, operation text),
           pg_temp.import_words w
     where s.run_id = run and w.source_key = s.source_key
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
  ), matched as (
    -- joined by a key that tells a missing name from an empty one, and hashes
    select i.*, o.agent_id, o.our_first_name, o.our_last_name, o.our_email, o.our_phone, o.our_picture
      from input i
      join owners o on o.named = pg_catalog.jsonb_build_array(i.agent_key, i.agent_email)
  )
  select i.*, o.agent_id, o.our_first_name, o.our_last_name, o.our_email, o.our_phone, o.our_picture
    from input i
    join owners o on o.named = pg_catalog.jsonb_build_array(i.agent_key, i.agent_email);
  drop table pg_temp.import_words;
end
$$;

-- A feed's run merged into the listings (docs/import.md), as a chain of the stages above: what it
-- would do; withdrawals held back when they are too many (more than 5 and more than `max_share` of
-- the source's active listings, unless `allow_withdrawals`); the staged listings matched and merged;
-- the absent ones withdrawn (`absent_withdraws`); the staging emptied. What it did, as JSON.
create or replace function internal.import_merge(run bigint, source_name text, absent_withdraws boolean, max_share numeric, allow_withdrawals boolean)
returns jsonb
language plpgsql
set search_path = ''
as $$
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
  perform internal.import_matched(run);
  -- the words were computed with the rows (import_matched): the listings' trigger takes them as they are
  perform pg_catalog.set_config('exp.words_supplied', 'on', true);
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
    perform internal.listings_derived_rebuild();
  end if;
  delete from internal.import_staging where run_id = run;
  delete from internal.import_seen where run_id = run;
  return jsonb_build_object(
    'new', done.added, 'updated', done.changed, 'unchanged', n.staged - done.added - done.changed, 'withdrawn', gone,
    'withdrawals_held', held, 'would_withdraw', n.leaving + n.absent, 'active_before', n.active_before,
    'unknown_agents', unknown_agents);
end
$$;
