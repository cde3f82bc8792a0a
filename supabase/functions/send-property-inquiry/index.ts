// The deployed function (Supabase Edge Functions, Deno). The logic is the shared handler our local
// server runs too; this file only wires Deno to it (supabase/functions/_shared/deployed.ts and
// core/functions/deno-setup.ts): a guarded Postgres pool on the project's database, mail through a
// provider's HTTP API (or SMTP on 465), and delivery from the shared outbox after each new inquiry.
//
// Secrets (docs/deployment.md "The functions"): MAIL_API_URL and MAIL_API_KEY (or SMTP_URL),
// SMTP_FROM, TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS (comma list or *), INQUIRY_RATE_LIMIT,
// INQUIRY_HASH_SALT (unset: the database's own random salt), TRUST_PROXY (unset: cf-connecting-ip,
// what a hosted project's edge sets), OUTBOX_DRAIN_SECRET, REQUEST_CPU_BUDGET_MS. SUPABASE_DB_URL is
// provided by the platform. A scheduled call (pg_cron + pg_net) with the header
// `x-outbox-drain: $OUTBOX_DRAIN_SECRET` delivers what an outage held back.
import { background, serveFunction } from '../_shared/deployed.ts';
import { createInquiryHandler } from '../../../core/functions/inquiry/handler.ts';

serveFunction('send-property-inquiry', (fn) =>
  createInquiryHandler({ sql: fn.sql, config: fn.inquiry, texts: fn.texts, onStored: () => background(fn.drain()) }),
);
