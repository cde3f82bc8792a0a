-- Closed to abuse (docs/decisions.md #24).
--
-- Private settings of the deployment that the database keeps for every process that serves it
-- (our server, the deployed functions): the salt of the client hashes is made at random the first
-- time it is needed (supabase/functions/_shared/function-http.ts clientSalt), so it is in no code
-- and no two deployments share one. Closed to the public key.
create table internal.settings (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

alter table internal.settings enable row level security;
revoke all on internal.settings from anon, authenticated;
grant all on internal.settings to service_role;

comment on table internal.settings is 'Private settings every server process reads alike (the salt of the client hashes). Never readable with the public key.';

-- The cities with active listings in Ecuador, and how many each has: a place page
-- (/search-properties/{place}) answers only for a known place (server/pages/places.ts).
create view public.listing_cities as
select city, count(*)::integer as listings
from internal.listings
where country_code = 'EC' and status = '1' and city is not null and btrim(city) <> ''
group by city;

grant select on public.listing_cities to anon, authenticated, service_role;

comment on view public.listing_cities is 'Cities with active listings in Ecuador and their number of listings (place pages).';
