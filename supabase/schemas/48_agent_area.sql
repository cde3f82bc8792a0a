-- The agents' own area (docs/agent-area.md): who signs in, whose leads are whose, and what a
-- signed-in agent may read and change. Row level security is the rule: an agent reads and changes
-- her own leads through the same data API the elements use, the team reads and changes them all,
-- and the public key reads none (tests/contract/agent-area-leads.test.ts holds it with real JWTs).

-- the team (the brokerage's office), granted by the operator: reads and changes every lead
create table internal.team_members (
  user_id uuid primary key references auth.users (id) on delete cascade,
  added_at timestamptz not null default internal.now()
);
comment on table internal.team_members is 'The office''s people, who see every lead (granted by the operator: docs/agent-area.md).';

-- who is asking, from the request's JWT (auth.uid()): her agent id, and whether she is the team's.
-- Her agent is the one linked to her sign-in, else the one whose address her token carries while no
-- sign-in holds it: a hosted project's Auth links nothing of ours (our server's stand-in links at
-- sign-in), and the address in its token is the one the code was mailed to.
create or replace function internal.my_agent_id()
returns bigint language sql stable security definer set search_path = '' as $$
  select a.id
    from public.agents a
   where a.active
     and (a.user_id = auth.uid()
          or (a.user_id is null and pg_catalog.lower(a.email) = pg_catalog.lower(nullif(auth.jwt() ->> 'email', ''))))
   order by (a.user_id is not null) desc, a.id
   limit 1
$$;

create or replace function internal.is_team()
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from internal.team_members t where t.user_id = auth.uid())
$$;

-- a lead's owner (40_inquiries.sql) is what the policies read
create index inquiries_owner on public.inquiries (owner_agent_id, received_at desc);
-- the team reads every lead, newest first (docs/agent-area.md "Speed")
create index inquiries_received on public.inquiries (received_at desc);
-- an agent's search among her leads (internal.my_lead_ids): words anywhere in them
create index inquiries_search on public.inquiries using gin (search_text extensions.gin_trgm_ops);

create policy "An agent reads her own leads, the team all" on public.inquiries for select to authenticated
  using (not spam and (owner_agent_id = (select internal.my_agent_id()) or (select internal.is_team())));
create policy "An agent moves her own leads, the team all" on public.inquiries for update to authenticated
  using (not spam and (owner_agent_id = (select internal.my_agent_id()) or (select internal.is_team())))
  with check (owner_agent_id = (select internal.my_agent_id()) or (select internal.is_team()));

-- her notes on a lead, and the trail of every change (who, when, what)
create table public.lead_notes (
  id bigint generated always as identity primary key,
  lead_id uuid not null references public.inquiries (id) on delete cascade,
  author uuid not null default auth.uid() references auth.users (id),
  body text not null check (pg_catalog.length(pg_catalog.btrim(body)) between 1 and 4000),
  created_at timestamptz not null default internal.now()
);
alter table public.lead_notes enable row level security;
create index lead_notes_lead on public.lead_notes (lead_id, created_at);
comment on table public.lead_notes is 'An agent''s notes on a lead: seen by whoever sees the lead.';
create policy "Notes of the leads one sees" on public.lead_notes for select to authenticated
  using (exists (select 1 from public.inquiries i where i.id = lead_id));
create policy "Notes on the leads one sees, as oneself" on public.lead_notes for insert to authenticated
  with check (author = auth.uid() and exists (select 1 from public.inquiries i where i.id = lead_id));

create table public.lead_events (
  id bigint generated always as identity primary key,
  lead_id uuid not null references public.inquiries (id) on delete cascade,
  at timestamptz not null default internal.now(),
  by_user uuid,
  what text not null,
  before jsonb,
  after jsonb
);
alter table public.lead_events enable row level security;
create index lead_events_lead on public.lead_events (lead_id, at);
comment on table public.lead_events is 'Every change to a lead (its status, follow-up, owner, a note): written by the database, read by whoever sees the lead.';
create policy "The trail of the leads one sees" on public.lead_events for select to authenticated
  using (exists (select 1 from public.inquiries i where i.id = lead_id));

create or replace function internal.note_lead_change()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if tg_table_name = 'lead_notes' then
    insert into public.lead_events (lead_id, by_user, what, after)
    values (new.lead_id, auth.uid(), 'note', pg_catalog.jsonb_build_object('note', new.id));
  elsif (old.status, old.follow_up_on, old.owner_agent_id) is distinct from (new.status, new.follow_up_on, new.owner_agent_id) then
    insert into public.lead_events (lead_id, by_user, what, before, after)
    values (new.id, auth.uid(), case when old.owner_agent_id is distinct from new.owner_agent_id then 'reassigned' else 'changed' end,
            pg_catalog.jsonb_build_object('status', old.status, 'follow_up_on', old.follow_up_on, 'owner_agent_id', old.owner_agent_id),
            pg_catalog.jsonb_build_object('status', new.status, 'follow_up_on', new.follow_up_on, 'owner_agent_id', new.owner_agent_id));
  end if;
  return null;
