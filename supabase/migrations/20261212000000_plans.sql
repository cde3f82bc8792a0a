-- The plans our benchmarks measured, as a hosted project runs the calls (docs/architecture.md
-- "Plans"). PostgREST binds every value as a parameter, and after five runs of a prepared statement
-- PostgreSQL may keep a generic plan, which cannot prove that `country_code = $1` implies a partial
-- index's predicate and scans instead. So the public roles ask for custom plans (PostgREST applies
-- an impersonated role's settings, and our server the anon role's), and so does each function the
-- elements call, for the statements inside it, whoever calls it and however.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';

alter function public.search_listings(jsonb, text, integer, integer) set plan_cache_mode = 'force_custom_plan';
alter function public.search_listings_count(jsonb) set plan_cache_mode = 'force_custom_plan';
alter function public.listing_clusters(integer, double precision, double precision, double precision, double precision, jsonb) set plan_cache_mode = 'force_custom_plan';
alter function public.place_suggestions(text, integer) set plan_cache_mode = 'force_custom_plan';
alter function public.listing_price_history(bigint) set plan_cache_mode = 'force_custom_plan';
alter function public.similar_listings(bigint, integer) set plan_cache_mode = 'force_custom_plan';

-- a hosted project's PostgREST reads roles' settings again when told
notify pgrst, 'reload config';
