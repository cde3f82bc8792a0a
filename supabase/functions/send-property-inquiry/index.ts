// The deployed function (Supabase Edge Functions, Deno). The logic is the shared handler our local
// server runs too; this file only wires Deno to it: a guarded Postgres pool on the project's
// database, nodemailer on SMTP_URL, and delivery from the shared outbox after each new inquiry.
//
// Secrets: SMTP_URL, SMTP_FROM, TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS (comma list or *),
// INQUIRY_RATE_LIMIT, INQUIRY_HASH_SALT, OUTBOX_DRAIN_SECRET. SUPABASE_DB_URL is provided by the
// platform. A scheduled call (pg_cron + pg_net, README "Deployment") with the header
// `x-outbox-drain: $OUTBOX_DRAIN_SECRET` probes SMTP and delivers what an outage held back.
import pg from 'npm:pg@8.23.1';
import nodemailer from 'npm:nodemailer@10.6.0';
import { pgSql, type PgPool } from '../_shared/db/pg.ts';
import { envReader, readInquirySettings, readMailSettings } from '../_shared/env.ts';
import { createInquiryHandler } from '../_shared/inquiry/handler.ts';
import { inquiryComposer } from '../_shared/inquiry/mail.ts';
import { smtpMailer } from '../_shared/outbox/smtp.ts';
import { createOutboxWorker } from '../_shared/outbox/worker.ts';

// Only Supabase's runtime has EdgeRuntime; under plain Deno (our tests) the drain simply runs on.
const background = (work: Promise<unknown>) => {
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil(p: Promise<unknown>): void } }).EdgeRuntime;
  if (runtime) runtime.waitUntil(work);
};

const env = envReader((name) => Deno.env.get(name));
const dbUrl = env.url('SUPABASE_DB_URL', ['postgres', 'postgresql']);
if (!dbUrl) env.problems.push('SUPABASE_DB_URL must be set (the platform provides it)');
const mail = readMailSettings(env, 'https://expecuador.example');
const inquiry = readInquirySettings(env, 'exp-ecuador');
const drainSecret = env.optional('OUTBOX_DRAIN_SECRET');
env.done();

const pool = new pg.Pool({ connectionString: dbUrl, max: 3, connectionTimeoutMillis: 5000 });
// an idle connection the database closed must not end the isolate
pool.on('error', (error: Error) => console.error('[send-property-inquiry] idle connection:', error.message));
const sql = pgSql(pool as unknown as PgPool);

const noSmtp = async () => {
  throw new Error('SMTP_URL is not set');
};
const outbox = createOutboxWorker({
  sql,
  mailer: mail.smtpUrl ? smtpMailer((options) => nodemailer.createTransport(options), mail.smtpUrl) : { send: noSmtp, verify: noSmtp },
  composers: { inquiry: inquiryComposer({ from: mail.from, siteUrl: mail.siteUrl }) },
  log: (line) => console.log(line),
});
const drain = () => outbox.drain().catch((error) => console.error('[send-property-inquiry] outbox:', error instanceof Error ? error.message : error));

const handle = createInquiryHandler({ sql, config: inquiry, onStored: () => background(drain()) });

Deno.serve(async (request) => {
  if (drainSecret && request.headers.get('x-outbox-drain') === drainSecret) {
    const madeDue = await outbox.recoverIfSmtpIsBack().catch(() => 0);
    return Response.json({ madeDue, ...(await outbox.drain()) });
  }
  const clientAddress = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
  return handle(request, { clientAddress });
});
