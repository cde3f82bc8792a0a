-- A new development's units for sale as listings of their own, and each unit type's model
-- (47_projects.sql; docs/projects.md "Its units").

alter table internal.project_unit_types
  add column model text check (btrim(model) <> '' and length(model) <= 80);

-- one type of a project per model, whatever its case
create unique index project_unit_types_model on internal.project_unit_types (project_id, lower(model)) where model is not null;

alter table internal.listings
  add column unit_type_id bigint,
  add column unit_of jsonb;

-- A unit of a project for sale (docs/projects.md "Its units"): a listing of its own, for sale as
-- any, that names the unit type it is one of (unit_type_id); what its card and page say of its
-- project (unit_of) is written from the type and its project by this rule alone: when the listing
-- names its type, and when the project or the type changes. Null while the project is not active.
alter table internal.listings
  add constraint listings_unit_type_id_fkey foreign key (unit_type_id) references internal.project_unit_types (id) on delete set null;

create index listings_unit_type on internal.listings (unit_type_id) where unit_type_id is not null;

create or replace function internal.unit_of(type_id bigint)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('slug', p.slug, 'name', p.name, 'developer', p.developer, 'stage', p.stage, 'progress', p.progress,
           'delivery', p.delivery, 'model', t.model)
    from internal.project_unit_types t
    join internal.projects p on p.id = t.project_id
   where t.id = type_id and p.status = 'active'
$$;

create or replace function internal.listing_unit_of()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.unit_of := internal.unit_of(new.unit_type_id);
  return new;
end
$$;

create or replace trigger listings_unit_of before insert on internal.listings
  for each row when (new.unit_type_id is not null) execute function internal.listing_unit_of();
create or replace trigger listings_unit_of_changed before update of unit_type_id on internal.listings
  for each row when (new.unit_type_id is distinct from old.unit_type_id) execute function internal.listing_unit_of();

-- the units of these projects, their unit_of again
create or replace function internal.project_units_sync(ids bigint[])
returns void
language sql
set search_path = ''
as $$
  update internal.listings l
     set unit_of = internal.unit_of(l.unit_type_id)
    from internal.project_unit_types t
   where t.project_id = any (ids) and l.unit_type_id = t.id and l.unit_of is distinct from internal.unit_of(l.unit_type_id)
$$;

-- a project or a unit type written: its project's listing and its units again (a project deleted
-- takes its listing with it; a type deleted leaves its units for sale, no longer of it)
create or replace function internal.project_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  ids bigint[];
begin
  if tg_table_name = 'projects' then
    ids := array[new.id];
  elsif tg_op = 'DELETE' then
    ids := array[old.project_id];
  elsif tg_op = 'UPDATE' then
    ids := array[new.project_id, old.project_id];
  else
    ids := array[new.project_id];
  end if;
  perform internal.project_listing_sync(ids);
  if tg_op = 'UPDATE' then
    perform internal.project_units_sync(ids);
  end if;
  return null;
end
$$;

create or replace view public.listings with (security_invoker = true) as
-- text as public.plain_text, JSON as public.plain_json, the description as json (what the public
-- key may ask of each: 03_public_types.sql)
select id, title::public.plain_text as title, address::public.plain_text as address, price, bedrooms, bathrooms, square_feet,
       property_type::public.plain_text as property_type, city::public.plain_text as city, state::public.plain_text as state,
       images::public.plain_json as images, geo_lat::public.plain_text as geo_lat, geo_lon::public.plain_text as geo_lon,
       pg_catalog.to_json(description) as description, created_at, status::public.plain_text as status,
       country_code::public.plain_text as country_code, agent_id, agent_first_name::public.plain_text as agent_first_name,
       agent_last_name::public.plain_text as agent_last_name, agent_email::public.plain_text as agent_email,
       agent_phone::public.plain_text as agent_phone, agent_picture::public.plain_text as agent_picture,
       city_search::public.plain_text as city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
       sector::public.plain_text as sector, features, year_built, lot_size, state_slug::public.plain_text as state_slug,
       city_slug::public.plain_text as city_slug, sector_slug::public.plain_text as sector_slug,
       place_search::public.plain_text as place_search, listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee,
       parking_spaces, storage_unit, furnished::public.plain_text as furnished, pets_allowed, operation::public.plain_text as operation,
       project::public.plain_json as project, unit_type_id, unit_of::public.plain_json as unit_of
from internal.listings
where is_public;

create or replace view public.project_unit_types with (security_invoker = true) as
select t.id, t.project_id, t.position, t.property_type::public.plain_text as property_type, t.bedrooms, t.bathrooms, t.area_min, t.area_max,
       t.price_min, t.price_max, t.units_available, t.floor_plans::public.plain_json as floor_plans, t.model::public.plain_text as model
  from internal.project_unit_types t
  join internal.projects p on p.id = t.project_id
 where p.status = 'active';

comment on view public.project_unit_types is 'The unit types of the active new developments.';

revoke all on public.listings, public.project_unit_types from anon, authenticated;
grant select (unit_type_id, unit_of) on internal.listings to anon, authenticated;
grant select (model) on internal.project_unit_types to anon, authenticated;
grant select on public.listings, public.project_unit_types to anon, authenticated, service_role;
revoke execute on function internal.unit_of(bigint), internal.listing_unit_of(), internal.project_units_sync(bigint[]) from public, anon, authenticated;
grant execute on function internal.unit_of(bigint), internal.listing_unit_of(), internal.project_units_sync(bigint[]) to service_role;