end
$$;

create trigger inquiries_trail after update on public.inquiries for each row execute function internal.note_lead_change();
create trigger lead_notes_trail after insert on public.lead_notes for each row execute function internal.note_lead_change();

-- Our server's stand-in for Supabase Auth (server/stand-in/auth/): the codes it mailed and the sessions it
-- keeps. A hosted project's Auth keeps its own; these stay empty there.
create table internal.auth_codes (
  id bigint generated always as identity primary key,
  email text not null,
  code_hash text not null,
  created_at timestamptz not null default internal.now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  attempts integer not null default 0,
  -- who asked for it (a hash of the client's address), for the per-client limit
  client_hash text
);
create index auth_codes_email on internal.auth_codes (pg_catalog.lower(email), created_at desc);
create index auth_codes_client on internal.auth_codes (client_hash, created_at desc);

-- each try of a code, by client (the per-client limit on tries)
create table internal.auth_tries (
  client_hash text not null,
  at timestamptz not null default internal.now()
);
create index auth_tries_client on internal.auth_tries (client_hash, at desc);

create table internal.auth_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  refresh_hash text not null unique,
  created_at timestamptz not null default internal.now(),
  refreshed_at timestamptz not null default internal.now(),
  revoked_at timestamptz
);
create index auth_sessions_user on internal.auth_sessions (user_id) where revoked_at is null;

-- A lead's status as the area names them (the inquiries' check constraint holds the same list, and
-- tests/contract/agent-area-leads.test.ts the area's to it): anything else refused, its field named.
create or replace function internal.check_lead_status(status text)
returns void language plpgsql immutable set search_path = '' as $$
begin
  if status is null or status not in ('new', 'contacted', 'visit_booked', 'offer', 'won', 'lost') then
    raise exception 'status must be new, contacted, visit_booked, offer, won or lost' using errcode = '22023', hint = 'status';
  end if;
end
$$;

