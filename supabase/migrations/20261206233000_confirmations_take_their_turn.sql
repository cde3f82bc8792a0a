-- Two confirmations of one agent's visits at once: the one that comes second is told the time is taken
-- (docs/visits.md "The links"), where the two had deadlocked while checking the constraint.

-- The visit confirmed at `start`: one of the request's times, or another the agent proposed (the
-- caller checks that one against internal.open_visit_times). The same answers as confirm_visit.
-- Where it is: the place the agent gave, else the listing's address for a visit in person.
-- Two confirmations of one agent's visits take their turn (an advisory lock per agent until the
-- transaction ends): two inserted at once each found the other's row while checking the
-- constraint, waited on the other and deadlocked, so one visitor was told to try again where
-- "this time is taken" is the answer.
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
  if start <= internal.now() then
    return 'past';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('internal.confirm_visit_at'),
                                           pg_catalog.hashtext(coalesce(req.agent_id, 0)::text));
  begin
    insert into internal.visits (request_id, agent_id, during, location)
    values (req.id, req.agent_id, pg_catalog.tstzrange(start, start + (select r.length from internal.visit_rules() r)),
            coalesce(nullif(pg_catalog.btrim(at_location), ''),
                     (select nullif(pg_catalog.concat_ws(', ', l.address, l.city), '') from internal.listings l where l.id = req.listing_id and req.mode = 'in_person')));
  exception when exclusion_violation then
    return 'taken';
  end;
  update internal.visit_requests set status = 'confirmed' where id = req.id;
  return 'confirmed';
end
$$;
