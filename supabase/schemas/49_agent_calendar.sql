-- The agents' calendar (docs/agent-area.md "Visits"): her visit requests and visits, acted on from
-- her area with the same effects as the mails' links (internal.visit_effects), and her weekly
-- visiting hours and days off, which bound every new request at once (internal.open_visit_times).
-- Whose: the request's calendar (`visit_requests.agent_id`) is hers, or she is the team's. The
-- tables stay the service's; these functions are the one door, each checking that rule.

-- May the signed-in caller see and act on this calendar (an agent's id; null: the team's)?
create or replace function internal.my_calendar(agent bigint)
returns boolean language sql stable security definer set search_path = '' as $$
  select (my_calendar.agent is not null and my_calendar.agent = internal.my_agent_id()) or internal.is_team()
$$;

-- Her requests and visits with a time between `from_at` and `to_at` (a proposed time, or the
-- confirmed visit's), for her calendar's day or week; at most 62 days at once.
create or replace function public.my_visits(from_at timestamptz, to_at timestamptz)
returns table (
  id bigint, lead_id uuid, listing_id bigint, title public.plain_text, address public.plain_text, agent_id bigint, agent_name public.plain_text,
  mode public.plain_text, proposed timestamptz[], name public.plain_text, email public.plain_text, phone public.plain_text,
  message public.plain_text, lang public.plain_text, time_zone public.plain_text, status public.plain_text, created_at timestamptz,
  visit_start timestamptz, visit_end timestamptz, location public.plain_text
)
language plpgsql stable security definer set search_path = '' as $$
begin
  if from_at is null or to_at is null or to_at <= from_at or to_at - from_at > interval '62 days' then
    raise exception 'from_at must come before to_at, at most 62 days apart' using errcode = '22023', hint = 'range';
  end if;
  return query
    select r.id, r.inquiry_id, r.listing_id, l.title::public.plain_text, pg_catalog.concat_ws(', ', l.address, l.city)::public.plain_text,
           r.agent_id, nullif(pg_catalog.btrim(pg_catalog.concat_ws(' ', a.first_name, a.last_name)), '')::public.plain_text,
           r.mode::public.plain_text, r.proposed, r.name::public.plain_text, r.email::public.plain_text, r.phone::public.plain_text,
           r.message::public.plain_text, r.lang::public.plain_text, r.time_zone::public.plain_text, r.status::public.plain_text, r.created_at,
           pg_catalog.lower(v.during), pg_catalog.upper(v.during), v.location::public.plain_text
      from internal.visit_requests r
      join internal.listings l on l.id = r.listing_id
      left join public.agents a on a.id = r.agent_id
      left join internal.visits v on v.request_id = r.id
     where internal.my_calendar(r.agent_id)
       and (v.during && pg_catalog.tstzrange(from_at, to_at)
            or (v.id is null and exists (select 1 from pg_catalog.unnest(r.proposed) p where p >= from_at and p < to_at)))
     order by coalesce(pg_catalog.lower(v.during), r.proposed[1]), r.id;
end
$$;
comment on function public.my_visits is 'A signed-in agent''s visit requests and visits in a range of time (the team''s: all): docs/agent-area.md.';

-- She confirms one of a request's times (`choice`, 1 to 3), confirms another open time of hers
-- (`propose`, `start_at`), or cancels: what the mails' links do, with the same effects. Answers
-- `result`: confirmed, cancelled, or why not (taken, past, unavailable, done), as the links do.
create or replace function public.act_on_visit(request_id bigint, action text, choice integer default null, start_at timestamptz default null, place text default null)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  req internal.visit_requests;
  result text;
begin
  if act_on_visit.action is null or act_on_visit.action not in ('confirm', 'propose', 'cancel') then
    raise exception 'action must be confirm, propose or cancel' using errcode = '22023', hint = 'action';
  end if;
  if pg_catalog.length(act_on_visit.place) > 300 or act_on_visit.place ~ '[[:cntrl:]]' then
    raise exception 'a place is one line of at most 300 characters' using errcode = '22023', hint = 'place';
  end if;
  select * into req from internal.visit_requests r where r.id = act_on_visit.request_id for update;
  if req.id is null or not internal.my_calendar(req.agent_id) then
    raise exception 'no visit of yours has this id' using errcode = 'P0002';
  end if;
  if act_on_visit.action = 'cancel' then
    if req.status = 'cancelled' then
      result := 'done';
    else
      perform internal.cancel_visit(req.id);
      result := 'cancelled';
    end if;
  elsif req.status <> 'requested' then
    result := 'done';
  elsif act_on_visit.action = 'confirm' then
    if act_on_visit.choice is null or act_on_visit.choice not between 1 and pg_catalog.cardinality(req.proposed) then
      raise exception 'choice must be one of the request''s times' using errcode = '22023', hint = 'choice';
    end if;
    result := internal.confirm_visit(req.id, act_on_visit.choice, act_on_visit.place);
  else
    if act_on_visit.start_at is null then
      raise exception 'start_at is the time proposed' using errcode = '22023', hint = 'start_at';
    end if;
    -- another time: one open in her calendar (her hours, not a day off, ahead, not taken)
    if exists (select 1 from internal.open_visit_times(req.agent_id, act_on_visit.start_at, act_on_visit.start_at) o where o = act_on_visit.start_at) then
      result := internal.confirm_visit_at(req.id, act_on_visit.start_at, act_on_visit.place);
    else
      result := 'unavailable';
    end if;
  end if;
  if result in ('confirmed', 'cancelled') then
    perform internal.visit_effects(req.id, result, 'agent', false);
  end if;
  return pg_catalog.jsonb_build_object('id', req.id, 'result', result);
end
$$;
comment on function public.act_on_visit is 'A signed-in agent confirms, moves or cancels a visit from her area, as the mails'' links do (docs/agent-area.md).';

-- Her open times for a request (to propose another): her calendar's, the next 14 days.
create or replace function public.my_open_times(request_id bigint)
returns setof timestamptz language sql stable security definer set search_path = '' as $$
  select t
    from internal.visit_requests r
    cross join lateral internal.open_visit_times(r.agent_id, internal.now(), internal.now() + interval '14 days') t
   where r.id = my_open_times.request_id and internal.my_calendar(r.agent_id)
$$;

-- Her weekly hours (hers, or the default she has until she sets any) and her days off ahead.
create or replace function public.my_visiting_hours()
returns jsonb language sql stable security definer set search_path = '' as $$
  select pg_catalog.jsonb_build_object(
           'own', exists (select 1 from internal.agent_visiting_hours h where h.agent_id = me.id),
           'hours', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('weekday', h.weekday,
                                'opens', pg_catalog.to_char(h.opens, 'HH24:MI'), 'closes', pg_catalog.to_char(h.closes, 'HH24:MI')) order by h.weekday, h.opens)
                                from internal.visiting_hours(me.id) h), '[]'),
           'days_off', coalesce((select pg_catalog.jsonb_agg(d.day order by d.day) from internal.agent_days_off d
                                  where d.agent_id = me.id and d.day >= (internal.now() at time zone 'America/Guayaquil')::date), '[]'))
    from (select internal.my_agent_id() as id) me
   where me.id is not null
