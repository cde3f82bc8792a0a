-- Safe where it really runs (issue 58; docs/decisions.md #24): mail to one mailbox is counted
-- however its address is written; an alert's new listings are those that appeared here, whatever
-- date a feed gives as their market date.

-- The mailbox an e-mail address reaches, to count mails to one person however the address is
-- written (docs/decisions.md #24): lower case, without a "+tag" after the local part
-- (ana+x@example.org and Ana@Example.org are one mailbox). Never stored: counted by.
create or replace function internal.mailbox(email text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.btrim(email)), '\+[^@]*@', '@')
$$;

-- a seller's requests by the mailbox they ask for (the mails to one person a day are capped:
-- core/functions/inquiry/handler.ts)
create index inquiries_seller_mailbox on public.inquiries (internal.mailbox(email), received_at desc) where seller is not null;

-- when a listing appeared here: inserted active, or made active again (never from a feed, whose
-- OnMarketDate is listed_at). The rows already here appeared when they came on the market (not
-- when this ran, which would make every one of them new to every alert), set without the
-- triggers, which would count it as a change of each listing
alter table internal.listings add column appeared_at timestamptz;
alter table internal.listings disable trigger user;
update internal.listings set appeared_at = listed_at;
alter table internal.listings enable trigger user;
alter table internal.listings alter column appeared_at set default internal.now(), alter column appeared_at set not null;
comment on column internal.listings.listed_at is 'When the listing came on the market: the feed''s date, else when it was inserted active or made active again.';
comment on column internal.listings.appeared_at is 'When it appeared here (inserted, or made active again): new for the alerts, whatever date its feed gives.';

create or replace function internal.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a new row was last changed when it was created (unless it says otherwise); a changed one now
  if tg_op = 'INSERT' then
    new.updated_at := coalesce(new.updated_at, new.created_at, internal.now());
    new.listed_at := coalesce(new.listed_at, internal.now());
    new.appeared_at := coalesce(new.appeared_at, internal.now());
  else
    new.updated_at := internal.now();
    -- back on the market: new again for the alerts
    if new.status = '1' and old.status is distinct from '1' then
      new.listed_at := internal.now();
      new.appeared_at := internal.now();
    end if;
  end if;
  return new;
end
$$;

-- the alerts' new listings: those that appeared here since a search's mark
create index listings_appeared on internal.listings (appeared_at) where country_code = 'EC' and status = '1';

-- Buyer demand for the estimate (docs/valuation.md "Buyer demand"): how many confirmed saved
-- searches a home like the subject matches, told only where it says nothing about one buyer. A count
-- from DEMAND_FLOOR on, else "fewer than" it (none and four read alike); and nothing for facts that
-- no home among its comparables has (the type, bedrooms and bathrooms as given, the area within a
-- fifth, its features), which a caller could choose to single out one buyer's criteria.
create or replace function internal.buyer_demand(subject internal.listings, comparables bigint[], area double precision)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with floor as (select 5 as n),
  real_home as (
    select exists (
      select 1 from internal.listings l
       where l.id = any (comparables)
         and l.property_type = subject.property_type
         and (subject.bedrooms is null or l.bedrooms = subject.bedrooms)
         and (subject.bathrooms is null or l.bathrooms = subject.bathrooms)
         and (case when subject.property_type = 'land' then l.lot_size else l.square_feet end) between area / 1.2 and area * 1.2
         and subject.features <@ l.features
    ) as yes
  ),
  matched as (
    select count(*)::integer as n
      from internal.saved_searches s, real_home
     where real_home.yes and s.status = 'active' and s.market is null and s.home is null and not s.spam
       and internal.listing_matches(subject, s.filters)
  )
  select case when not real_home.yes then null
              when matched.n >= floor.n then pg_catalog.jsonb_build_object('count', matched.n)
              else pg_catalog.jsonb_build_object('fewer_than', floor.n) end
    from real_home, matched, floor
$$;

-- (public.estimate_value, which now reads internal.buyer_demand, is made again in full by
-- 20261202030300_the_advisor.sql, the next migration)

-- The team keeps a calendar too: its visits (no agent) are one calendar, 0, in the constraint and
-- in the times offered (a null agent was never equal to another, so team visits could overlap)
alter table internal.visits drop constraint visits_no_double_booking;
alter table internal.visits add constraint visits_no_double_booking exclude using gist ((coalesce(agent_id, 0)) with =, during with &&) where (status = 'confirmed');

-- The times a visit may start with this agent (null: the team) between `from_at` and `to_at`:
-- within the agent's hours in Ecuador's time, on the step, from the lead time to the horizon, and
-- never over a visit already confirmed.
create or replace function internal.open_visit_times(agent bigint, from_at timestamptz, to_at timestamptz)
returns setof timestamptz
language sql
stable
set search_path = ''
as $$
  with r as (select * from internal.visit_rules()),
  days as (
    select d::date as day
      from pg_catalog.generate_series((greatest(from_at, internal.now()) at time zone 'America/Guayaquil')::date,
                                      (least(to_at, internal.now() + (select r.horizon from r)) at time zone 'America/Guayaquil')::date, interval '1 day') d
  )
  select t.start
    from days
    join internal.visiting_hours(agent) h on h.weekday = extract(isodow from days.day)
    cross join r
    cross join lateral pg_catalog.generate_series((days.day + h.opens) at time zone 'America/Guayaquil',
                                                  (days.day + h.closes) at time zone 'America/Guayaquil' - r.length, r.step) t(start)
   where t.start >= greatest(from_at, internal.now() + r.lead_time) and t.start <= least(to_at, internal.now() + r.horizon)
     and not exists (select 1 from internal.visits v
                      where coalesce(v.agent_id, 0) = coalesce(open_visit_times.agent, 0) and v.status = 'confirmed'
                        and v.during && pg_catalog.tstzrange(t.start, t.start + r.length))
   order by t.start
$$;
