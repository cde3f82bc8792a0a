-- Her leads past her newest 500 (docs/agent-area.md "The page"): public.my_leads pages on (older
-- than the last lead she has) and finds what she searches for among all of hers, so that every lead
-- she has is within reach. The one-argument function it replaces is dropped: PostgREST would
-- otherwise have two to choose from for a call that names max_rows alone.

-- what an agent's search reads (public.my_leads): the lead's words folded as the site's search
-- folds them, then its phone's digits; kept by the database as the lead changes (an erased lead's
-- with it), a trigram index answering
alter table public.inquiries add column search_text text generated always as (
    public.search_fold(coalesce(name, '') || E'\n' || coalesce(email, '') || E'\n' || coalesce(message, '') || E'\n' || coalesce(property_title, ''))
    || E'\n' || pg_catalog.regexp_replace(coalesce(phone, ''), '\D', '', 'g')) stored;
-- an agent's search among her leads (internal.my_lead_ids): words anywhere in them
create index inquiries_search on public.inquiries using gin (search_text extensions.gin_trgm_ops);

drop function public.my_leads(integer);

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

-- The leads of the page she asks for (public.my_leads): hers (the team's: all; never spam, as the
-- policies above say), newest first, older than `older_than`/`older_id` when given, those her
-- `search` finds when given, each way by its own index. As its owner, reading who asks from the
-- request's token as the policies do: under row level security the search's LIKE waits until each
-- row has passed the policy (it is not leakproof), so no index could answer it and the team's
-- search read every lead. public.my_leads reads the leads themselves as her.
create or replace function internal.my_lead_ids(max_rows integer, older_than timestamptz, older_id uuid, search text)
returns setof uuid language plpgsql stable security definer set search_path = '' as $$
declare
  me bigint := internal.my_agent_id();
  team boolean := internal.is_team();
  words text;
  digits text;
begin
  select f.words, f.digits into words, digits from internal.lead_search(search) f;
  return query
    (select i.id from public.inquiries i
      where team and not i.spam and (older_than is null or (i.received_at, i.id) < (older_than, older_id))
        and (words is null or i.search_text like words or i.search_text like digits)
      order by i.received_at desc, i.id desc limit max_rows)
    union all
    (select i.id from public.inquiries i
      where not team and i.owner_agent_id = me and not i.spam and (older_than is null or (i.received_at, i.id) < (older_than, older_id))
        and (words is null or i.search_text like words or i.search_text like digits)
      order by i.received_at desc, i.id desc limit max_rows);
end
$$;

-- Her leads, newest first, in one call (docs/agent-area.md "Speed"): as herself, row level security
-- deciding as for any read, and asked so that an index answers (internal.my_lead_ids). Her
-- `max_rows` newest (1 to 1000); older than the lead (`older_than`, `older_id`: the last one she
-- has) for the next page; those her `search` finds (at most 100 characters), so that every lead
-- she has is within reach, not only her newest.
create or replace function public.my_leads(max_rows integer default 500, older_than timestamptz default null, older_id uuid default null,
                                           search text default null)
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
  -- the page's leads, then each with its consents (internal.lead_consents)
  return coalesce((with shown as (select s.id from internal.my_lead_ids(max_rows, older_than, older_id, search) s(id))
    select pg_catalog.json_agg(l order by l.received_at desc, l.id desc) from (
      select i.id, i.name, i.email, i.phone, i.message, i.property_title, i.listing_id, i.lang, i.received_at, i.page_url, i.element, i.utm, i.seller,
             i.status, i.follow_up_on, i.recipient_kind, i.assigned, i.routed, i.owner_agent_id, i.erased_at, c.consents
        from public.inquiries i join shown on shown.id = i.id
        left join internal.lead_consents(array(select shown.id from shown)) c on c.lead_id = i.id) l), '[]'::json);
end
$$;
comment on function public.my_leads is 'A signed-in agent''s leads, newest first, a page at a time, those her search finds (the team''s: all): docs/agent-area.md.';

revoke all on function public.my_leads(integer, timestamptz, uuid, text) from public, anon, authenticated;
grant execute on function public.my_leads(integer, timestamptz, uuid, text) to authenticated, service_role;
revoke all on function internal.lead_search(text), internal.my_lead_ids(integer, timestamptz, uuid, text) from public, anon, authenticated;
grant execute on function internal.lead_search(text), internal.my_lead_ids(integer, timestamptz, uuid, text) to service_role;
grant execute on function internal.my_lead_ids(integer, timestamptz, uuid, text) to authenticated;
