-- Her leads in one call (issue 59; docs/agent-area.md "Speed"): the page asks for them with her
-- session alone, and an index answers.

-- Her leads, newest first, in one call (docs/agent-area.md "Speed"): as herself, row level security
-- deciding as for any read, and asked so that an index answers: an agent's by her id (the owner's
-- index), the team's by when they came. Her `max_rows` newest (1 to 1000).
create or replace function public.my_leads(max_rows integer default 500)
returns json
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  me bigint := internal.my_agent_id();
begin
  if max_rows is null or max_rows not between 1 and 1000 then
    raise exception 'max_rows is 1 to 1000' using errcode = '22023', hint = 'max_rows';
  end if;
  if internal.is_team() then
    return coalesce((select pg_catalog.json_agg(l order by l.received_at desc, l.id) from (
      select i.id, i.name, i.email, i.phone, i.message, i.property_title, i.listing_id, i.lang, i.received_at, i.page_url, i.element, i.utm, i.seller,
             i.status, i.follow_up_on, i.recipient_kind, i.assigned, i.routed, i.owner_agent_id
        from public.inquiries i order by i.received_at desc limit max_rows) l), '[]'::json);
  end if;
  return coalesce((select pg_catalog.json_agg(l order by l.received_at desc, l.id) from (
    select i.id, i.name, i.email, i.phone, i.message, i.property_title, i.listing_id, i.lang, i.received_at, i.page_url, i.element, i.utm, i.seller,
           i.status, i.follow_up_on, i.recipient_kind, i.assigned, i.routed, i.owner_agent_id
      from public.inquiries i where i.owner_agent_id = me order by i.received_at desc limit max_rows) l), '[]'::json);
end
$$;
comment on function public.my_leads is 'A signed-in agent''s leads, newest first, in one call (the team''s: all): docs/agent-area.md.';

revoke all on function public.my_leads(integer) from public, anon, authenticated;
grant execute on function public.my_leads(integer) to service_role, authenticated;
