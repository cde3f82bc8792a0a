// The deployed listing-events function (Supabase Edge Functions, Deno): a listing's page view or
// save, counted for its agent's weekly figures (docs/agent-area.md "Her listings"); counts only.
// The logic is the shared handler our local server runs too (core/functions/listing-events/); this
// file only wires Deno to it. Secrets: as send-property-inquiry (ALLOWED_ORIGINS; SUPABASE_DB_URL).
import { serveFunction } from '../_shared/deployed.ts';
import { createListingEventsHandler } from '../../../core/functions/listing-events/handler.ts';

serveFunction('listing-events', (fn) => createListingEventsHandler({ sql: fn.sql, config: fn.alerts }));
