-- Follow a market (docs/market.md "Follow a market"): a saved search may be a place's monthly
-- market report instead of a search's alerts. Made from supabase/schemas/42_saved_searches.sql.

alter table internal.saved_searches drop constraint saved_searches_frequency_check;

alter table internal.saved_searches add constraint saved_searches_frequency_check check (frequency in ('instant', 'daily', 'weekly', 'monthly'));

-- a market follow: { place, type_group, name }, the place's report mailed each month; its filters are empty
alter table internal.saved_searches add column market jsonb;

alter table internal.saved_searches add constraint saved_searches_market check ((market is not null) = (frequency = 'monthly'));

comment on table internal.saved_searches is 'Saved searches with e-mail alerts, and market follows (double opt-in). Read and written only by the saved-searches function.';

-- When a market follow's next report is mailed: the 1st of the month after `after`, at 08:00 in Ecuador.
create or replace function internal.next_market_mail(after timestamptz)
returns timestamptz
language sql
immutable
set search_path = ''
as $$
  select (pg_catalog.date_trunc('month', after at time zone 'America/Guayaquil') + interval '1 month 8 hours') at time zone 'America/Guayaquil'
$$;
