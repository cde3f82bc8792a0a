-- The estimate asks for the agent who serves the home's place once (issue 62, its speed;
-- docs/valuation.md "Accuracy", speed): written in the condition of the query that reads the
-- agent, internal.area_agent ran twice, once more while the query was planned (the planner runs a
-- stable function to estimate the rows), and it was about 1.5 ms of the estimate's 20 each time.
-- The nearest comparable's row is read once instead of five times. The figures do not change.

create or replace function internal.valuation_context(ids bigint[], grp text, kind text, value double precision, area double precision, beds double precision, baths double precision, built double precision,
  lot double precision, built_year double precision, feats text[], at_lat double precision, at_lng double precision,
  out near_path text, out near_name text, out market jsonb, out agent jsonb, out demand jsonb)
language plpgsql
stable
set search_path = ''
as $$
declare
  nearest record;
  serving bigint;
  subject internal.listings;
begin
  -- the place: the sector (else the city) of the nearest comparable, and its market figure (its
  -- row read once: the place and the buyers' match below both read it)
  select l.city_slug, l.sector_slug, l.state_slug, l.place_search,
         case when coalesce(l.sector_slug, '') <> '' then l.city_slug || '/' || l.sector_slug else l.city_slug end as path
    into nearest
    from internal.listings l where l.id = ids[1];
  near_path := nearest.path;
  select pl.name into near_name from internal.places pl where pl.path = near_path;
  select pg_catalog.jsonb_build_object('path', m.path, 'name', m.name, 'month', m.month, 'median', m.median, 'listings', m.listings,
           'year_before', (select y.median from public.market_index(near_path, grp, 14) y where y.month = (m.month - interval '12 months')::date and y.path = m.path))
    into market
    from public.market_index(near_path, grp, 2) m
   where m.month = (internal.this_month() - interval '1 month')::date;

  -- the agent who serves it (a seller's lead goes to them), asked once: written in the query's
  -- condition, the planner would also run it to estimate the rows (docs/valuation.md "Accuracy", speed)
  serving := internal.area_agent(near_path);
  select pg_catalog.jsonb_build_object('id', a.id, 'name', nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), ''), 'picture', a.picture)
    into agent
    from public.agents a
   where a.id = serving;

  -- buyers whose confirmed saved searches a home like this, at this value, would match
  subject := pg_catalog.jsonb_populate_record(null::internal.listings, pg_catalog.jsonb_build_object(
    'country_code', 'EC', 'status', '1', 'is_public', true, 'operation', 'sale', 'property_type', kind, 'price', round(value), 'bedrooms', beds, 'bathrooms', baths,
    'square_feet', built, 'lot_size', lot, 'year_built', built_year, 'features', coalesce(feats, '{}'),
    'lat', at_lat, 'lng', at_lng, 'location', point(at_lng, at_lat)::text,
    'city_slug', nearest.city_slug, 'sector_slug', nearest.sector_slug, 'state_slug', nearest.state_slug, 'place_search', nearest.place_search
  ));
  demand := internal.buyer_demand(subject, ids, area);
end
$$;
