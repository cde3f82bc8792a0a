-- A visitor's data under Ecuador's law (docs/privacy.md): what we keep about an address, shown to
-- its owner through a single-use link mailed to it, corrected, and erased everywhere it is kept.
-- Read and written only by the privacy function (core/functions/privacy/handler.ts) with the
-- service role: the public key reads none of it, and no agent's token either.

-- Every request, kept without the person once it is answered: its kind, when it came, when it was
-- answered, and what was done (counts). The address is kept only while the request is open.
create table internal.privacy_requests (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('access', 'erasure', 'correction')),
  email text,
  lang text not null default 'es' check (lang in ('en', 'es')),
  client_hash text,
  asked_at timestamptz not null default internal.now(),
  answered_at timestamptz,
  -- what was done: { inquiries: 2, visit_requests: 1, saved_searches: 1, mails: 4, ... }
  outcome jsonb
);

alter table internal.privacy_requests enable row level security;

comment on table internal.privacy_requests is 'Requests about a visitor''s data (access, correction, erasure): the address only while open, then what was done and when.';

create index privacy_requests_open on internal.privacy_requests (internal.mailbox(email), asked_at desc) where email is not null;

create index privacy_requests_client on internal.privacy_requests (client_hash, asked_at desc);

-- The links' tokens, kept as their SHA-256 only: 'open' (the mailed link, used once, 24 hours) and
-- 'session' (what opening it gives the page, 30 minutes, for the download, the correction and the
-- erasure).
create table internal.privacy_tokens (
  token_hash text primary key,
  request_id bigint not null references internal.privacy_requests (id) on delete cascade,
  purpose text not null check (purpose in ('open', 'session')),
  created_at timestamptz not null default internal.now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table internal.privacy_tokens enable row level security;

comment on table internal.privacy_tokens is 'SHA-256 of the links of the privacy mails and of the sessions they open.';

create index privacy_tokens_request on internal.privacy_tokens (request_id);

-- Whether we keep anything about an address (the same mailbox: case and +tags aside).
create or replace function internal.person_known(email text)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from public.inquiries i where internal.mailbox(i.email) = internal.mailbox(person_known.email) and not i.spam)
      or exists (select 1 from internal.visit_requests v where internal.mailbox(v.email) = internal.mailbox(person_known.email))
      or exists (select 1 from internal.saved_searches s where internal.mailbox(s.email) = internal.mailbox(person_known.email) and not s.spam)
$$;

-- Her inquiries and seller's requests, each with its visit request, its visit and the notes on it.
create or replace function internal.person_inquiries(email text)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', i.id, 'received_at', i.received_at, 'name', i.name, 'email', i.email, 'phone', i.phone, 'message', i.message,
           'about', i.property_title, 'listing_id', i.listing_id, 'seller', i.seller, 'lang', i.lang, 'page', i.page_url,
           'status', i.status, 'agent', (select a.first_name || ' ' || a.last_name from public.agents a where a.id = i.owner_agent_id),
           'visit', (select pg_catalog.jsonb_build_object('mode', v.mode, 'proposed', v.proposed, 'status', v.status, 'phone', v.phone,
                       'confirmed', (select pg_catalog.jsonb_build_object('from', pg_catalog.lower(x.during), 'status', x.status) from internal.visits x where x.request_id = v.id))
                       from internal.visit_requests v where v.inquiry_id = i.id),
           'notes', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('at', n.created_at, 'text', n.body) order by n.created_at), '[]') from public.lead_notes n where n.lead_id = i.id)
         ) order by i.received_at desc), '[]')
    from public.inquiries i
   where internal.mailbox(i.email) = internal.mailbox(person_inquiries.email) and not i.spam
$$;

-- Her saved searches, market follows and home reports, with the alerts sent.
create or replace function internal.person_searches(email text)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
           'id', s.id, 'created_at', s.created_at, 'email', s.email, 'filters', s.filters, 'market', s.market, 'home', s.home,
           'frequency', s.frequency, 'status', s.status, 'confirmed_at', s.confirmed_at, 'last_alert_at', s.last_alert_at,
           'alerts_sent', (select pg_catalog.count(*) from internal.search_alerts a where a.search_id = s.id)
         ) order by s.created_at desc), '[]')
    from internal.saved_searches s
   where internal.mailbox(s.email) = internal.mailbox(person_searches.email) and not s.spam
$$;

-- Everything we keep about an address, as the link's page shows it and its download holds it.
create or replace function internal.person_data(email text)
returns jsonb language sql stable set search_path = '' as $$
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

-- Her name and phone, as she corrects them, wherever her requests keep them. The count of rows.
create or replace function internal.correct_person(email text, name text, phone text)
returns integer language plpgsql volatile set search_path = '' as $$
declare
  changed integer;
  more integer;
