// The deployed function (Supabase Edge Functions, Deno). The logic is the shared handler our local
// server runs too; this file only wires Deno to it: a Postgres pool on the project's database,
// nodemailer on SMTP_URL, and delivery from the stored outbox after each new inquiry.
//
// Secrets: SMTP_URL, SMTP_FROM, TEAM_INBOX, SITE_URL, ALLOWED_ORIGINS (comma list or *),
// INQUIRY_HASH_SALT, OUTBOX_DRAIN_SECRET. SUPABASE_DB_URL is provided by the platform.
// A scheduled call (pg_cron + pg_net) with header `x-outbox-drain: $OUTBOX_DRAIN_SECRET` retries
// what an SMTP outage left pending.
import pg from 'npm:pg@8.23.1';
import nodemailer from 'npm:nodemailer@10.6.0';
import { createInquiryHandler } from '../_shared/inquiry/handler.ts';
import { drainOutbox } from '../_shared/inquiry/outbox.ts';
import type { Sql } from '../_shared/inquiry/store.ts';

declare const EdgeRuntime: { waitUntil(promise: Promise<unknown>): void };

const env = (name: string, fallback = '') => Deno.env.get(name) ?? fallback;
const pool = new pg.Pool({ connectionString: env('SUPABASE_DB_URL'), max: 3 });

const query: Sql['query'] = async (text, params = []) => (await pool.query(text, params as unknown[])).rows;
const sql = {
  query,
  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await fn({ query: async (text, params = []) => (await client.query(text, params as unknown[])).rows });
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  },
};

const transport = nodemailer.createTransport(env('SMTP_URL'));
const mailer = { send: async (message: Parameters<typeof transport.sendMail>[0]) => void (await transport.sendMail(message)) };
const outbox = { from: env('SMTP_FROM', '"eXp Realty Ecuador" <no-reply@expecuador.example>'), siteUrl: env('SITE_URL', 'https://expecuador.example') };
const drain = () => drainOutbox(sql, mailer, outbox).catch((error) => console.error('[send-property-inquiry] outbox:', error));

const origins = env('ALLOWED_ORIGINS', '*');
const handle = createInquiryHandler({
  sql,
  config: {
    teamInbox: env('TEAM_INBOX', 'equipo@expecuador.example'),
    allowedOrigins: origins === '*' ? '*' : origins.split(',').map((o) => o.trim()),
    rateLimit: { max: Number(env('INQUIRY_RATE_LIMIT', '5')), windowSeconds: 60 },
    hashSalt: env('INQUIRY_HASH_SALT', 'exp-ecuador'),
  },
  onStored: () => EdgeRuntime.waitUntil(drain()),
});

Deno.serve(async (request) => {
  const secret = env('OUTBOX_DRAIN_SECRET');
  if (secret && request.headers.get('x-outbox-drain') === secret) return Response.json(await drainOutbox(sql, mailer, outbox));
  const clientAddress = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
  return handle(request, { clientAddress });
});
