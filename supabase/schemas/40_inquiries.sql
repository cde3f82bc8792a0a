-- Property inquiries (docs/product.md §6; docs/leads.md): stored before any delivery, their e-mail
-- queued in the outbox (41_outbox.sql) in the same transaction. Row level security with no policy:
-- the public key reads and writes nothing; the inquiry function writes them.

create table public.inquiries (
  id uuid primary key default gen_random_uuid(),
  -- one inquiry per key: a double click or a retry never makes two
  idempotency_key text not null unique,
  listing_id bigint,
  agent_id bigint,
  name text not null,
  email text not null,
  phone text,
  message text,
  property_title text,
  property_address text,
  property_price text,
  -- what the browser asked for, and who really gets it (docs/decisions.md #9)
  requested_recipient text,
  recipient_email text not null,
  recipient_kind text not null,
  client_hash text,
  origin text,
  user_agent text,
  lang text,
  spam boolean not null default false,
  received_at timestamptz not null default internal.now(),
  -- the lead's owner (an element's lead-agent-id, or the deployment's), and the copy for the listing's agent
  lead_agent_id bigint,
  copy_recipient text,
  -- where the visitor came from: the page (without its query), the element, the page's UTM parameters
  page_url text,
  element text,
  utm jsonb,
  -- a seller's lead (docs/valuation.md "The seller's lead"): the home's facts, when they plan to sell,
  -- whether they also buy, and the estimate the database made of it when the lead came
  seller jsonb,
  -- whose lead it is (docs/leads.md "The lead's owner"): the team's hand, else the element's
  -- lead-agent-id, else the agent it went to (a listing's, a profile's, an area's); the team's own
  -- leads have none. Row level security reads it (48_agent_area.sql)
  -- the team's hand (public.reassign_lead, public.deactivate_agent): once reassigned, the lead is
  -- assigned_agent_id's (null: the team's), whatever it was before
  assigned boolean not null default false,
  assigned_agent_id bigint,
  owner_agent_id bigint generated always as (case when assigned then assigned_agent_id else coalesce(lead_agent_id, case when recipient_kind <> 'team' then agent_id end) end) stored,
  -- where the owner has got with it, and when she means to follow it up (docs/agent-area.md)
  status text not null default 'new',
  follow_up_on date,
  constraint inquiries_status_check check (status in ('new', 'contacted', 'visit_booked', 'offer', 'won', 'lost')),
  constraint inquiries_recipient_kind_check check (recipient_kind in ('listing_agent', 'agent', 'team', 'lead_agent', 'area_agent', 'routed')),
  -- how the team's routing chose its agent, for a lead nothing named an agent for (kind 'routed',
  -- or moved by the rules when its agent left: 49_lead_routing.sql): {by: rule, rule_id} or {by: spread}
  routed jsonb,
  -- when the visitor's data was erased at her request (docs/privacy.md "Erasure"): the lead stays, without her
  erased_at timestamptz,
  -- what an agent's search reads (public.my_leads; docs/agent-area.md "The
  -- page"): the lead's words folded as the site's search folds them, then its phone's digits; kept
  -- by the database as the lead changes (an erased lead's with it), a trigram index answering
  search_text text generated always as (
    public.search_fold(coalesce(name, '') || E'\n' || coalesce(email, '') || E'\n' || coalesce(message, '') || E'\n' || coalesce(property_title, ''))
    || E'\n' || pg_catalog.regexp_replace(coalesce(phone, ''), '\D', '', 'g')) stored,
  -- what it asked about (docs/agent-area.md "The page"): a home's value (a seller), a listing, or a
  -- general question; her filter asks the database for it (public.my_leads)
  kind text generated always as (
    case when seller is not null then 'valuation' when listing_id is not null or nullif(property_title, '') is not null then 'listing'
         else 'general' end) stored
);

alter table public.inquiries enable row level security;

comment on table public.inquiries is 'Property inquiries: stored before any delivery; their e-mail waits in internal.mail_outbox.';

create index inquiries_rate on public.inquiries (client_hash, received_at desc);

-- a seller's requests by the mailbox they ask for (the mails to one person a day are capped:
-- core/functions/inquiry/handler.ts)
create index inquiries_seller_mailbox on public.inquiries (internal.mailbox(email), received_at desc) where seller is not null;
