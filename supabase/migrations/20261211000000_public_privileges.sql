-- Who may do what in `public`, whatever the platform's default privileges gave: a Supabase project
-- grants all on every new table, view, sequence and function of `public` to anon and authenticated
-- (and PostgreSQL lets PUBLIC execute every new function). The public key reads the relations we
-- publish and calls the functions we publish, nothing else (docs/deployment.md "The database";
-- tests/contract/privileges.test.ts holds the catalogue to it on a database prepared as Supabase
-- prepares one, migrated by the Supabase CLI).

-- the two views an earlier migration only granted SELECT on: PostgREST writes through views
revoke all on public.listing_availability, public.listing_cities from public, anon, authenticated;
grant select on public.listing_availability, public.listing_cities to anon, authenticated;
grant all on public.listing_availability, public.listing_cities to service_role;

-- sequences: nobody but the service writes
revoke all on all sequences in schema public from public, anon, authenticated;
grant all on all sequences in schema public to service_role;

-- functions: only the calls of the data API (docs/product.md §7 and its additions); the rules the
-- views and the writes use run with their owner's rights
revoke all on all functions in schema public from public, anon, authenticated;
grant execute on all functions in schema public to service_role;
grant execute on function
  public.search_listings(jsonb, text, integer, integer),
  public.search_listings_count(jsonb),
  public.listing_clusters(integer, double precision, double precision, double precision, double precision, jsonb),
  public.place_suggestions(text, integer),
  public.listing_price_history(bigint),
  public.similar_listings(bigint, integer)
  to anon, authenticated;

-- what is made in `public` from now on is granted to nobody until its migration says so
alter default privileges in schema public revoke all on tables from public, anon, authenticated;
alter default privileges in schema public revoke all on sequences from public, anon, authenticated;
alter default privileges in schema public revoke all on functions from public, anon, authenticated;
