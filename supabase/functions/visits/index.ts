// The deployed visits function (Supabase Edge Functions, Deno): what the links of the visit mails
// do (docs/visits.md "The links"): confirm a time, propose another, cancel, ask for another time.
// A request to visit comes as an inquiry (send-property-inquiry). The logic is the shared handler
// our local server runs too (core/functions/visits/); this file only wires Deno to it.
//
// Secrets: as send-property-inquiry (MAIL_API_URL and MAIL_API_KEY or SMTP_URL, SMTP_FROM,
// TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS, OUTBOX_DRAIN_SECRET, REQUEST_CPU_BUDGET_MS). The links'
// pages (/visits/...) are the site's (server/pages/visit-pages.tsx), which call this function.
import pg from 'pg';
import nodemailer from 'nodemailer';
import en from '../../../core/locales/en.json' with { type: 'json' };
import es from '../../../core/locales/es.json' with { type: 'json' };
import { background, setUpFunction } from '../../../core/functions/deno-setup.ts';
import { createVisitsHandler } from '../../../core/functions/visits/handler.ts';

const fn = setUpFunction({
  name: 'visits',
  env: (name) => Deno.env.get(name),
  Pool: pg.Pool,
  createTransport: (options) => nodemailer.createTransport(options),
  texts: { en, es },
});
const handle = createVisitsHandler({ sql: fn.sql, config: fn.alerts, onQueued: () => background(fn.drain()) });

Deno.serve(fn.serve(handle));
