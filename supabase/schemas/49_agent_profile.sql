-- An agent's own profile (docs/agent-area.md "Profile"): what she keeps of it in her area (about
-- in English and Spanish, languages, specializations, certifications, links, and the places she
-- serves, which route every seller's lead: public.area_agents), each field checked here, and a
-- trail of every change to an agent (who, when, what, before and after), written by the database.
-- Her photo is set by our server once it has made its sizes (server/agent-photo.ts), never by a
-- link she types.

create table public.agent_events (
  id bigint generated always as identity primary key,
  agent_id bigint not null references public.agents (id) on delete cascade,
  at timestamptz not null default internal.now(),
  by_user uuid,
  what text not null,
  before jsonb,
  after jsonb
);
alter table public.agent_events enable row level security;
create index agent_events_agent on public.agent_events (agent_id, at);
comment on table public.agent_events is 'Every change to an agent''s profile, photo or standing: written by the database, read by her and the team.';
create policy "Her own trail, the team all" on public.agent_events for select to authenticated
  using (agent_id = (select internal.my_agent_id()) or (select internal.is_team()));

-- The columns the trail follows: what she keeps, her photo, and whether she is ours.
create or replace function internal.agent_profile_of(a public.agents)
returns jsonb language sql immutable set search_path = '' as $$
  select pg_catalog.jsonb_build_object('about', a.about, 'about_es', a.about_es, 'languages', a.languages, 'specializations', a.specializations,
           'certifications', a.certifications, 'locations_served', a.locations_served, 'facebook', a.facebook, 'instagram', a.instagram,
           'linkedin', a.linkedin, 'website', a.website, 'phone', a.phone, 'picture', a.picture, 'active', a.active)
$$;

create or replace function internal.note_agent_change()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  before jsonb := internal.agent_profile_of(old);
  after jsonb := internal.agent_profile_of(new);
  changed text[];
begin
  select pg_catalog.array_agg(k order by k) into changed from pg_catalog.jsonb_object_keys(after) k where before -> k is distinct from after -> k;
  if changed is not null then
    insert into public.agent_events (agent_id, by_user, what, before, after)
    values (new.id, auth.uid(), pg_catalog.array_to_string(changed, ','),
            (select pg_catalog.jsonb_object_agg(k, before -> k) from pg_catalog.unnest(changed) k),
            (select pg_catalog.jsonb_object_agg(k, after -> k) from pg_catalog.unnest(changed) k));
  end if;
  return null;
end
$$;

create trigger agents_trail after update on public.agents for each row execute function internal.note_agent_change();

-- Her profile as she edits it (and the places she serves with their paths, for the picker).
create or replace function public.my_profile()
returns jsonb language sql stable security definer set search_path = '' as $$
  select pg_catalog.jsonb_build_object('id', a.id, 'first_name', a.first_name, 'last_name', a.last_name, 'email', a.email, 'picture', a.picture)
         || (internal.agent_profile_of(a) - 'active')
         || pg_catalog.jsonb_build_object('places', coalesce((
              select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', s.x, 'path', (
                       select p.path from internal.places p where public.search_fold(p.name) = public.search_fold(s.x)
                        order by case p.kind when 'sector' then 0 when 'city' then 1 else 2 end, p.listings desc limit 1)) order by s.n)
                from pg_catalog.unnest(a.locations_served) with ordinality s(x, n)), '[]'))
    from public.agents a
   where a.id = internal.my_agent_id()
$$;
comment on function public.my_profile is 'A signed-in agent''s profile as she edits it (docs/agent-area.md).';

-- A list she keeps: at most `most` items, each one line of at most `longest` characters, trimmed,
-- without repeats; else a refusal naming the field (its hint).
create or replace function internal.profile_list(value jsonb, field text, most integer, longest integer)
returns text[] language plpgsql immutable set search_path = '' as $$
declare
  out text[] := '{}';
  item jsonb;
  one text;
