-- Where a lead goes when nothing names its agent (docs/agent-area.md "Routing"): the team's rules,
-- tried in order, by place, type, price and source, then the team's default: its own inbox, or an
-- even spread over the agents of ours. The rules never take a lead from the agent the owner's rules
-- give it (an element's lead-agent-id, a listing's agent, the agent addressed, the agent who serves
-- a seller's place: docs/leads.md): they decide the leads that would go to the team, and where an
-- agent's open leads go when she leaves.

create table internal.routing_rules (
  id bigint generated always as identity primary key,
  -- the order they are tried in: the first that matches decides
  position integer not null,
  -- a place's path (internal.places): the lead's place is it or within it; null: anywhere
  place text,
  -- a listing's or a seller's property type; null: any
  property_type text,
  -- the listing's price or the seller's estimate, in USD; null: no bound
  min_price numeric check (min_price >= 0),
  max_price numeric check (max_price >= 0),
  -- the element it came from, or its campaign's utm_source; null: any
  source text,
  agent_id bigint not null references public.agents (id) on delete cascade,
  created_by uuid,
  created_at timestamptz not null default internal.now(),
  check (min_price is null or max_price is null or min_price <= max_price)
);
alter table internal.routing_rules enable row level security;
create index routing_rules_position on internal.routing_rules (position);
comment on table internal.routing_rules is 'The team''s rules for the leads nothing names an agent for, tried in order (docs/agent-area.md).';

-- the leads the spread gave, by agent: what "evenly" counts
create index inquiries_spread on public.inquiries (owner_agent_id, received_at) where routed ->> 'by' = 'spread';

-- What the rules read of a stored lead: its listing, a seller's place, type and estimate, its source.
create or replace function internal.lead_route_facts(lead public.inquiries)
returns jsonb language sql stable set search_path = '' as $$
  select pg_catalog.jsonb_build_object('listing_id', lead.listing_id, 'place', lead.seller -> 'estimate' -> 'place' ->> 'path',
           'property_type', lead.seller -> 'facts' ->> 'property_type', 'price', lead.seller -> 'estimate' ->> 'value',
           'source', lead.element, 'campaign', lead.utm ->> 'utm_source')
$$;

-- The agent the team's routing gives a lead (`facts`: listing_id, place, property_type, price,
-- source, campaign; a listing's own place, type and price where the facts have none), never
-- `exclude`: {agent_id, by: rule, rule_id}, {agent_id, by: spread}, or null (the team's). The
-- spread is decided one lead at a time across servers (a lock held to the caller's commit), so two
-- leads at once are not both given to the same agent.
create or replace function internal.route_lead(facts jsonb, exclude bigint default null)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  f record;
  rule internal.routing_rules;
  chosen bigint;
begin
  select coalesce(nullif(facts ->> 'place', ''), l.city_slug || coalesce('/' || l.sector_slug, '')) as place,
         coalesce((select p.state_slug from internal.places p where p.path = pg_catalog.split_part(facts ->> 'place', '/', 1)), l.state_slug) as province,
         coalesce(nullif(facts ->> 'property_type', ''), l.property_type) as property_type,
         coalesce(case when facts ->> 'price' ~ '^[0-9]{1,12}(\.[0-9]+)?$' then (facts ->> 'price')::numeric end, l.price) as price,
         nullif(facts ->> 'source', '') as source,
         nullif(facts ->> 'campaign', '') as campaign
    into f
    from (select 1) one
    left join internal.listings l on l.id = case when facts ->> 'listing_id' ~ '^[0-9]{1,15}$' then (facts ->> 'listing_id')::bigint end;
  for rule in
    select r.* from internal.routing_rules r join public.agents a on a.id = r.agent_id
     where a.is_ours and a.email is not null and r.agent_id is distinct from exclude
     order by r.position, r.id
  loop
    if (rule.place is null or f.place = rule.place or f.place like rule.place || '/%' or rule.place = 'provincia/' || f.province)
       and (rule.property_type is null or rule.property_type = f.property_type)
       and (rule.min_price is null or f.price >= rule.min_price)
       and (rule.max_price is null or f.price <= rule.max_price)
       and (rule.source is null or rule.source = f.source or rule.source = f.campaign) then
      return pg_catalog.jsonb_build_object('agent_id', rule.agent_id, 'by', 'rule', 'rule_id', rule.id);
    end if;
  end loop;
  if coalesce((select s.value from internal.settings s where s.name = 'lead_routing_default'), 'team') = 'spread' then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('internal.route_lead: spread'));
    select a.id into chosen
      from public.agents a
     where a.is_ours and a.email is not null and a.id is distinct from exclude
     order by (select count(*) from public.inquiries i
                where i.owner_agent_id = a.id and i.routed ->> 'by' = 'spread' and i.received_at > internal.now() - interval '30 days'), a.id
     limit 1;
    if chosen is not null then
      return pg_catalog.jsonb_build_object('agent_id', chosen, 'by', 'spread');
    end if;
  end if;
  return null;
end
$$;

-- Who the signed-in caller is in the area: her agent id (null for the team's own account) and
-- whether she is the team's.
create or replace function public.my_role()
returns jsonb language sql stable security definer set search_path = '' as $$
  select pg_catalog.jsonb_build_object('agent_id', internal.my_agent_id(), 'team', internal.is_team(),
           'follow_up_mail', (select a.follow_up_mail from public.agents a where a.id = internal.my_agent_id()))
$$;
comment on function public.my_role is 'Whether the signed-in caller is an agent (her id, and whether she gets her morning mail) and whether she is the team''s (docs/agent-area.md).';

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

-- The team's routing: its default and its rules in order.
create or replace function public.routing_setup()
returns jsonb language plpgsql stable security definer set search_path = '' as $$
begin
  if not internal.is_team() then
    raise exception 'only the team sees the routing' using errcode = '42501';
  end if;
  return pg_catalog.jsonb_build_object(
    'default', coalesce((select s.value from internal.settings s where s.name = 'lead_routing_default'), 'team'),
    'rules', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', r.id, 'place', r.place, 'property_type', r.property_type,
                         'min_price', r.min_price, 'max_price', r.max_price, 'source', r.source, 'agent_id', r.agent_id) order by r.position, r.id)
                         from internal.routing_rules r), '[]'));
