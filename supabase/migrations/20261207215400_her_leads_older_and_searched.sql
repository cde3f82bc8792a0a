-- Her leads past her newest 500 (docs/agent-area.md "The page"): public.my_leads pages on (older
-- than the last lead she has), finds what she searches for among all of hers, and keeps to a status
-- (and for the team to one agent's), so that every lead she has is within reach. The one-argument
-- function it replaces is dropped: PostgREST would otherwise have two to choose from for a call that
-- names max_rows alone. move_lead checks a status by the same function as my_leads. What a lead
-- asked about is a column the database keeps (the page's rule until now), so that a filter by it
-- reaches all her leads too.

-- what an agent's search reads (public.my_leads): the lead's words folded as the site's search
-- folds them, then its phone's digits; kept by the database as the lead changes (an erased lead's
-- with it), a trigram index answering
alter table public.inquiries add column search_text text generated always as (
    public.search_fold(coalesce(name, '') || E'\n' || coalesce(email, '') || E'\n' || coalesce(message, '') || E'\n' || coalesce(property_title, ''))
    || E'\n' || pg_catalog.regexp_replace(coalesce(phone, ''), '\D', '', 'g')) stored;
-- what it asked about (docs/agent-area.md "The page"): a home's value (a seller), a listing, or a
-- general question; her filter asks the database for it (public.my_leads)
alter table public.inquiries add column kind text generated always as (
    case when seller is not null then 'valuation' when listing_id is not null or nullif(property_title, '') is not null then 'listing'
         else 'general' end) stored;
-- an agent's search among her leads (internal.my_lead_ids): words anywhere in them
create index inquiries_search on public.inquiries using gin (search_text extensions.gin_trgm_ops);

drop function public.my_leads(integer);

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

revoke all on function public.my_leads(integer, timestamptz, uuid, text, text, bigint, text) from public, anon, authenticated;
grant execute on function public.my_leads(integer, timestamptz, uuid, text, text, bigint, text) to authenticated, service_role;
revoke all on function internal.lead_search(text), internal.my_lead_ids(integer, timestamptz, uuid, text, text, bigint, text), internal.check_lead_status(text)
  from public, anon, authenticated;
grant execute on function internal.lead_search(text), internal.my_lead_ids(integer, timestamptz, uuid, text, text, bigint, text), internal.check_lead_status(text)
  to service_role;
grant execute on function internal.my_lead_ids(integer, timestamptz, uuid, text, text, bigint, text), internal.check_lead_status(text) to authenticated;
grant select (kind) on public.inquiries to authenticated;
