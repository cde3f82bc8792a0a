-- Her leads' consents (internal.lead_consents, read by public.my_leads) read who asks once, not on
-- each lead: of her 200 leads' call's 70-100 ms (100,000 leads), 65-70 ms were this (docs/agent-area.md "Speed").

-- The consents of these leads, as the agents' area shows them (public.my_leads): those given with
-- the lead, and her home reports' (a consent is the person's). Only the caller's leads (the team's:
-- all); the words and the page stay with her data's page. Who asks is read once (each a scalar
-- subquery): read on each lead, it cost her 200 leads 70 ms (docs/agent-area.md "Speed").
create or replace function internal.lead_consents(ids uuid[])
returns table (lead_id uuid, consents jsonb)
language sql stable security definer set search_path = '' as $$
  select i.id, k.consents
    from public.inquiries i
    cross join lateral (
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('purpose', c.purpose, 'given_at', c.given_at, 'withdrawn_at', c.withdrawn_at) order by c.given_at) as consents
        from (select * from internal.consents c where c.inquiry_id = i.id
              union all
              select * from internal.consents c
               where i.erased_at is null and c.search_id is not null and c.inquiry_id is null and internal.mailbox(c.email) = internal.mailbox(i.email)) c) k
   where i.id = any (ids) and k.consents is not null and ((select internal.is_team()) or i.owner_agent_id = (select internal.my_agent_id()))
$$;