$$;
comment on function public.my_visiting_hours is 'A signed-in agent''s weekly visiting hours and days off (docs/agent-area.md).';

-- She sets her week (`hours`: [{weekday 1-7, opens "HH:MM", closes "HH:MM"}], at least one period,
-- each at least a visit long, none overlapping another of its day) and her days off ahead (at most
-- 60, within a year). Every new request is bounded by them at once. Each refusal says which rule
-- (its hint), and nothing is changed.
create or replace function public.set_visiting_hours(hours jsonb, days_off date[] default '{}')
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  me bigint := internal.my_agent_id();
  today date := (internal.now() at time zone 'America/Guayaquil')::date;
  period jsonb;
  periods internal.agent_visiting_hours[] := '{}';
  one internal.agent_visiting_hours;
begin
  if me is null then
    raise exception 'only an agent of ours has visiting hours' using errcode = '42501';
  end if;
  if pg_catalog.jsonb_typeof(hours) is distinct from 'array' or pg_catalog.jsonb_array_length(hours) not between 1 and 21 then
    raise exception 'hours is a list of 1 to 21 periods' using errcode = '22023', hint = 'hours_count';
  end if;
  for period in select * from pg_catalog.jsonb_array_elements(hours) loop
    if pg_catalog.jsonb_typeof(period) is distinct from 'object'
       or (period ->> 'weekday') !~ '^[1-7]$'
       or (period ->> 'opens') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
       or (period ->> 'closes') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$' then
      raise exception 'a period is {weekday: 1 to 7, opens: "HH:MM", closes: "HH:MM"}' using errcode = '22023', hint = 'hours_shape';
    end if;
    one := row(me, (period ->> 'weekday')::smallint, (period ->> 'opens')::time, (period ->> 'closes')::time);
    if one.closes - one.opens < (select r.length from internal.visit_rules() r) then
      raise exception 'a period ends at least a visit (an hour) after it opens' using errcode = '22023', hint = 'hours_order';
    end if;
    if exists (select 1 from pg_catalog.unnest(periods) p where p.weekday = one.weekday and p.opens < one.closes and one.opens < p.closes) then
      raise exception 'two periods of one day overlap' using errcode = '22023', hint = 'hours_overlap';
    end if;
    periods := periods || one;
  end loop;
  if pg_catalog.cardinality(days_off) > 60
     or exists (select 1 from pg_catalog.unnest(days_off) d where d is null or d < today or d > today + 366) then
    raise exception 'days off are at most 60 days, from today to a year ahead' using errcode = '22023', hint = 'days_off';
  end if;
  delete from internal.agent_visiting_hours h where h.agent_id = me;
  insert into internal.agent_visiting_hours select * from pg_catalog.unnest(periods);
  delete from internal.agent_days_off d where d.agent_id = me and d.day >= today;
  insert into internal.agent_days_off (agent_id, day) select distinct me, d from pg_catalog.unnest(coalesce(days_off, '{}')) d;
  return public.my_visiting_hours();
end
$$;
comment on function public.set_visiting_hours is 'A signed-in agent sets her weekly visiting hours and days off (docs/agent-area.md).';
