-- The agents' area: her confirmed alert subscriptions among her leads (issue 59; docs/agent-area.md).

-- Her confirmed alert subscriptions (docs/agent-area.md "Leads"): the saved searches, market follows
-- and home reports whose owner she is (an element's lead-agent-id, as for an inquiry: docs/leads.md),
-- confirmed and not unsubscribed; the team's: all. Newest first, 500 at most.
create or replace function public.my_alert_leads()
returns table (
  id bigint, email public.plain_text, filters jsonb, market jsonb, home jsonb, frequency public.plain_text, lang public.plain_text,
  status public.plain_text, confirmed_at timestamptz, lead_agent_id bigint, page_url public.plain_text, element public.plain_text, utm jsonb
)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.email, s.filters, s.market, s.home, s.frequency, s.lang, s.status, s.confirmed_at, s.lead_agent_id, s.page_url, s.element, s.utm
    from internal.saved_searches s
   where s.confirmed_at is not null and s.status in ('active', 'paused') and not s.spam
     and ((s.lead_agent_id is not null and s.lead_agent_id = internal.my_agent_id()) or internal.is_team())
   order by s.confirmed_at desc, s.id desc
   limit 500
$$;
comment on function public.my_alert_leads is 'A signed-in agent''s confirmed alert subscriptions (the team''s: all): docs/agent-area.md.';

revoke all on function public.my_alert_leads() from public, anon, authenticated;
grant execute on function public.my_alert_leads() to service_role, authenticated;
