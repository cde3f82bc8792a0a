-- The agents who serve a place, as the public key reads them (public.area_agents: /sell lists them
-- below the valuation), and the seller's lead's agent made the first of them with an e-mail. Made
-- from supabase/schemas/34_valuation.sql, with the grant 99_privileges.sql gives.

-- The agents who serve a place (docs/valuation.md "The seller's lead"): those whose locations
-- served name its sector, then those who name its city (folded, as the directory compares names);
-- each kind, the one with the most active listings in that city first, then by id. Answers the
-- place they serve (the one asked for, or its city when none names the place itself) and the
-- agents' ids in that order (their public columns are read from
-- public.agents as the directory reads them); an unknown place, no ids.
create or replace function public.area_agents(place text)
returns jsonb
language sql
stable
-- it reads the places and the listings (closed to the public key) to answer ids and a place's name
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
  with p as (
    select pl.path, pl.name, public.search_fold(pl.name) as folded,
           public.search_fold((select c.name from internal.places c where c.path = pg_catalog.split_part(area_agents.place, '/', 1))) as city
      from internal.places pl
     where pl.path = pg_catalog.left(area_agents.place, 200)
  ),
  serving as (
    select a.id,
           exists (select 1 from pg_catalog.unnest(a.locations_served) s(x) where public.search_fold(s.x) = p.folded) as names_it,
           (select count(*) from internal.listings l where l.agent_id = a.id and l.status = '1' and l.city_slug = pg_catalog.split_part(p.path, '/', 1)) as listings
      from public.agents a
      cross join p
     where a.country_code = 'EC'
       and exists (select 1 from pg_catalog.unnest(a.locations_served) s(x) where public.search_fold(s.x) in (p.folded, p.city))
  )
  -- the place they serve: the one asked for, or its city when they all name only the city
  select pg_catalog.jsonb_build_object(
           'place', (select case when exists (select 1 from serving s where not s.names_it) and not exists (select 1 from serving s where s.names_it)
                                 then (select pg_catalog.jsonb_build_object('path', c.path, 'name', c.name) from internal.places c where c.path = pg_catalog.split_part(p.path, '/', 1))
                                 else pg_catalog.jsonb_build_object('path', p.path, 'name', p.name) end
                       from p),
           'agents', coalesce((select pg_catalog.jsonb_agg(s.id order by s.names_it desc, s.listings desc, s.id) from serving s), '[]'::jsonb))
$$;

-- The agent a seller's lead about a place goes to: the first of public.area_agents() with an
-- e-mail. Null when none does.
create or replace function internal.area_agent(place text)
returns bigint
language sql
stable
set search_path = ''
as $$
  select a.id
    from pg_catalog.jsonb_array_elements_text(public.area_agents(area_agent.place) -> 'agents') with ordinality as o(id, n)
    join public.agents a on a.id = o.id::bigint
   where coalesce(btrim(a.email), '') <> ''
   order by o.n
   limit 1
$$;

revoke all on function public.area_agents(text) from public, anon, authenticated;
grant execute on function public.area_agents(text) to service_role, anon, authenticated;