begin
  update public.inquiries i set name = correct_person.name, phone = correct_person.phone
   where internal.mailbox(i.email) = internal.mailbox(correct_person.email);
  get diagnostics changed = row_count;
  update internal.visit_requests v set name = correct_person.name, phone = correct_person.phone
   where internal.mailbox(v.email) = internal.mailbox(correct_person.email);
  get diagnostics more = row_count;
  return changed + more;
end
$$;

-- Leads without their visitor (at her request, or past their retention): the request stays (that
-- it came, when, about what, whose it was, how far it got), her name, address, phone, words, home
-- and browser go; the agents' notes on it and its visit request's contact go too; the trail says
-- it was erased. The one home of what erasing a lead means.
create or replace function internal.erase_leads(ids uuid[])
returns void language plpgsql volatile set search_path = '' as $$
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
returns uuid[] language plpgsql volatile set search_path = '' as $$
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

-- The mails to her and about her, without her: those not sent yet are dropped; what is kept says a
-- mail of a kind went, not to whom or with what. Webhooks that carried her (about her leads or
-- searches, or naming one of her addresses: `addresses`, lower case) are kept as events without
-- their data. The count of rows.
create or replace function internal.erase_person_mails(email text, leads uuid[], searches bigint[], addresses text[])
returns integer language plpgsql volatile set search_path = '' as $$
declare
  n integer;
begin
  with hers as (
    select m.id from internal.mail_outbox m
     where (m.kind <> 'webhook' and internal.mailbox(m.recipient) = internal.mailbox(erase_person_mails.email))
        or pg_catalog.split_part(m.ref_id, ':', 1) = any (select l::text from pg_catalog.unnest(leads) l)
        or pg_catalog.split_part(m.ref_id, ':', 1) = any (select s::text from pg_catalog.unnest(searches) s)
        or (m.kind = 'webhook' and (m.payload #>> '{data,id}' = any (select l::text from pg_catalog.unnest(leads) l)
                                    or m.payload #>> '{data,id}' = any (select s::text from pg_catalog.unnest(searches) s)
                                    or exists (select 1 from pg_catalog.unnest(addresses) a where pg_catalog.strpos(pg_catalog.lower(m.payload::text), a) > 0)))
  )
  update internal.mail_outbox m
     set recipient = case when m.kind = 'webhook' then m.recipient else '' end,
         payload = case when m.kind = 'webhook' then (m.payload - 'data') || pg_catalog.jsonb_build_object('data', pg_catalog.jsonb_build_object('erased', true)) else '{}'::jsonb end,
         status = case when m.status in ('pending', 'failed') then 'dropped' else m.status end,
         last_error = null
    from hers where m.id = hers.id;
  get diagnostics n = row_count;
  return n;
end
$$;

-- Erases a visitor (docs/privacy.md "Erasure"): her leads and visit requests without her, her saved
-- searches gone (no alert is ever sent again), the mails and webhooks without her; her leads' agents
-- and the team told (no name in those mails), and the CRM hears lead.erased with the ids alone.
-- What was done, in counts.
create or replace function internal.erase_person(email text, request_id bigint, team_inbox text)
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  leads uuid[];
  searches bigint[];
  addresses text[];
  mails integer;
  agent record;
  done jsonb;
begin
  select coalesce(pg_catalog.array_agg(s.id), '{}') into searches from internal.saved_searches s
   where internal.mailbox(s.email) = internal.mailbox(erase_person.email);
  -- every way she wrote her address (case, +tags), as the mails and webhooks may carry it
  select pg_catalog.array_agg(distinct a) into addresses from (
    select pg_catalog.lower(pg_catalog.btrim(i.email)) as a from public.inquiries i where internal.mailbox(i.email) = internal.mailbox(erase_person.email)
    union select pg_catalog.lower(pg_catalog.btrim(v.email)) from internal.visit_requests v where internal.mailbox(v.email) = internal.mailbox(erase_person.email)
    union select pg_catalog.lower(pg_catalog.btrim(s.email)) from internal.saved_searches s where s.id = any (searches)
    union select pg_catalog.lower(pg_catalog.btrim(erase_person.email))) known;
  leads := internal.erase_person_leads(erase_person.email);
  delete from internal.saved_searches s where s.id = any (searches);
  mails := internal.erase_person_mails(erase_person.email, leads, searches, addresses);
  done := pg_catalog.jsonb_build_object('inquiries', pg_catalog.cardinality(leads), 'saved_searches', pg_catalog.cardinality(searches), 'mails', mails);
  for agent in select distinct a.email from public.inquiries i join public.agents a on a.id = i.owner_agent_id where i.id = any (leads) and a.email is not null loop
    perform internal.enqueue_mail('privacy-erased', request_id::text || ':' || agent.email, agent.email, done);
  end loop;
  if team_inbox is not null and team_inbox <> '' then
    perform internal.enqueue_mail('privacy-erased', request_id::text || ':team', team_inbox, done);
  end if;
  perform internal.enqueue_webhook('lead.erased', pg_catalog.jsonb_build_object('request_id', request_id, 'lead_ids', pg_catalog.to_jsonb(leads),
    'saved_search_ids', pg_catalog.to_jsonb(searches), 'erased_at', internal.now()));
  update internal.privacy_requests r set email = null, answered_at = internal.now(), outcome = done
   where r.id = request_id or (r.email is not null and internal.mailbox(r.email) = internal.mailbox(erase_person.email));
  return done;
