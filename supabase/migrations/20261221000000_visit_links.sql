-- Visits, part two (docs/visits.md): a request is an inquiry (its idempotency key, client,
-- attribution and lead's owner are the inquiry's), the links of the visit mails (internal.visit_tokens),
-- a visit confirmed at another time the agent proposes (internal.confirm_visit_at), and the
-- webhooks visit.requested, visit.confirmed and visit.cancelled. Made from supabase/schemas/44_webhooks.sql,
-- 45_visits.sql and 99_privileges.sql.

alter table internal.visit_requests drop column idempotency_key, drop column client_hash, drop column source;
alter table internal.visit_requests add column inquiry_id uuid unique references public.inquiries (id) on delete cascade;

create table internal.visit_tokens (
  token_hash text primary key,
  request_id bigint not null references internal.visit_requests (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'propose', 'cancel', 'reschedule')),
  choice smallint check ((purpose = 'confirm') = (choice is not null)),
  holder text not null check (holder in ('agent', 'visitor')),
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table internal.visit_tokens enable row level security;

create index visit_tokens_request on internal.visit_tokens (request_id);

create or replace function internal.confirm_visit(request bigint, choice integer, at_location text default null)
returns text
language plpgsql
set search_path = ''
as $$
declare
  proposed timestamptz[];
begin
  select r.proposed into proposed from internal.visit_requests r where r.id = request;
  if proposed is null or choice not between 1 and pg_catalog.cardinality(proposed) then
    return 'unknown';
  end if;
  return internal.confirm_visit_at(request, proposed[choice], at_location);
end
$$;

create or replace function internal.confirm_visit_at(request bigint, start timestamptz, at_location text default null)
returns text
language plpgsql
set search_path = ''
as $$
declare
  req internal.visit_requests;
begin
  select * into req from internal.visit_requests r where r.id = request for update;
  if req.id is null then
    return 'unknown';
  end if;
  if req.status <> 'requested' then
    return 'done';
  end if;
  if start <= now() then
    return 'past';
  end if;
  begin
    insert into internal.visits (request_id, agent_id, during, location)
    values (req.id, req.agent_id, pg_catalog.tstzrange(start, start + (select r.length from internal.visit_rules() r)), at_location);
  exception when exclusion_violation then
    return 'taken';
  end;
  update internal.visit_requests set status = 'confirmed' where id = req.id;
  return 'confirmed';
end
$$;

alter table internal.webhook_endpoints drop constraint webhook_endpoints_events_check;
alter table internal.webhook_endpoints add constraint webhook_endpoints_events_check
  check (cardinality(events) > 0 and events <@ array['inquiry.created', 'alert.confirmed', 'alert.unsubscribed', 'seller.lead.created', 'visit.requested', 'visit.confirmed', 'visit.cancelled']);

revoke all on internal.visit_tokens from anon, authenticated;
grant all on internal.visit_tokens to service_role;
revoke execute on function internal.confirm_visit_at from public;
