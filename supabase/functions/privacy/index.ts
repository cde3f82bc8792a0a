// The deployed privacy function (Supabase Edge Functions, Deno): a visitor's data on her request
// (docs/privacy.md): the link mailed to her address, what we keep about it, its correction and its
// erasure. The logic is the shared handler our local server runs too (core/functions/privacy/);
// this file only wires Deno to it.
//
// Secrets: as send-property-inquiry (MAIL_API_URL and MAIL_API_KEY or SMTP_URL, SMTP_FROM,
// TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS, OUTBOX_DRAIN_SECRET, REQUEST_CPU_BUDGET_MS). Its pages
// (/privacy/my-data) are the site's (server/pages/privacy-pages.tsx), which call this function.
import { background, serveFunction } from '../_shared/deployed.ts';
import { createPrivacyHandler } from '../../../core/functions/privacy/handler.ts';

serveFunction('privacy', (fn) =>
  createPrivacyHandler({ sql: fn.sql, config: fn.alerts, onQueued: () => background(fn.drain()) }),
);
