-- What the listing pages, the sitemaps and (later) the alerts need from the listings:
-- - updated_at, kept by the database: a sitemap's lastmod, and what changed since an alert;
-- - public.listing_availability: whether a listing id is active, was active and is gone, or never
--   was (no row), so a page can answer 200, 410 or 404 without reading anything private.

alter table internal.listings add column updated_at timestamptz;
update internal.listings set updated_at = coalesce(created_at, now());
alter table internal.listings alter column updated_at set not null;

create or replace function internal.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a new row was last changed when it was created (unless it says otherwise); a changed one now
  if tg_op = 'INSERT' then
    new.updated_at := coalesce(new.updated_at, new.created_at, now());
  else
    new.updated_at := now();
  end if;
  return new;
end
$$;

-- every insert and update counts (a BEFORE trigger's condition may not read the generated columns)
create trigger listings_touch_updated_at
  before insert or update on internal.listings
  for each row
  execute function internal.touch_updated_at();

-- the public view gains the column (a view's new columns go last)
create or replace view public.listings as
select id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
       description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
       agent_picture, city_search, lat, lng, updated_at
from internal.listings
where status = '1';

create view public.listing_availability as
select id, status = '1' as available, updated_at
from internal.listings
where country_code = 'EC';

grant select on public.listing_availability to anon, authenticated, service_role;
-- the sitemap's listings in id order, active ones only
create index listings_sitemap on internal.listings (id) include (updated_at, title) where country_code = 'EC' and status = '1';

comment on view public.listing_availability is 'Whether a listing id is active (true), was and is gone (false), or never was (no row): 200, 410 or 404 for its page.';