end
$$;

-- Nothing kept for ever (docs/privacy.md "Retention"): each run, once across servers (an advisory
-- lock, and not again within `min_gap` of the last), erases the leads whose last contact is older
-- than `leads_months` (internal.erase_leads), deletes the mails and webhooks sent, dropped or
-- failed more than `mails_days` ago, the alert requests never confirmed after `pending_days`, and
-- forgets the address of privacy requests older than that. What it did is kept (retention_runs),
-- the team reads the last run (public.privacy_overview). Null when another server has it or it
-- ran lately.
create table internal.retention_runs (
  id bigint generated always as identity primary key,
  at timestamptz not null default internal.now(),
  outcome jsonb not null
);

alter table internal.retention_runs enable row level security;

comment on table internal.retention_runs is 'What each run of the retention job erased and deleted (counts), for the team.';

-- The leads past their retention: no contact (the lead itself, a change, a note) for `months`.
create or replace function internal.expired_leads(months integer)
returns uuid[] language sql stable set search_path = '' as $$
  select coalesce(pg_catalog.array_agg(i.id), '{}')
    from public.inquiries i
   where i.erased_at is null
     and i.received_at < internal.now() - pg_catalog.make_interval(months => months)
     and not exists (select 1 from public.lead_events e where e.lead_id = i.id and e.at >= internal.now() - pg_catalog.make_interval(months => months))
     and (i.follow_up_on is null or i.follow_up_on < (internal.now() - pg_catalog.make_interval(months => months))::date)
$$;

create or replace function internal.apply_retention(leads_months integer, mails_days integer, pending_days integer, min_gap interval default interval '1 hour')
returns jsonb language plpgsql volatile set search_path = '' as $$
declare
  last timestamptz;
  leads uuid[];
  mails integer;
  pending integer;
  requests integer;
  done jsonb;
begin
  if not pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('internal.apply_retention')) then
    return null;
  end if;
  select s.last_finished_at into last from internal.job_schedule s where s.job = 'retention';
  if last is not null and last > internal.now() - min_gap then
    return null;
  end if;
  leads := internal.expired_leads(leads_months);
  perform internal.erase_leads(leads);
  delete from internal.mail_outbox m where m.status in ('sent', 'dropped', 'failed') and coalesce(m.sent_at, m.created_at) < internal.now() - pg_catalog.make_interval(days => mails_days);
  get diagnostics mails = row_count;
  delete from internal.saved_searches s where s.status in ('pending', 'expired') and s.created_at < internal.now() - pg_catalog.make_interval(days => pending_days);
  get diagnostics pending = row_count;
  update internal.privacy_requests r set email = null where r.email is not null and r.asked_at < internal.now() - pg_catalog.make_interval(days => pending_days);
  get diagnostics requests = row_count;
  delete from internal.retention_runs r where r.at < internal.now() - interval '1 year';
  done := pg_catalog.jsonb_build_object('leads', pg_catalog.cardinality(leads), 'mails', mails, 'pending_searches', pending, 'privacy_requests', requests);
  insert into internal.retention_runs (outcome) values (done);
  insert into internal.job_schedule (job, due_at, last_started_at, last_finished_at, last_full_at)
  values ('retention', internal.now() + min_gap, internal.now(), internal.now(), internal.now())
  on conflict (job) do update set due_at = excluded.due_at, last_started_at = excluded.last_started_at, last_finished_at = excluded.last_finished_at, last_full_at = excluded.last_full_at;
  return done;
end
$$;

-- The team's view of privacy (docs/privacy.md, the team's console): the latest requests (their kind,
-- when asked, when answered and what was done; never the address) and the retention job's last
-- run. Only the team.
create or replace function public.privacy_overview(max_rows integer default 50)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
begin
  if not internal.is_team() then
    raise exception 'only the team reads the privacy requests' using errcode = '42501';
  end if;
  return pg_catalog.jsonb_build_object(
    'requests', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('kind', r.kind, 'asked_at', r.asked_at, 'answered_at', r.answered_at, 'outcome', r.outcome)
                                   order by r.asked_at desc), '[]')
                   from (select * from internal.privacy_requests r order by r.asked_at desc limit least(greatest(coalesce(max_rows, 50), 1), 500)) r),
    'retention', (select pg_catalog.jsonb_build_object('at', r.at, 'outcome', r.outcome) from internal.retention_runs r order by r.at desc limit 1));
end
$$;

comment on function public.privacy_overview is 'The latest privacy requests (no address) and the retention job''s last run: the team''s (docs/privacy.md).';
