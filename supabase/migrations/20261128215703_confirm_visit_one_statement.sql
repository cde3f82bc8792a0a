-- A visit confirmed at one of its request's times is one statement: confirm_visit_at with the
-- chosen time, or 'unknown' where the request or the choice is none.
create or replace function internal.confirm_visit(request bigint, choice integer, at_location text default null)
returns text
language sql
set search_path = ''
as $$
  select coalesce((select internal.confirm_visit_at(r.id, r.proposed[confirm_visit.choice], confirm_visit.at_location)
                     from internal.visit_requests r
                    where r.id = confirm_visit.request and confirm_visit.choice between 1 and pg_catalog.cardinality(r.proposed)), 'unknown')
$$;