end
$$;
comment on function public.routing_setup is 'The team''s lead routing: its default and rules (docs/agent-area.md).';

-- The team saves its routing: the default ('team' or 'spread') and the rules in priority order,
-- all at once or none (a refusal names the rule's position and field in its hint).
create or replace function public.save_routing(default_route text, rules jsonb)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  rule jsonb;
  n integer := 0;
begin
  if not internal.is_team() then
    raise exception 'only the team sets the routing' using errcode = '42501';
  end if;
  if default_route is null or default_route not in ('team', 'spread') then
    raise exception 'the default is team or spread' using errcode = '22023', hint = 'default';
  end if;
  if pg_catalog.jsonb_typeof(rules) is distinct from 'array' or pg_catalog.jsonb_array_length(rules) > 100 then
    raise exception 'rules is a list of at most 100' using errcode = '22023', hint = 'rules';
  end if;
  delete from internal.routing_rules where true;
  for rule in select * from pg_catalog.jsonb_array_elements(rules) loop
    n := n + 1;
    if pg_catalog.jsonb_typeof(rule) is distinct from 'object'
       or not exists (select 1 from public.agents a where a.id::text = rule ->> 'agent_id' and a.is_ours) then
      raise exception 'rule %: its agent is none of ours', n using errcode = '22023', hint = 'agent:' || n;
    end if;
    if nullif(rule ->> 'place', '') is not null and not exists (select 1 from internal.places p where p.path = rule ->> 'place') then
      raise exception 'rule %: we have no place %', n, rule ->> 'place' using errcode = '22023', hint = 'place:' || n;
    end if;
    if (rule ->> 'min_price') !~ '^[0-9]{1,12}$' and nullif(rule ->> 'min_price', '') is not null
       or (rule ->> 'max_price') !~ '^[0-9]{1,12}$' and nullif(rule ->> 'max_price', '') is not null
       or (rule ->> 'min_price') ~ '^[0-9]{1,12}$' and (rule ->> 'max_price') ~ '^[0-9]{1,12}$' and (rule ->> 'min_price')::numeric > (rule ->> 'max_price')::numeric then
      raise exception 'rule %: prices are whole dollars, the lowest first', n using errcode = '22023', hint = 'price:' || n;
    end if;
    if pg_catalog.length(rule ->> 'property_type') > 40 or pg_catalog.length(rule ->> 'source') > 60 or (rule ->> 'source') ~ '[[:cntrl:]]' then
      raise exception 'rule %: a type or source that long is none of ours', n using errcode = '22023', hint = 'source:' || n;
    end if;
    insert into internal.routing_rules (position, place, property_type, min_price, max_price, source, agent_id, created_by)
    values (n, nullif(rule ->> 'place', ''), nullif(rule ->> 'property_type', ''), nullif(rule ->> 'min_price', '')::numeric,
            nullif(rule ->> 'max_price', '')::numeric, nullif(pg_catalog.btrim(rule ->> 'source'), ''), (rule ->> 'agent_id')::bigint, auth.uid());
  end loop;
  insert into internal.settings (name, value) values ('lead_routing_default', default_route)
  on conflict (name) do update set value = excluded.value;
  return public.routing_setup();
end
$$;
comment on function public.save_routing is 'The team sets its lead routing: the default and the rules in order (docs/agent-area.md).';

-- The team invites an agent: she becomes one of ours (a new agent, or one who had left and comes
-- back), so her address gets a sign-in code (docs/agent-area.md). Answers her id.
create or replace function public.invite_agent(email text, first_name text, last_name text)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  address text := pg_catalog.lower(pg_catalog.btrim(coalesce(invite_agent.email, '')));
  found bigint;
begin
  if not internal.is_team() then
    raise exception 'only the team invites an agent' using errcode = '42501';
  end if;
  if address !~ '^[^@\s]{1,64}@[^@\s]{1,190}\.[a-z]{2,}$' then
    raise exception 'an e-mail address is name@domain' using errcode = '22023', hint = 'email';
  end if;
  if coalesce(pg_catalog.btrim(invite_agent.first_name), '') = '' or pg_catalog.length(invite_agent.first_name) > 80 or pg_catalog.length(invite_agent.last_name) > 80 then
    raise exception 'a first name of at most 80 characters' using errcode = '22023', hint = 'name';
  end if;
  select a.id into found from public.agents a where pg_catalog.lower(a.email) = address order by a.id limit 1;
  if found is null then
    insert into public.agents (first_name, last_name, email, country_code)
    values (pg_catalog.btrim(invite_agent.first_name), nullif(pg_catalog.btrim(coalesce(invite_agent.last_name, '')), ''), address, 'EC')
    returning id into found;
  else
    update public.agents a set active = true, country_code = 'EC' where a.id = found;
  end if;
  return pg_catalog.jsonb_build_object('agent_id', found);
end
$$;
comment on function public.invite_agent is 'The team makes an address one of our agents, so she may sign in (docs/agent-area.md).';
