-- Visits (docs/visits.md): the times an agent can show a home, a visitor's request of up to three
-- of them, and the visit the agent confirms, held against double booking by a constraint.

-- An agent's weekly visiting hours in Ecuador's time (America/Guayaquil). An agent without a row
-- here visits Monday to Saturday, 9:00 to 18:00 (internal.visiting_hours).
create table internal.agent_visiting_hours (
  agent_id bigint not null references public.agents (id) on delete cascade,
  -- ISO day of the week: 1 Monday ... 7 Sunday
  weekday smallint not null check (weekday between 1 and 7),
  opens time not null,
  closes time not null,
  primary key (agent_id, weekday, opens),
  check (closes > opens)
);

alter table internal.agent_visiting_hours enable row level security;

-- The days an agent takes off (Ecuador's dates): no visit starts on them, whatever her hours say.
-- She keeps both in her area (public.set_visiting_hours, 49_agent_calendar.sql).
create table internal.agent_days_off (
  agent_id bigint not null references public.agents (id) on delete cascade,
  day date not null,
  primary key (agent_id, day)
);

alter table internal.agent_days_off enable row level security;

-- A visitor's request to see a listing: how (in person or by video call), the times proposed (one
-- to three, each an hour), who asks, and where it went (the lead's owner rules, as an inquiry).
create table internal.visit_requests (
  id bigint generated always as identity primary key,
  listing_id bigint not null references internal.listings (id) on delete cascade,
  -- whose calendar the times are of: the agent the request went to (null: the team's)
  agent_id bigint references public.agents (id) on delete set null,
  recipient_email text not null,
  mode text not null check (mode in ('in_person', 'video')),
  proposed timestamptz[] not null check (cardinality(proposed) between 1 and 3),
  name text not null,
  email text not null,
  phone text,
  message text,
  -- the visitor's language and time zone (an IANA name), for their mails and times
  lang text not null default 'es' check (lang in ('en', 'es')),
  time_zone text not null default 'America/Guayaquil',
  status text not null default 'requested' check (status in ('requested', 'confirmed', 'cancelled')),
  created_at timestamptz not null default internal.now(),
  -- the inquiry it came as (its idempotency key, client, attribution and lead's owner are there)
  inquiry_id uuid unique references public.inquiries (id) on delete cascade
);

alter table internal.visit_requests enable row level security;

create index visit_requests_listing on internal.visit_requests (listing_id, created_at);

-- A confirmed visit: one of its request's times, in the agent's calendar (no agent: the team's). No
-- two confirmed visits of one calendar overlap: an exclusion constraint, so two confirmations at
-- once cannot both win (the team's calendar is 0, as a null would never be equal to another).
create table internal.visits (
  id bigint generated always as identity primary key,
  request_id bigint not null unique references internal.visit_requests (id) on delete cascade,
  agent_id bigint references public.agents (id) on delete set null,
  during tstzrange not null,
  status text not null default 'confirmed' check (status in ('confirmed', 'cancelled')),
  -- RFC 5545 SEQUENCE: 0 when confirmed, one more for each change (a cancellation)
  sequence integer not null default 0,
  -- the address, or the video call's link the agent gave
  location text,
  confirmed_at timestamptz not null default internal.now(),
  cancelled_at timestamptz,
  constraint visits_no_double_booking exclude using gist ((coalesce(agent_id, 0)) with =, during with &&) where (status = 'confirmed')
);

alter table internal.visits enable row level security;

-- How long a visit takes, how soon it may be, how far ahead, and the step of its start times.
create or replace function internal.visit_rules()
returns table (length interval, lead_time interval, horizon interval, step interval)
language sql immutable set search_path = '' as $$
  select interval '1 hour', interval '2 hours', interval '14 days', interval '30 minutes'
$$;

-- An agent's hours, each day of the week (the default when the agent has none, or for the team).
create or replace function internal.visiting_hours(agent bigint)
returns table (weekday smallint, opens time, closes time)
language sql stable set search_path = '' as $$
  select h.weekday, h.opens, h.closes from internal.agent_visiting_hours h where h.agent_id = visiting_hours.agent
  union all
  select d::smallint, time '09:00', time '18:00'
    from pg_catalog.generate_series(1, 6) d
   where not exists (select 1 from internal.agent_visiting_hours h where h.agent_id = visiting_hours.agent)
$$;

-- The times a visit may start with this agent (null: the team) between `from_at` and `to_at`:
-- within the agent's hours in Ecuador's time and not on her days off, on the step, from the lead
-- time to the horizon, and never over a visit already confirmed.
create or replace function internal.open_visit_times(agent bigint, from_at timestamptz, to_at timestamptz)
returns setof timestamptz language sql stable set search_path = '' as $$
  with r as (select * from internal.visit_rules()),
  days as (
    select d::date as day
      from pg_catalog.generate_series((greatest(from_at, internal.now()) at time zone 'America/Guayaquil')::date,
                                      (least(to_at, internal.now() + (select r.horizon from r)) at time zone 'America/Guayaquil')::date, interval '1 day') d
  )
  select t.start
    from days
    join internal.visiting_hours(agent) h on h.weekday = extract(isodow from days.day)
     and not exists (select 1 from internal.agent_days_off o where o.agent_id = open_visit_times.agent and o.day = days.day)
    cross join r
    cross join lateral pg_catalog.generate_series((days.day + h.opens) at time zone 'America/Guayaquil',
                                                  (days.day + h.closes) at time zone 'America/Guayaquil' - r.length, r.step) t(start)
   where t.start >= greatest(from_at, internal.now() + r.lead_time) and t.start <= least(to_at, internal.now() + r.horizon)
     and not exists (select 1 from internal.visits v
                      where coalesce(v.agent_id, 0) = coalesce(open_visit_times.agent, 0) and v.status = 'confirmed'
                        and v.during && pg_catalog.tstzrange(t.start, t.start + r.length))
   order by t.start
$$;

-- The times a visitor may propose to see a listing over the next 14 days, in its agent's calendar
-- (`agent_id`: an element's lead owner, else the listing's agent). Times only: nobody's visits.
create or replace function public.visit_times(listing_id bigint, agent_id bigint default null)
returns setof timestamptz language sql stable
-- it reads the listings' agents and the confirmed visits (closed to the public key) to answer times
security definer set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  select t
    from internal.listings l
    cross join lateral internal.open_visit_times(
      coalesce((select a.id from public.agents a where a.id = visit_times.agent_id and a.is_ours), l.agent_id),
      internal.now(), internal.now() + interval '14 days') t
   where l.id = visit_times.listing_id and l.is_public
$$;

-- The links of the visit mails (docs/visits.md "The links"): each does one thing for one request
-- (confirm its first, second or third time; propose another; cancel; ask for another time), kept
-- only as the SHA-256 of its token (the mail has the token), until it expires; used once.
create table internal.visit_tokens (
  token_hash text primary key,
  request_id bigint not null references internal.visit_requests (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'propose', 'cancel', 'reschedule')),
  -- a confirmation's time (1 to 3)
  choice smallint check ((purpose = 'confirm') = (choice is not null)),
  -- whose link it is: the agent's or the visitor's
  holder text not null check (holder in ('agent', 'visitor')),
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table internal.visit_tokens enable row level security;

create index visit_tokens_request on internal.visit_tokens (request_id);

-- The visit confirmed at `start`: one of the request's times, or another the agent proposed (the
-- caller checks that one against internal.open_visit_times). The same answers as confirm_visit.
-- Where it is: the place the agent gave, else the listing's address for a visit in person.
-- Two confirmations of one agent's visits take their turn (an advisory lock per agent until the
-- transaction ends): two inserted at once each found the other's row while checking the
-- constraint, waited on the other and deadlocked, so one visitor was told to try again where
-- "this time is taken" is the answer.
create or replace function internal.confirm_visit_at(request bigint, start timestamptz, at_location text default null)
returns text language plpgsql set search_path = '' as $$
declare
  req internal.visit_requests;
begin
  select * into req from internal.visit_requests r where r.id = request for update;
  if req.id is null then
    return 'unknown';
  end if;
  if req.status <> 'requested' then
    return 'done';
  end if;
  if start <= internal.now() then
    return 'past';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('internal.confirm_visit_at'),
                                           pg_catalog.hashtext(coalesce(req.agent_id, 0)::text));
  begin
    insert into internal.visits (request_id, agent_id, during, location)
    values (req.id, req.agent_id, pg_catalog.tstzrange(start, start + (select r.length from internal.visit_rules() r)),
            coalesce(nullif(pg_catalog.btrim(at_location), ''),
                     (select nullif(pg_catalog.concat_ws(', ', l.address, l.city), '') from internal.listings l where l.id = req.listing_id and req.mode = 'in_person')));
  exception when exclusion_violation then
    return 'taken';
  end;
  update internal.visit_requests set status = 'confirmed' where id = req.id;
  return 'confirmed';
end
$$;

-- The visit confirmed: the request's `choice` (1 to 3) becomes a visit in its agent's calendar.
-- Answers 'confirmed', or why not: 'taken' (another visit holds that time: the constraint says so
-- even when two confirmations run at once), 'past' (the time is no longer ahead), 'done' (the
-- request is confirmed or cancelled already), 'unknown' (no such request or time).
create or replace function internal.confirm_visit(request bigint, choice integer, at_location text default null)
returns text language sql set search_path = '' as $$
  select coalesce((select internal.confirm_visit_at(r.id, r.proposed[confirm_visit.choice], confirm_visit.at_location)
                     from internal.visit_requests r
                    where r.id = confirm_visit.request and confirm_visit.choice between 1 and pg_catalog.cardinality(r.proposed)), 'unknown')
$$;

-- A visit cancelled (by the visitor or the agent): its time is free again, its sequence one more.
-- Answers 'cancelled', 'done' (cancelled already), or 'unknown'.
create or replace function internal.cancel_visit(request bigint)
returns text language plpgsql set search_path = '' as $$
declare
  changed integer;
begin
  update internal.visits v set status = 'cancelled', cancelled_at = internal.now(), sequence = v.sequence + 1
   where v.request_id = request and v.status = 'confirmed';
  get diagnostics changed = row_count;
  update internal.visit_requests r set status = 'cancelled' where r.id = request and r.status <> 'cancelled';
  if changed > 0 or found then
    return 'cancelled';
  end if;
  return case when exists (select 1 from internal.visit_requests r where r.id = request) then 'done' else 'unknown' end;
end
$$;

-- What a CRM hears of a visit (docs/leads.md "Webhooks": visit.confirmed, visit.cancelled).
create or replace function internal.visit_event(request bigint, status text)
returns jsonb language sql stable set search_path = '' as $$
  select pg_catalog.jsonb_build_object(
           'id', r.id::text, 'inquiry_id', r.inquiry_id::text, 'status', visit_event.status, 'mode', r.mode,
           'listing_id', r.listing_id, 'agent_id', r.agent_id,
           'start', pg_catalog.to_char(pg_catalog.lower(v.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'end', pg_catalog.to_char(pg_catalog.upper(v.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'location', v.location,
           'contact', pg_catalog.jsonb_build_object('name', r.name, 'email', r.email, 'phone', r.phone),
           'lang', r.lang, 'time_zone', r.time_zone)
    from internal.visit_requests r
    left join internal.visits v on v.request_id = r.id
   where r.id = visit_event.request
$$;

-- What follows a visit confirmed or cancelled, wherever it was done (a mail's link, the agent's
-- area): both sides' mails, the CRM's webhook, and a confirmed visit's lead moves to "visit booked"
-- (if it was new or contacted). One home, so the two ways cannot differ.
create or replace function internal.visit_effects(request bigint, happened text, by_holder text default null, reschedule boolean default false)
returns void language plpgsql volatile set search_path = '' as $$
declare
  req internal.visit_requests;
  was_visit boolean;
begin
  select * into req from internal.visit_requests r where r.id = visit_effects.request;
  select exists (select 1 from internal.visits v where v.request_id = req.id) into was_visit;
  if happened = 'confirmed' then
    perform internal.enqueue_mail('visit-confirmed', req.id::text, req.email);
    perform internal.enqueue_mail('visit-confirmed-agent', req.id::text, req.recipient_email);
    perform internal.enqueue_webhook('visit.confirmed', internal.visit_event(req.id, 'confirmed'));
    update public.inquiries i set status = 'visit_booked' where i.id = req.inquiry_id and i.status in ('new', 'contacted');
  elsif happened = 'cancelled' then
    if was_visit then
      perform internal.enqueue_mail('visit-cancelled', req.id::text, req.email);
      perform internal.enqueue_mail('visit-cancelled-agent', req.id::text, req.recipient_email);
    end if;
    perform internal.enqueue_webhook('visit.cancelled', internal.visit_event(req.id, 'cancelled')
      || pg_catalog.jsonb_build_object('cancelled_by', by_holder, 'reschedule', coalesce(reschedule, false)));
  else
    raise exception 'a visit is confirmed or cancelled, not %', happened using errcode = '22023';
  end if;
end
$$;
