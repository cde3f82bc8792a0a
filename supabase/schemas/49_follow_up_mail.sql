-- Her morning mail (docs/agent-area.md "Her morning mail"): from 07:00 in Ecuador, an agent of ours
-- who has leads to follow up gets one mail a day that lists them: those whose follow-up day has
-- come (today or before) and those still new from before today that have no follow-up day; never a
-- lead won, lost, spam or erased. So does the team's inbox, of the team's own leads (no agent's).
-- Queued by the alert job's schedule, once a day and agent across servers (the outbox's key: her id,
-- or `team`, and the day), until noon; made when it is sent, from the leads as they are then
-- (core/functions/inquiry/follow-up-mail.ts). She turns hers off or on in her area.

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
