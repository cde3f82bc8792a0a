// The deployed saved-searches function (Supabase Edge Functions, Deno): requests for alerts and what
// the links of the alert mails do (docs/decisions.md #23). The logic is the shared handler our local
// server runs too (core/functions/alerts/); this file only wires Deno to it.
//
// Secrets: as send-property-inquiry (MAIL_API_URL and MAIL_API_KEY or SMTP_URL, SMTP_FROM,
// TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS, INQUIRY_HASH_SALT, TRUST_PROXY, OUTBOX_DRAIN_SECRET,
// REQUEST_CPU_BUDGET_MS), plus ALERT_RATE_LIMIT, ALERTS_SETTLE and ALERTS_RUN_SECRET (docs/deployment.md).
// A scheduled call (pg_cron + pg_net) with the header
// `x-alerts-run: $ALERTS_RUN_SECRET` runs the alert job and delivers its mails. The links' pages
// (/alerts/...) are the site's (server/pages/alerts-page.tsx), which call this function; a mail
// client's one-click unsubscribe POSTs to them.
import { background, serveFunction } from '../_shared/deployed.ts';
import { createAlertsHandler } from '../../../core/functions/alerts/handler.ts';

serveFunction('saved-searches', (fn) =>
  createAlertsHandler({ sql: fn.sql, config: fn.alerts, texts: fn.texts, onQueued: () => background(fn.drain()) }),
);
