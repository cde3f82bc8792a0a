-- Open houses (docs/visits.md "Open houses"): the times a listing is open to anyone who comes, as
-- its feed says them (the RESO OpenHouse resource; the seed has some). Kept per source and key, so
-- each import replaces its source's; a listing's still to come are copied onto it
-- (internal.listings.open_houses) for the cards and the "this week" filter; past ones drop out of
-- everything the public reads by themselves (each read asks for those not ended).
create table internal.open_houses (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  -- where it came from: the import source and its OpenHouseKey ('seed' for the seed's)
  source text not null,
  source_key text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  -- the feed's remarks (plain text) and a livestream's link (https only)
  remarks text,
  livestream_url text check (livestream_url is null or livestream_url ~ '^https://'),
  appointment_required boolean not null default false,
  unique (source, source_key),
  check (ends_at > starts_at and ends_at <= starts_at + interval '12 hours')
);

alter table internal.open_houses enable row level security;

create index open_houses_listing on internal.open_houses (listing_id, ends_at);

-- A listing's open houses not ended yet, as one multirange (empty when none).
create or replace function internal.upcoming_open_houses(listing bigint)
returns tstzmultirange language sql stable set search_path = '' as $$
  select coalesce(pg_catalog.range_agg(pg_catalog.tstzrange(o.starts_at, o.ends_at)), '{}'::pg_catalog.tstzmultirange)
    from internal.open_houses o
   where o.listing_id = upcoming_open_houses.listing and o.ends_at > internal.now()
$$;

-- The listings whose open houses changed get their copy made again.
create or replace function internal.open_houses_changed()
returns trigger language plpgsql set search_path = '' as $$
begin
  update internal.listings l
     set open_houses = internal.upcoming_open_houses(l.id)
   where l.id in (select c.listing_id from changed_rows c)
     and l.open_houses is distinct from internal.upcoming_open_houses(l.id);
  return null;
end
$$;

create trigger open_houses_insert after insert on internal.open_houses referencing new table as changed_rows for each statement execute function internal.open_houses_changed();

create trigger open_houses_update_new after update on internal.open_houses referencing new table as changed_rows for each statement execute function internal.open_houses_changed();

create trigger open_houses_update_old after update on internal.open_houses referencing old table as changed_rows for each statement execute function internal.open_houses_changed();

create trigger open_houses_delete after delete on internal.open_houses referencing old table as changed_rows for each statement execute function internal.open_houses_changed();

-- The copies of open houses that have ended, dropped (the hourly refresh calls it; a copy that is
-- late changes nothing the public sees: every read asks for those not ended).
create or replace function internal.forget_past_open_houses()
returns integer language sql set search_path = '' as $$
  with gone as (
    delete from internal.open_houses o where o.ends_at < internal.now() - interval '1 day' returning o.listing_id
  ), stale as (
    update internal.listings l set open_houses = internal.upcoming_open_houses(l.id)
     where l.open_houses <> '{}'::pg_catalog.tstzmultirange and pg_catalog.upper(l.open_houses) <= internal.now()
     returning l.id
  )
  select (select count(*)::integer from gone) + (select count(*)::integer from stale)
$$;

-- A listing's open houses not ended yet, first first: what its page and its detail show.
create or replace function public.listing_open_houses(listing_id bigint)
returns table (id bigint, starts_at timestamptz, ends_at timestamptz, remarks public.plain_text, livestream_url public.plain_text, appointment_required boolean)
language sql stable
-- it reads internal.open_houses (closed to the public key) for an active listing only
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select o.id, o.starts_at, o.ends_at, o.remarks, o.livestream_url, o.appointment_required
    from internal.open_houses o
    join internal.listings l on l.id = o.listing_id
   where o.listing_id = listing_open_houses.listing_id and o.ends_at > internal.now()
     and l.is_public
   order by o.starts_at
   limit 20
$$;

-- An import's open houses (server/import/open-houses.ts, already checked): they become the
-- source's, matched to its listings on the market by the listing's key; those the source no
-- longer has go. Answers how many it keeps, removes, and could not place.
create or replace function internal.import_open_houses(from_source text, rows jsonb)
returns jsonb language sql set search_path = '' as $$
  with incoming as (
    select l.id as listing_id, e->>'source_key' as source_key, (e->>'starts_at')::timestamptz as starts_at, (e->>'ends_at')::timestamptz as ends_at,
           e->>'remarks' as remarks, e->>'livestream_url' as livestream_url, coalesce((e->>'appointment_required')::boolean, false) as appointment_required
      from pg_catalog.jsonb_array_elements(rows) e
      join internal.listings l on l.source = from_source and l.source_key = e->>'listing_key' and l.status = '1'
  ), gone as (
    delete from internal.open_houses o
     where o.source = from_source and not exists (select 1 from incoming i where i.source_key = o.source_key)
    returning 1
  ), put as (
    insert into internal.open_houses as o (listing_id, source, source_key, starts_at, ends_at, remarks, livestream_url, appointment_required)
    select i.listing_id, from_source, i.source_key, i.starts_at, i.ends_at, i.remarks, i.livestream_url, i.appointment_required from incoming i
    on conflict (source, source_key) do update
       set listing_id = excluded.listing_id, starts_at = excluded.starts_at, ends_at = excluded.ends_at, remarks = excluded.remarks,
           livestream_url = excluded.livestream_url, appointment_required = excluded.appointment_required
     where (o.listing_id, o.starts_at, o.ends_at, o.remarks, o.livestream_url, o.appointment_required)
           is distinct from (excluded.listing_id, excluded.starts_at, excluded.ends_at, excluded.remarks, excluded.livestream_url, excluded.appointment_required)
    returning 1
  )
  select pg_catalog.jsonb_build_object(
    'kept', (select count(*) from incoming),
    'removed', (select count(*) from gone),
    'written', (select count(*) from put),
    'unknown_listings', pg_catalog.jsonb_array_length(rows) - (select count(*) from incoming))
$$;