-- An agent moves a lead (its status, its follow-up day) and may add a note, in one call, as herself:
-- row level security decides whether it is hers (the team's: any); the trail records it.
create or replace function public.move_lead(lead_id uuid, status text, follow_up_on date default null, note text default null)
returns jsonb language plpgsql volatile security invoker set search_path = '' as $$
begin
  perform internal.check_lead_status(move_lead.status);
  update public.inquiries i set status = move_lead.status, follow_up_on = move_lead.follow_up_on where i.id = move_lead.lead_id;
  if not found then
    raise exception 'no lead of yours has this id' using errcode = 'P0002';
  end if;
  if move_lead.note is not null and pg_catalog.btrim(move_lead.note) <> '' then
    insert into public.lead_notes (lead_id, body) values (move_lead.lead_id, pg_catalog.btrim(move_lead.note));
  end if;
  return (select pg_catalog.jsonb_build_object('id', i.id, 'status', i.status, 'follow_up_on', i.follow_up_on)
            from public.inquiries i where i.id = move_lead.lead_id);
end
$$;
comment on function public.move_lead is 'A signed-in agent moves her lead (status, follow-up) and may note why (docs/agent-area.md).';

-- A lead the team's hand moved: the CRM hears lead.reassigned, and its new owner (an agent of ours)
-- is mailed the lead (kind lead-reassigned; core/functions/inquiry/mail.ts).
create or replace function internal.lead_moved(lead_id uuid, from_agent bigint, to_agent bigint, reason text)
returns void language plpgsql volatile set search_path = '' as $$
declare
  why text := nullif(pg_catalog.btrim(coalesce(reason, '')), '');
  address text;
begin
  perform internal.enqueue_webhook('lead.reassigned', pg_catalog.jsonb_build_object(
    'id', lead_id, 'from_agent_id', from_agent, 'to_agent_id', to_agent, 'reason', why, 'by', 'team'));
  select a.email into address from public.agents a where a.id = to_agent and a.is_ours;
  if address is not null then
    perform internal.enqueue_mail('lead-reassigned', lead_id::text || ':' || (select pg_catalog.count(*) from public.lead_events e where e.lead_id = lead_moved.lead_id),
                                  address, pg_catalog.jsonb_build_object('reason', why));
  end if;
end
$$;

-- The team gives a lead to another agent of ours (or to the team: agent_id null), and may say why:
-- the lead is hers from now on, the trail says who did it, and the CRM hears it (lead.reassigned).
-- Only the team: the function checks it, as row level security checks an agent's own moves.
create or replace function public.reassign_lead(lead_id uuid, agent_id bigint default null, reason text default null)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  before bigint;
begin
  if not internal.is_team() then
    raise exception 'only the team reassigns a lead' using errcode = '42501';
  end if;
  if reassign_lead.agent_id is not null and not exists (select 1 from public.agents a where a.id = reassign_lead.agent_id and a.is_ours) then
    raise exception 'no agent of ours has this id' using errcode = '22023';
  end if;
  select i.owner_agent_id into before from public.inquiries i where i.id = reassign_lead.lead_id for update;
  if not found then
    raise exception 'no lead has this id' using errcode = 'P0002';
  end if;
  update public.inquiries i set assigned = true, assigned_agent_id = reassign_lead.agent_id, routed = null where i.id = reassign_lead.lead_id;
  perform internal.lead_moved(reassign_lead.lead_id, before, reassign_lead.agent_id, reassign_lead.reason);
  return pg_catalog.jsonb_build_object('id', reassign_lead.lead_id, 'owner_agent_id', reassign_lead.agent_id);
end
$$;
comment on function public.reassign_lead is 'The team gives a lead to an agent of ours, or to the team (docs/agent-area.md).';

-- The team marks an agent as gone: no profile in the directory, no new leads (agents.is_ours), her
-- sessions end, and her open leads go where the team's routing sends them (49_lead_routing.sql),
-- else to the team, each reassigned as the team's own hand would: the new owner and the CRM told.
create or replace function public.deactivate_agent(agent_id bigint)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  gone public.agents;
  lead public.inquiries;
  route jsonb;
  moved integer := 0;
begin
  if not internal.is_team() then
    raise exception 'only the team deactivates an agent' using errcode = '42501';
  end if;
  update public.agents a set active = false where a.id = deactivate_agent.agent_id and a.active returning a.* into gone;
  if gone.id is null then
    raise exception 'no active agent has this id' using errcode = 'P0002';
  end if;
  update internal.auth_sessions s set revoked_at = internal.now() where s.user_id = gone.user_id and s.revoked_at is null;
  for lead in select i.* from public.inquiries i where i.owner_agent_id = gone.id and i.status not in ('won', 'lost') and not i.spam order by i.received_at loop
    -- where the team's routing sends it now (49_lead_routing.sql), never to her; else the team
    route := internal.route_lead(internal.lead_route_facts(lead), gone.id);
    update public.inquiries i set assigned = true, assigned_agent_id = (route ->> 'agent_id')::bigint, routed = route where i.id = lead.id;
    perform internal.lead_moved(lead.id, gone.id, (route ->> 'agent_id')::bigint, 'agent deactivated');
    moved := moved + 1;
  end loop;
  return pg_catalog.jsonb_build_object('agent_id', gone.id, 'leads_moved', moved);
end
$$;
comment on function public.deactivate_agent is 'The team marks an agent as gone: out of the directory, no new leads, her open leads moved by the routing (docs/agent-area.md).';

-- Her confirmed alert subscriptions (docs/agent-area.md "Leads"): the saved searches, market follows
-- and home reports whose owner she is (an element's lead-agent-id, as for an inquiry: docs/leads.md),
-- confirmed and not unsubscribed; the team's: all. Newest first, 500 at most.
create or replace function public.my_alert_leads()
returns table (
  id bigint, email public.plain_text, filters jsonb, market jsonb, home jsonb, frequency public.plain_text, lang public.plain_text,
  status public.plain_text, confirmed_at timestamptz, lead_agent_id bigint, page_url public.plain_text, element public.plain_text, utm jsonb
)
language sql stable security definer set search_path = '' as $$
  select s.id, s.email, s.filters, s.market, s.home, s.frequency, s.lang, s.status, s.confirmed_at, s.lead_agent_id, s.page_url, s.element, s.utm
    from internal.saved_searches s
   where s.confirmed_at is not null and s.status in ('active', 'paused') and not s.spam
     and ((s.lead_agent_id is not null and s.lead_agent_id = internal.my_agent_id()) or internal.is_team())
   order by s.confirmed_at desc, s.id desc
   limit 500
$$;
comment on function public.my_alert_leads is 'A signed-in agent''s confirmed alert subscriptions (the team''s: all): docs/agent-area.md.';

-- Her search (public.my_leads) as LIKE patterns on a lead's search_text (40_inquiries.sql), which
-- its trigram index answers, taken literally: `words` folded as the site's search folds them; a
-- phone's `digits`, a national 0 dropped (0991234567 finds +593 99 123 4567), when there are six to
-- name one.
create or replace function internal.lead_search(search text, out words text, out digits text)
language sql immutable parallel safe set search_path = '' as $$
  select internal.contains_pattern(nullif(public.search_fold(pg_catalog.btrim(search)), '')),
         case when pg_catalog.length(d.digits) >= 6 then internal.contains_pattern(d.digits) end
    from (select pg_catalog.ltrim(pg_catalog.regexp_replace(coalesce(search, ''), '\D', '', 'g'), '0') as digits) d
$$;

-- The leads of the page she asks for (public.my_leads): hers (the team's: all, or those of
-- `owner_id`'s, 0 the team's own; never spam, as the policies above say), newest first, older than
-- `older_than`/`older_id`, of `status`, of `kind`, that her `search` finds, each only when given.
-- One statement with only the conditions asked for, planned for its values, so that the index that
-- serves them answers: the owner's, when they came, or the search's trigram index. As its owner, reading who
-- asks from the request's token as the policies do: under row level security the search's LIKE
-- waits until each row has passed the policy (it is not leakproof), so no index could answer it and
-- the team's search read every lead. public.my_leads reads the leads themselves as her.
create or replace function internal.my_lead_ids(max_rows integer, older_than timestamptz, older_id uuid, search text, status text,
                                                owner_id bigint, kind text)
returns setof uuid language plpgsql stable security definer set search_path = '' as $$
declare
  me bigint := internal.my_agent_id();
  team boolean := internal.is_team();
  words text;
  digits text;
begin
  select f.words, f.digits into words, digits from internal.lead_search(search) f;
  -- (fixed words only: every value is a parameter)
  return query execute 'select i.id from public.inquiries i where not i.spam'
    || case when not team then ' and i.owner_agent_id = $1' when owner_id = 0 then ' and i.owner_agent_id is null'
            when owner_id is not null then ' and i.owner_agent_id = $2' else '' end
    || case when older_than is not null then ' and (i.received_at, i.id) < ($3, $4)' else '' end
    || case when words is not null then ' and (i.search_text like $5 or i.search_text like $6)' else '' end
    || case when status is not null then ' and i.status = $7' else '' end
    || case when kind is not null then ' and i.kind = $9' else '' end
    || ' order by i.received_at desc, i.id desc limit $8'
    using me, owner_id, older_than, older_id, words, digits, status, max_rows, kind;
end
$$;

-- Her leads, newest first, in one call (docs/agent-area.md "Speed"): as herself, row level security
-- deciding as for any read, and asked so that an index answers (internal.my_lead_ids). Her
-- `max_rows` newest (1 to 1000); older than the lead (`older_than`, `older_id`: the last one she
-- has) for the next page; those her `search` finds (at most 100 characters), of a `status`, of a
-- `kind` (what they asked about), and for the team those of one agent (`owner_id`; 0: the team's
-- own), so that every lead she has is within reach, not only her newest.
create or replace function public.my_leads(max_rows integer default 500, older_than timestamptz default null, older_id uuid default null,
                                           search text default null, status text default null, owner_id bigint default null,
                                           kind text default null)
returns json language plpgsql stable security invoker set search_path = '' as $$
begin
  if max_rows is null or max_rows not between 1 and 1000 then
    raise exception 'max_rows is 1 to 1000' using errcode = '22023', hint = 'max_rows';
  end if;
  if (older_than is null) <> (older_id is null) then
    raise exception 'older_than and older_id name one lead: both or neither' using errcode = '22023', hint = 'older_than';
  end if;
  if pg_catalog.length(search) > 100 then
    raise exception 'search is at most 100 characters' using errcode = '22023', hint = 'search';
  end if;
  if my_leads.status is not null then
    perform internal.check_lead_status(my_leads.status);
  end if;
  if my_leads.kind not in ('listing', 'valuation', 'general') then
    raise exception 'kind is listing, valuation or general' using errcode = '22023', hint = 'kind';
  end if;
  if owner_id < 0 then
    raise exception 'owner_id is an agent''s id, or 0 for the team''s own leads' using errcode = '22023', hint = 'owner_id';
  end if;
  -- the page's leads, then each with its consents (internal.lead_consents)
  return coalesce((with shown as (select s.id from internal.my_lead_ids(max_rows, older_than, older_id, search, my_leads.status, owner_id, my_leads.kind) s(id))
    select pg_catalog.json_agg(l order by l.received_at desc, l.id desc) from (
      select i.id, i.name, i.email, i.phone, i.message, i.property_title, i.listing_id, i.lang, i.received_at, i.page_url, i.element, i.utm, i.seller,
             i.status, i.follow_up_on, i.recipient_kind, i.assigned, i.routed, i.owner_agent_id, i.erased_at, i.kind, c.consents
        from public.inquiries i join shown on shown.id = i.id
        left join internal.lead_consents(array(select shown.id from shown)) c on c.lead_id = i.id) l), '[]'::json);
end
$$;
comment on function public.my_leads is 'A signed-in agent''s leads, newest first, a page at a time, those her search finds (the team''s: all): docs/agent-area.md.';
