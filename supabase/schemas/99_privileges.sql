-- Who may do what (docs/deployment.md "The database"), after every object exists. A Supabase
-- project grants all on whatever is made in `public` to anon and authenticated (and PostgreSQL lets
-- PUBLIC execute every new function), and PostgREST writes through views: so nothing is left to
-- those defaults. The public key reads the relations we publish (the listings, the agents' public
-- columns, the listings' availability, cities and types) and calls the six functions the elements
-- call; nothing else, anywhere (tests/contract/privileges-catalogue.test.ts holds a database migrated by the
-- Supabase CLI to it).

-- schemas: `internal` is the service's alone
grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
revoke all on schema internal from public;
grant usage on schema internal to service_role;
-- the public views of the listings run with the reader's rights: the public key may name the
-- schema and read the listings' public columns, through the views, which show it the public rows
-- only (20_listings.sql says why the table has no policy); no function or other table of the
-- schema is its
grant usage on schema internal to anon, authenticated;

-- the listings, the agents, the inquiries (the agents' private notes and feed key are not public)
revoke all on internal.listings from anon, authenticated;
grant select (id, title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon,
  description, created_at, status, country_code, agent_id, agent_first_name, agent_last_name, agent_email, agent_phone,
  agent_picture, city_search, lat, lng, updated_at, map_lat, map_lng, map_approximate, map_x, map_y,
  sector, features, year_built, lot_size, state_slug, city_slug, sector_slug, place_search,
  listed_at, price_cut_at, price_before_cut, open_houses, hoa_fee, parking_spaces, storage_unit, furnished, pets_allowed,
  operation, is_public, project, project_id, unit_type_id, unit_of)
  on internal.listings to anon, authenticated;
revoke all on public.listings, public.agents, public.inquiries, public.listing_property_types from anon, authenticated;
grant select on public.listings, public.listing_property_types to anon, authenticated, service_role;
grant select (id, first_name, last_name, email, phone, picture, country_code, location, about, languages,
  specializations, certifications, locations_served, facebook, instagram, linkedin, website,
  first_name_search, last_name_search, email_search, about_es)
  on public.agents to anon, authenticated;
grant all on internal.listings, public.agents, public.inquiries to service_role;
revoke all on public.listing_cities from public, anon, authenticated;
grant select on public.listing_cities to anon, authenticated;
grant all on public.listing_cities to service_role;

-- the new developments (47_projects.sql): their public columns, through the views; the tables'
-- policies show the active ones
revoke all on internal.projects, internal.project_unit_types, public.projects, public.project_unit_types from anon, authenticated;
grant select (id, slug, name, developer, city, sector, address, geo_lat, geo_lon, description_en, description_es, amenities, images,
  stage, progress, delivery, reservation, entrada_pct, agent_id, status, updated_at)
  on internal.projects to anon, authenticated;
grant select (id, project_id, position, property_type, bedrooms, bathrooms, area_min, area_max, price_min, price_max, units_available,
  floor_plans, model)
  on internal.project_unit_types to anon, authenticated;
grant select on public.projects, public.project_unit_types to anon, authenticated, service_role;
grant all on internal.projects, internal.project_unit_types to service_role;

-- what only the service reads and writes
revoke all on internal.mail_outbox, internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens,
  internal.search_alerts, internal.settings, internal.places, internal.place_aliases, internal.import_sources,
  internal.import_runs, internal.import_staging, internal.import_seen, internal.photos, internal.webhook_endpoints,
  internal.job_schedule, internal.listing_spells, internal.market_index, internal.market_bounds, internal.market_runs, internal.market_rents_now,
  internal.agent_visiting_hours, internal.visit_requests, internal.visits, internal.visit_tokens, internal.open_houses,
  internal.privacy_requests, internal.privacy_tokens, internal.retention_runs, internal.consents, internal.consent_tokens,
  internal.points_of_interest from anon, authenticated;
revoke all on internal.job_schedule, internal.listing_words, internal.listing_spells, internal.market_index, internal.market_bounds,
  internal.market_runs, internal.market_rents_now from public;
grant all on internal.mail_outbox, internal.listing_price_changes, internal.saved_searches, internal.saved_search_tokens,
  internal.search_alerts, internal.settings, internal.places, internal.place_aliases, internal.job_schedule,
  internal.listing_spells, internal.market_index, internal.market_bounds, internal.market_runs, internal.market_rents_now,
  internal.agent_visiting_hours, internal.visit_requests, internal.visits, internal.visit_tokens, internal.open_houses,
  internal.privacy_requests, internal.privacy_tokens, internal.retention_runs, internal.consents, internal.consent_tokens,
  internal.points_of_interest to service_role;

-- functions: the service's; the public key calls the data API's (docs/data-api.md)
revoke execute on function internal.listing_cells_rebuild(), internal.places_recount(text[], text[]), internal.first_matches,
  internal.word_match_ids, internal.note_price_cut, internal.listing_copies_changed, internal.listings_derived_rebuild,
  internal.import_merge, internal.note_market_spells, internal.rebuild_market_index,
  internal.refresh_market_index, internal.confirm_visit, internal.confirm_visit_at, internal.cancel_visit,
  internal.upcoming_open_houses, internal.open_houses_changed, internal.forget_past_open_houses, internal.import_open_houses from public;
-- (the public key may name the schema `internal` for the views; none of its functions is the public's)
revoke execute on all functions in schema internal from public, anon, authenticated;
grant execute on all functions in schema internal to service_role;
revoke all on all functions in schema public from public, anon, authenticated;
grant execute on all functions in schema public to service_role;
grant execute on function
  public.search_listings(jsonb, text, integer, integer),
  public.search_listings_count(jsonb),
  public.listing_clusters(integer, double precision, double precision, double precision, double precision, jsonb),
  public.place_suggestions(text, integer),
  public.listing_price_history(bigint),
  public.similar_listings(bigint, integer),
  public.market_index(text, text, integer),
  public.market_ranking(text, text, text),
  public.listing_market(bigint),
  public.market_report(text, text, integer),
  public.estimate_value(jsonb),
  public.area_agents(text),
  public.visit_times(bigint, bigint),
  public.listing_open_houses(bigint),
  public.listing_availability(bigint),
  public.nearby_places(double precision, double precision)
  to anon, authenticated;
-- what runs as the caller when the public key filters a column or PostgREST asks the hook
-- (03_public_types.sql, 98_data_api_gate.sql)
grant execute on function
  internal.literal_match(text, text, boolean),
  internal.bounded_like(text, text, boolean),
  internal.plain_match(public.plain_text, public.plain_text),
  internal.plain_imatch(public.plain_text, public.plain_text),
  internal.plain_like(public.plain_text, public.plain_text),
  internal.plain_ilike(public.plain_text, public.plain_text),
  internal.no_json_key(public.plain_json, text),
  internal.no_json_index(public.plain_json, integer),
  internal.no_json_path(public.plain_json, public.plain_json),
  internal.data_api_gate(),
  internal.take_bulk_turn(),
  internal.too_many_at_once()
  to anon, authenticated;

-- the agents' area (48_agent_area.sql): a signed-in agent reads the leads row level security lets
-- her see, moves them through move_lead, notes them, and reads their trail; the public key none of it
revoke all on public.lead_notes, public.lead_events from public, anon, authenticated;
grant select (id, listing_id, agent_id, name, email, phone, message, property_title, property_address, property_price,
  recipient_kind, lang, received_at, lead_agent_id, page_url, element, utm, seller, assigned, assigned_agent_id, owner_agent_id, status, follow_up_on,
  routed, erased_at, kind)
  on public.inquiries to authenticated;
grant update (status, follow_up_on) on public.inquiries to authenticated;
grant select, insert (lead_id, body) on public.lead_notes to authenticated;
grant select on public.lead_events to authenticated;
grant all on public.lead_notes, public.lead_events to service_role;
grant execute on function public.move_lead(uuid, text, date, text), public.reassign_lead(uuid, bigint, text), public.deactivate_agent(bigint) to authenticated;
-- her calendar (49_agent_calendar.sql): through its functions only, each checking whose it is
grant execute on function public.my_visits(timestamptz, timestamptz), public.act_on_visit(bigint, text, integer, timestamptz, text),
  public.my_open_times(bigint), public.my_visiting_hours(), public.set_visiting_hours(jsonb, date[]) to authenticated;
revoke all on internal.agent_days_off from anon, authenticated;
-- her profile (49_agent_profile.sql): read and saved through its two functions; her trail read as row level security lets her
grant execute on function public.my_profile(), public.update_my_profile(jsonb) to authenticated;
revoke all on public.agent_events from public, anon, authenticated;
grant select on public.agent_events to authenticated;
grant all on public.agent_events to service_role;
-- the team's console (49_lead_routing.sql): each function checks the caller is the team's (my_role answers anyone signed in)
grant execute on function public.my_role(), public.team_agents(), public.routing_setup(), public.save_routing(text, jsonb),
  public.invite_agent(text, text, text), public.my_alert_leads(), public.my_leads(integer, timestamptz, uuid, text, text, bigint, text) to authenticated;
-- her listings' weekly figures (49_listing_figures.sql): counts only, read through one checked function
grant execute on function public.my_listing_figures(integer, bigint, integer) to authenticated;
-- her morning mail of the leads to follow up (49_follow_up_mail.sql): whether she gets it, set by her (my_role reads it)
grant execute on function public.set_my_follow_up_mail(boolean) to authenticated;
revoke all on internal.leads_to_follow_up from anon, authenticated;
grant select on internal.leads_to_follow_up to service_role;
-- the privacy requests and the retention job's last run (55_privacy.sql): the function checks the caller is the team's
grant execute on function public.privacy_overview(integer) to authenticated;
revoke all on internal.listing_weeks from anon, authenticated;
grant all on internal.listing_weeks to service_role;
revoke all on internal.routing_rules from anon, authenticated;
grant all on internal.routing_rules to service_role;
grant all on internal.agent_days_off to service_role;
grant execute on function internal.my_agent_id(), internal.is_team(), internal.now() to authenticated;
-- her leads' consents (54_consents.sql), read by public.my_leads: the function keeps to the caller's leads
grant execute on function internal.lead_consents(uuid[]) to authenticated;
-- and the leads of her page (48_agent_area.sql), read by public.my_leads: the function keeps to the caller's leads
grant execute on function internal.my_lead_ids(integer, timestamptz, uuid, text, text, bigint, text), internal.check_lead_status(text) to authenticated;
revoke all on internal.team_members, internal.auth_codes, internal.auth_tries, internal.auth_sessions from anon, authenticated;
grant all on internal.team_members, internal.auth_codes, internal.auth_tries, internal.auth_sessions to service_role;

-- sequences: nobody but the service writes
revoke all on all sequences in schema public from public, anon, authenticated;
grant all on all sequences in schema public to service_role;

-- and what is made in `public` from now on is granted to nobody until its file says so
alter default privileges in schema public revoke all on tables from public, anon, authenticated;
alter default privileges in schema public revoke all on sequences from public, anon, authenticated;
alter default privileges in schema public revoke all on functions from public, anon, authenticated;
alter default privileges in schema internal revoke execute on functions from public, anon, authenticated;
