-- A visitor's consents (docs/privacy.md "Consents"): where consent is the legal basis (Ecuador's
-- LOPDP, Art. 8), each purpose is a box of its own, never ticked in advance, and what she ticked is
-- kept with the request it came with: the words she read, the notice's version, when, from which
-- page. Withdrawing is one click (a link in the mails and webhooks that rely on it, her data's page)
-- and the CRM hears `consent.withdrawn`. Written by the functions with the service role; an agent
-- reads her leads' consents through internal.lead_consents.
create table internal.consents (
  id bigint generated always as identity primary key,
  -- marketing mail, the monthly home report, being contacted by other agents of the brokerage
  purpose text not null check (purpose in ('marketing', 'home_report', 'other_agents')),
  email text not null,
  -- the request it came with: an inquiry, a visit or a seller's lead; or a home report's subscription
  inquiry_id uuid references public.inquiries (id) on delete cascade,
  search_id bigint references internal.saved_searches (id) on delete cascade,
  -- the box's words as she read them, in her language, under this version of the notice
  text text not null check (pg_catalog.length(text) between 1 and 1000),
  lang text not null check (lang in ('en', 'es')),
  notice_version text not null,
  page text,
  given_at timestamptz not null default internal.now(),
  withdrawn_at timestamptz,
  withdrawn_via text check (withdrawn_via in ('link', 'my-data', 'unsubscribe')),
  constraint consents_with_request check (inquiry_id is not null or search_id is not null),
  constraint consents_withdrawn check ((withdrawn_at is null) = (withdrawn_via is null))
);

alter table internal.consents enable row level security;

comment on table internal.consents is 'What a visitor consented to, each purpose on its own, with the words, the notice''s version, the time and the page; withdrawn in one click.';

create index consents_mailbox on internal.consents (internal.mailbox(email));

create index consents_inquiry on internal.consents (inquiry_id) where inquiry_id is not null;

create index consents_search on internal.consents (search_id) where search_id is not null;

-- The withdrawal links' tokens, kept as their SHA-256 only; they work as long as the consent is
-- kept (a withdrawal must never be refused for a late click).
create table internal.consent_tokens (
  token_hash text primary key,
  consent_id bigint not null references internal.consents (id) on delete cascade,
  created_at timestamptz not null default internal.now()
);

alter table internal.consent_tokens enable row level security;

comment on table internal.consent_tokens is 'SHA-256 of the links that withdraw a consent in one click.';

create index consent_tokens_consent on internal.consent_tokens (consent_id);

-- A consent as it is told (her data's page, the agents' area, the webhooks): the one shape.
create or replace function internal.consent_json(c internal.consents)
returns jsonb language sql immutable set search_path = '' as $$
  select pg_catalog.jsonb_build_object('id', c.id, 'purpose', c.purpose, 'text', c.text, 'lang', c.lang, 'notice_version', c.notice_version,
    'page', c.page, 'given_at', c.given_at, 'withdrawn_at', c.withdrawn_at, 'withdrawn_via', c.withdrawn_via)
$$;

-- Withdraws these consents (`via`: a mail's link, her data's page, or the report's unsubscribe):
-- a home report withdrawn is unsubscribed (no report is sent again), and the CRM hears
-- consent.withdrawn with the address, so its own mail stops too. The count withdrawn now (one
-- withdrawn before counts nothing).
create or replace function internal.withdraw_consents(ids bigint[], via text)
returns integer language plpgsql volatile set search_path = '' as $$
declare
  c internal.consents;
  n integer := 0;
begin
  for c in update internal.consents x set withdrawn_at = internal.now(), withdrawn_via = via
            where x.id = any (ids) and x.withdrawn_at is null returning x.* loop
    n := n + 1;
    if c.purpose = 'home_report' and c.search_id is not null then
      perform internal.unsubscribe_search(c.search_id);
    end if;
    perform internal.enqueue_webhook('consent.withdrawn', internal.consent_json(c)
      || pg_catalog.jsonb_build_object('email', c.email, 'inquiry_id', c.inquiry_id, 'saved_search_id', c.search_id));
  end loop;
  return n;
end
$$;

-- A saved search unsubscribed (its mail's link, her data's page): the consent it relied on is
-- withdrawn with it. The one way a search is unsubscribed.
create or replace function internal.unsubscribe_search(search bigint)
returns void language plpgsql volatile set search_path = '' as $$
begin
  update internal.saved_searches s set status = 'unsubscribed', unsubscribed_at = internal.now(), next_run_at = null
   where s.id = search and s.status in ('pending', 'active', 'paused');
  perform internal.withdraw_consents(array(select c.id from internal.consents c where c.search_id = search and c.withdrawn_at is null), 'unsubscribe');
end
$$;

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

comment on function internal.lead_consents is 'Her leads'' consents (purpose, given, withdrawn), for the caller''s own leads only: docs/privacy.md "Consents".';
