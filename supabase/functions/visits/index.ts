// The deployed visits function (Supabase Edge Functions, Deno): what the links of the visit mails
// do (docs/visits.md "The links"): confirm a time, propose another, cancel, ask for another time.
// A request to visit comes as an inquiry (send-property-inquiry). The logic is the shared handler
// our local server runs too (core/functions/visits/); this file only wires Deno to it.
//
// Secrets: as send-property-inquiry (MAIL_API_URL and MAIL_API_KEY or SMTP_URL, SMTP_FROM,
// TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS, OUTBOX_DRAIN_SECRET, REQUEST_CPU_BUDGET_MS). The links'
// pages (/visits/...) are the site's (server/pages/visit-pages.tsx), which call this function.
import { background, serveFunction } from '../_shared/deployed.ts';
import { createVisitsHandler } from '../../../core/functions/visits/handler.ts';

serveFunction('visits', (fn) =>
  createVisitsHandler({ sql: fn.sql, config: fn.alerts, onQueued: () => background(fn.drain()) }),
);