begin
  if value is null or value = 'null'::jsonb then
    return '{}';
  end if;
  if pg_catalog.jsonb_typeof(value) <> 'array' or pg_catalog.jsonb_array_length(value) > most then
    raise exception '% is a list of at most % items', field, most using errcode = '22023', hint = field;
  end if;
  for item in select * from pg_catalog.jsonb_array_elements(value) loop
    one := pg_catalog.btrim(item #>> '{}');
    if pg_catalog.jsonb_typeof(item) <> 'string' or one = '' or pg_catalog.length(one) > longest or one ~ '[[:cntrl:]]' then
      raise exception 'each of % is one line of at most % characters', field, longest using errcode = '22023', hint = field;
    end if;
    if not one = any (out) then
      out := out || one;
    end if;
  end loop;
  return out;
end
$$;

-- A link she gives: https, at most 300 characters, on the site its field names (any for her website).
create or replace function internal.profile_link(value text, field text)
returns text language plpgsql immutable set search_path = '' as $$
declare
  link text := nullif(pg_catalog.btrim(coalesce(value, '')), '');
  host text;
begin
  if link is null then
    return null;
  end if;
  host := pg_catalog.lower(pg_catalog.substring(link, '^https://([^/?#:@\s]+)(?::\d+)?(?:[/?#]|$)'));
  if pg_catalog.length(link) > 300 or link ~ '[[:cntrl:]\s]' or host is null
     or (field <> 'website' and host !~ ('(^|\.)' || case field when 'linkedin' then 'linkedin\.com' when 'facebook' then '(facebook\.com|fb\.com)' else 'instagram\.com' end || '$')) then
    raise exception '% must be an https link%', field, case when field = 'website' then '' else ' on ' || field end using errcode = '22023', hint = field;
  end if;
  return link;
end
$$;

-- She saves her profile: every field given is checked, and all are saved at once or none is. The
-- places she serves are our places' paths (internal.places), kept as their names, which the
-- sellers' routing reads; an unknown one is refused (hint `places`).
create or replace function public.update_my_profile(profile jsonb)
returns jsonb language plpgsql volatile security definer set search_path = '' as $$
declare
  me bigint := internal.my_agent_id();
  text_of jsonb;
  field text;
  places text[];
  unknown text;
begin
  if me is null then
    raise exception 'only an agent of ours has a profile' using errcode = '42501';
  end if;
  if pg_catalog.jsonb_typeof(profile) is distinct from 'object' then
    raise exception 'profile is an object' using errcode = '22023', hint = 'profile';
  end if;
  foreach field in array array['about', 'about_es', 'phone'] loop
    text_of := profile -> field;
    if text_of is not null and text_of <> 'null'::jsonb
       and (pg_catalog.jsonb_typeof(text_of) <> 'string' or pg_catalog.length(text_of #>> '{}') > case field when 'phone' then 30 else 2000 end
            or (field = 'phone' and pg_catalog.btrim(text_of #>> '{}') !~ '^\+?[0-9 ()-]{6,30}$' and pg_catalog.btrim(text_of #>> '{}') <> '')
            or (text_of #>> '{}') ~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]') then
      raise exception '% is too long or not text', field using errcode = '22023', hint = field;
    end if;
  end loop;
  places := internal.profile_list(profile -> 'places', 'places', 30, 200);
  select x into unknown from pg_catalog.unnest(places) x where not exists (select 1 from internal.places p where p.path = x) limit 1;
  if unknown is not null then
    raise exception 'we have no place %', unknown using errcode = '22023', hint = 'places';
  end if;
  update public.agents a set
    about = case when profile ? 'about' then nullif(pg_catalog.btrim(profile ->> 'about'), '') else a.about end,
    about_es = case when profile ? 'about_es' then nullif(pg_catalog.btrim(profile ->> 'about_es'), '') else a.about_es end,
    phone = case when profile ? 'phone' then nullif(pg_catalog.btrim(profile ->> 'phone'), '') else a.phone end,
    languages = case when profile ? 'languages' then internal.profile_list(profile -> 'languages', 'languages', 10, 40) else a.languages end,
    specializations = case when profile ? 'specializations' then internal.profile_list(profile -> 'specializations', 'specializations', 12, 80) else a.specializations end,
    certifications = case when profile ? 'certifications' then internal.profile_list(profile -> 'certifications', 'certifications', 12, 120) else a.certifications end,
    locations_served = case when profile ? 'places' then array(select p.name from pg_catalog.unnest(places) with ordinality x(path, n) join internal.places p on p.path = x.path order by x.n) else a.locations_served end,
    facebook = case when profile ? 'facebook' then internal.profile_link(profile ->> 'facebook', 'facebook') else a.facebook end,
    instagram = case when profile ? 'instagram' then internal.profile_link(profile ->> 'instagram', 'instagram') else a.instagram end,
    linkedin = case when profile ? 'linkedin' then internal.profile_link(profile ->> 'linkedin', 'linkedin') else a.linkedin end,
    website = case when profile ? 'website' then internal.profile_link(profile ->> 'website', 'website') else a.website end
  where a.id = me;
  return public.my_profile();
end
$$;
comment on function public.update_my_profile is 'A signed-in agent saves her profile, each field checked (docs/agent-area.md).';
