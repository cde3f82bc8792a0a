// The deployed listing-events function (Supabase Edge Functions, Deno): a listing's page view or
// save, counted for its agent's weekly figures (docs/agent-area.md "Her listings"); counts only.
// The logic is the shared handler our local server runs too (core/functions/listing-events/); this
// file only wires Deno to it. Secrets: as send-property-inquiry (ALLOWED_ORIGINS; SUPABASE_DB_URL).
import pg from 'pg';
import nodemailer from 'nodemailer';
import en from '../../../core/locales/en.json' with { type: 'json' };
import es from '../../../core/locales/es.json' with { type: 'json' };
import { setUpFunction } from '../../../core/functions/deno-setup.ts';
import { createListingEventsHandler } from '../../../core/functions/listing-events/handler.ts';

const fn = setUpFunction({
  name: 'listing-events',
  env: (name) => Deno.env.get(name),
  Pool: pg.Pool,
  createTransport: (options) => nodemailer.createTransport(options),
  texts: { en, es },
});
const handle = createListingEventsHandler({ sql: fn.sql, config: fn.alerts });

Deno.serve(fn.serve(handle));
