// The deployed function (Supabase Edge Functions, Deno). The logic is the shared handler our local
// server runs too; this file only wires Deno to it (core/functions/deno-setup.ts): a
// guarded Postgres pool on the project's database, mail through a provider's HTTP API (or SMTP on
// 465), and delivery from the shared outbox after each new inquiry.
//
// Secrets (docs/deployment.md "The functions"): MAIL_API_URL and MAIL_API_KEY (or SMTP_URL),
// SMTP_FROM, TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS (comma list or *), INQUIRY_RATE_LIMIT,
// INQUIRY_HASH_SALT (unset: the database's own random salt), TRUST_PROXY (unset: cf-connecting-ip,
// what a hosted project's edge sets), OUTBOX_DRAIN_SECRET, REQUEST_CPU_BUDGET_MS. SUPABASE_DB_URL is
// provided by the platform. A scheduled call (pg_cron + pg_net) with the header
// `x-outbox-drain: $OUTBOX_DRAIN_SECRET` delivers what an outage held back.
import pg from 'pg';
import nodemailer from 'nodemailer';
import en from '../../../core/locales/en.json' with { type: 'json' };
import es from '../../../core/locales/es.json' with { type: 'json' };
import { background, setUpFunction } from '../../../core/functions/deno-setup.ts';
import { createInquiryHandler } from '../../../core/functions/inquiry/handler.ts';

const fn = setUpFunction({
  name: 'send-property-inquiry',
  env: (name) => Deno.env.get(name),
  Pool: pg.Pool,
  createTransport: (options) => nodemailer.createTransport(options),
  texts: { en, es },
});
const handle = createInquiryHandler({
  sql: fn.sql,
  config: fn.inquiry,
  texts: fn.texts,
  onStored: () => background(fn.drain()),
});

Deno.serve(fn.serve(handle));
