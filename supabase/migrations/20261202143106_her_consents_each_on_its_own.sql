-- A visitor's consents, each purpose a box of its own (docs/privacy.md "Consents"): the table, its
-- withdrawal links' tokens, and the functions that keep, withdraw and show them; her data, her
-- erasure and the agents' leads restated to carry them; the CRM may hear consent.withdrawn.

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
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('id', c.id, 'purpose', c.purpose, 'text', c.text, 'lang', c.lang, 'notice_version', c.notice_version,
    'page', c.page, 'given_at', c.given_at, 'withdrawn_at', c.withdrawn_at, 'withdrawn_via', c.withdrawn_via)
$$;

-- Withdraws these consents (`via`: a mail's link, her data's page, or the report's unsubscribe):
-- a home report withdrawn is unsubscribed (no report is sent again), and the CRM hears
-- consent.withdrawn with the address, so its own mail stops too. The count withdrawn now (one
-- withdrawn before counts nothing).
create or replace function internal.withdraw_consents(ids bigint[], via text)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
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
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  update internal.saved_searches s set status = 'unsubscribed', unsubscribed_at = internal.now(), next_run_at = null
   where s.id = search and s.status in ('pending', 'active', 'paused');
  perform internal.withdraw_consents(array(select c.id from internal.consents c where c.search_id = search and c.withdrawn_at is null), 'unsubscribe');
end
$$;

-- The consents of these leads, as the agents' area shows them (public.my_leads): those given with
-- the lead, and her home reports' (a consent is the person's). Only the caller's leads (the team's:
-- all); the words and the page stay with her data's page.
create or replace function internal.lead_consents(ids uuid[])
returns table (lead_id uuid, consents jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select i.id, k.consents
    from public.inquiries i
    cross join lateral (
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('purpose', c.purpose, 'given_at', c.given_at, 'withdrawn_at', c.withdrawn_at) order by c.given_at) as consents
        from (select * from internal.consents c where c.inquiry_id = i.id
              union all
              select * from internal.consents c
               where i.erased_at is null and c.search_id is not null and c.inquiry_id is null and internal.mailbox(c.email) = internal.mailbox(i.email)) c) k
   where i.id = any (ids) and k.consents is not null and (internal.is_team() or i.owner_agent_id = internal.my_agent_id())
$$;

comment on function internal.lead_consents is 'Her leads'' consents (purpose, given, withdrawn), for the caller''s own leads only: docs/privacy.md "Consents".';


alter table internal.webhook_endpoints drop constraint webhook_endpoints_events_check;
alter table internal.webhook_endpoints add constraint webhook_endpoints_events_check check (cardinality(events) > 0 and events <@ array['inquiry.created', 'alert.confirmed', 'alert.unsubscribed', 'seller.lead.created', 'visit.requested', 'visit.confirmed', 'visit.cancelled', 'lead.reassigned', 'lead.erased', 'consent.withdrawn']);

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
  team boolean := internal.is_team();
begin
  if max_rows is null or max_rows not between 1 and 1000 then
    raise exception 'max_rows is 1 to 1000' using errcode = '22023', hint = 'max_rows';
  end if;
  -- hers (the team's: all), newest first, each by its own index; then each with its consents (internal.lead_consents)
  return coalesce((with shown as (
      (select i.id from public.inquiries i where team order by i.received_at desc limit max_rows)
      union all
      (select i.id from public.inquiries i where not team and i.owner_agent_id = me order by i.received_at desc limit max_rows))
    select pg_catalog.json_agg(l order by l.received_at desc, l.id) from (
      select i.id, i.name, i.email, i.phone, i.message, i.property_title, i.listing_id, i.lang, i.received_at, i.page_url, i.element, i.utm, i.seller,
             i.status, i.follow_up_on, i.recipient_kind, i.assigned, i.routed, i.owner_agent_id, i.erased_at, c.consents
        from public.inquiries i join shown on shown.id = i.id
        left join internal.lead_consents(array(select shown.id from shown)) c on c.lead_id = i.id) l), '[]'::json);
end
$$;

-- Everything we keep about an address, as the link's page shows it and its download holds it.
create or replace function internal.person_data(email text)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'email', person_data.email,
    'inquiries', internal.person_inquiries(person_data.email),
    'saved_searches', internal.person_searches(person_data.email),
    'mails', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('kind', m.kind, 'status', m.status, 'queued_at', m.created_at, 'sent_at', m.sent_at) order by m.created_at desc), '[]')
                from internal.mail_outbox m where m.kind <> 'webhook' and internal.mailbox(m.recipient) = internal.mailbox(person_data.email)),
    'consents', (select coalesce(pg_catalog.jsonb_agg(internal.consent_json(c) order by c.given_at desc), '[]')
                   from internal.consents c where internal.mailbox(c.email) = internal.mailbox(person_data.email)),
    'requests', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('kind', r.kind, 'asked_at', r.asked_at, 'answered_at', r.answered_at) order by r.asked_at desc), '[]')
                   from internal.privacy_requests r where internal.mailbox(r.email) = internal.mailbox(person_data.email))
  )
$$;

-- Leads without their visitor (at her request, or past their retention): the request stays (that
-- it came, when, about what, whose it was, how far it got), her name, address, phone, words, home
-- and browser go; the agents' notes on it and its visit request's contact go too; the trail says
-- it was erased. The one home of what erasing a lead means.
create or replace function internal.erase_leads(ids uuid[])
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  update public.inquiries i
     set name = '', email = '', phone = null, message = null, client_hash = null, user_agent = null, requested_recipient = null,
         seller = case when i.seller is null then null else '{}'::jsonb end, erased_at = internal.now()
   where i.id = any (ids) and i.erased_at is null;
  delete from public.lead_notes n where n.lead_id = any (ids);
  -- her consents go with her: nothing is done on them any more
  delete from internal.consents c where c.inquiry_id = any (ids);
  -- the trail says it was erased, and when (not by whom: the visitor has no account)
  insert into public.lead_events (lead_id, what) select pg_catalog.unnest(ids), 'erased';
  update internal.visit_requests v set name = '', email = '', phone = null, message = null where v.inquiry_id = any (ids);
end
$$;

-- Her leads, without her (internal.erase_leads), her visit requests' contact and her consents. The leads' ids.
create or replace function internal.erase_person_leads(email text)
returns uuid[]
language plpgsql
volatile
set search_path = ''
as $$
declare
  ids uuid[];
begin
  select coalesce(pg_catalog.array_agg(i.id), '{}') into ids from public.inquiries i
   where internal.mailbox(i.email) = internal.mailbox(erase_person_leads.email);
  perform internal.erase_leads(ids);
  update internal.visit_requests v set name = '', email = '', phone = null, message = null
   where internal.mailbox(v.email) = internal.mailbox(erase_person_leads.email);
  -- and every consent she gave (her home reports' too)
  delete from internal.consents c where internal.mailbox(c.email) = internal.mailbox(erase_person_leads.email);
  return ids;
end
$$;


revoke all on internal.consents, internal.consent_tokens from anon, authenticated;
grant all on internal.consents, internal.consent_tokens to service_role;
revoke execute on function internal.consent_json(internal.consents), internal.withdraw_consents(bigint[], text), internal.unsubscribe_search(bigint),
  internal.lead_consents(uuid[]) from public, anon, authenticated;
grant execute on function internal.consent_json(internal.consents), internal.withdraw_consents(bigint[], text), internal.unsubscribe_search(bigint),
  internal.lead_consents(uuid[]) to service_role;
grant execute on function internal.lead_consents(uuid[]) to authenticated;
