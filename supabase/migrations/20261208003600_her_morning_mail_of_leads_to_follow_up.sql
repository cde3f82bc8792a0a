-- Her morning mail of the leads to follow up (docs/agent-area.md "Her morning mail"): whether she
-- gets it (public.agents.follow_up_mail, hers to turn off, which public.my_role now says), which
-- leads it lists (and the team's own, to its inbox), its queueing by the alert job's schedule, and
-- her call to set it; and the team's list of agents says how many each has to follow up today
-- (public.team_agents).

alter table public.agents add column follow_up_mail boolean not null default true;

-- The leads to follow up on Ecuador's day (internal.now()), each its agent's (none: the team's
-- own): those whose follow-up day has come (today or before; the page's "follow-up due",
-- followUpState in core/protocol/follow-up.ts) and those still new from before the day with no
-- follow-up day; never a lead won, lost, spam or erased. A view, so that the planner takes its rule
-- into each query (one agent's leads from her index), the day read once a query (its subqueries:
-- read on each lead, every agent's took 65 ms of 100,000 leads, 15 ms so; docs/agent-area.md
-- "Speed"); tests/contract/agent-follow-up-mail.test.ts holds it to the page's rule.
create view internal.leads_to_follow_up with (security_invoker = true) as
  select i.id, i.owner_agent_id, i.name, i.email, i.phone, i.status, i.follow_up_on, i.received_at, i.kind, i.property_title
    from public.inquiries i
   where not i.spam and i.erased_at is null and i.status not in ('won', 'lost')
     and (i.follow_up_on <= (select (internal.now() at time zone 'America/Guayaquil')::date)
          or (i.follow_up_on is null and i.status = 'new'
              and i.received_at < (select (internal.now() at time zone 'America/Guayaquil')::date::timestamp at time zone 'America/Guayaquil')));

-- Queues the day's mail of every agent who wants it and has leads to follow up, and the team's of
-- its own, from 07:00 to noon in Ecuador (a server away at seven still sends it in the morning);
-- each once (the outbox's key; the team's recipient is its inbox, which the mail is sent to). How many.
create or replace function internal.queue_follow_up_mails()
returns integer language sql volatile set search_path = '' as $$
  with here as (
    select pg_catalog.to_char(t, 'YYYY-MM-DD') as day, t::time >= '07:00' and t::time < '12:00' as morning
      from (select internal.now() at time zone 'America/Guayaquil' as t) n
  ),
  due as (
    select a.id::text as who, a.email as recipient
      from public.agents a, here
     where here.morning and a.is_ours and a.follow_up_mail and a.email is not null
       and not exists (select 1 from internal.mail_outbox o where o.kind = 'follow-ups' and o.ref_id = a.id::text || ':' || here.day)
       and exists (select 1 from internal.leads_to_follow_up l where l.owner_agent_id = a.id)
    union all
    select 'team', 'team'
      from here
     where here.morning
       and not exists (select 1 from internal.mail_outbox o where o.kind = 'follow-ups' and o.ref_id = 'team:' || here.day)
       and exists (select 1 from internal.leads_to_follow_up l where l.owner_agent_id is null)
  ),
  queued as (select internal.enqueue_mail('follow-ups', due.who || ':' || here.day, due.recipient) as made from due, here)
  select pg_catalog.count(*) filter (where queued.made)::integer from queued
$$;

-- Her choice saved (public.my_role says it): an agent of ours only.
create or replace function public.set_my_follow_up_mail(wanted boolean)
returns boolean language plpgsql volatile security definer set search_path = '' as $$
declare
  me bigint := internal.my_agent_id();
begin
  if me is null then
    raise exception 'only an agent of ours gets the morning mail' using errcode = '42501';
  end if;
  if wanted is null then
    raise exception 'wanted is true or false' using errcode = '22023', hint = 'wanted';
  end if;
  update public.agents a set follow_up_mail = wanted where a.id = me;
  return wanted;
end
$$;
comment on function public.set_my_follow_up_mail is 'The signed-in agent turns her morning mail of the leads to follow up on or off (docs/agent-area.md).';

create or replace function public.my_role()
returns jsonb language sql stable security definer set search_path = '' as $$
  select pg_catalog.jsonb_build_object('agent_id', internal.my_agent_id(), 'team', internal.is_team(),
           'follow_up_mail', (select a.follow_up_mail from public.agents a where a.id = internal.my_agent_id()))
$$;
comment on function public.my_role is 'Whether the signed-in caller is an agent (her id, and whether she gets her morning mail) and whether she is the team''s (docs/agent-area.md).';

-- (a column more in its answer: dropped and made again, and granted again below)
drop function public.team_agents();
-- The team's view of the agents: every agent of the office, active or not, with her open leads and
-- those she has to follow up today (her morning mail's: internal.leads_to_follow_up), so that the
-- team sees who is behind.
create or replace function public.team_agents()
returns table (id bigint, name public.plain_text, email public.plain_text, active boolean, signed_in boolean, open_leads integer,
               to_follow_up integer)
language plpgsql stable security definer set search_path = '' as $$
begin
  if not internal.is_team() then
    raise exception 'only the team sees the agents so' using errcode = '42501';
  end if;
  return query
    select a.id, pg_catalog.btrim(pg_catalog.concat_ws(' ', a.first_name, a.last_name))::public.plain_text, a.email, a.active, a.user_id is not null,
           (select count(*)::integer from public.inquiries i where i.owner_agent_id = a.id and i.status not in ('won', 'lost') and not i.spam),
           (select count(*)::integer from internal.leads_to_follow_up l where l.owner_agent_id = a.id)
      from public.agents a
     where a.country_code = 'EC'
     order by a.active desc, a.last_name, a.first_name, a.id;
end
$$;
comment on function public.team_agents is 'The team''s list of the office''s agents (docs/agent-area.md).';

revoke all on internal.leads_to_follow_up from anon, authenticated;
grant select on internal.leads_to_follow_up to service_role;
revoke all on function internal.queue_follow_up_mails() from public, anon, authenticated;
grant execute on function internal.queue_follow_up_mails() to service_role;
revoke all on function public.set_my_follow_up_mail(boolean) from public, anon, authenticated;
grant execute on function public.set_my_follow_up_mail(boolean) to authenticated, service_role;
revoke all on function public.team_agents() from public, anon, authenticated;
grant execute on function public.team_agents() to authenticated, service_role;
