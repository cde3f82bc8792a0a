-- An agent signed in by a hosted project's Auth is hers by the address her token carries (docs/agent-area.md
-- "Signing in"): Auth links nothing of ours to its users, so internal.my_agent_id() also finds the
-- active agent whose address it is, while no sign-in holds that agent.

create or replace function internal.my_agent_id()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select a.id
    from public.agents a
   where a.active
     and (a.user_id = auth.uid()
          or (a.user_id is null and pg_catalog.lower(a.email) = pg_catalog.lower(nullif(auth.jwt() ->> 'email', ''))))
   order by (a.user_id is not null) desc, a.id
   limit 1
$$;
