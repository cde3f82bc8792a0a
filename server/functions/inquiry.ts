/**
 * send-property-inquiry in the local server: the shared handler over our database, and the
 * outbox worker that delivers stored inquiries by SMTP (SMTP_URL), or, with no SMTP configured,
 * writes each as an .eml file into the outbox directory. The worker drains right after each new
 * inquiry and every few seconds, so what an SMTP outage left pending goes out when it is back.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { createInquiryHandler, type InquiryConfig } from '../../supabase/functions/_shared/inquiry/handler.ts';
import type { MailMessage } from '../../supabase/functions/_shared/inquiry/mail.ts';
import { drainOutbox, type Mailer, type OutboxOptions } from '../../supabase/functions/_shared/inquiry/outbox.ts';
import type { Sql, TransactionalSql } from '../../supabase/functions/_shared/inquiry/store.ts';
import { DatabaseUnavailableError, isConnectionError, type Database } from '../db/database.ts';
import type { FunctionHandler } from './router.ts';

export interface InquiryServiceOptions {
  config?: Partial<InquiryConfig>;
  /** smtp://user:pass@host:port (nodemailer URL); none: .eml files in outboxDir */
  smtpUrl?: string | undefined;
  outboxDir: string;
  outbox: Omit<OutboxOptions, 'siteUrl'> & { siteUrl: string };
  /** how often the worker looks for due inquiries */
  intervalMs?: number;
  log?: (line: string) => void;
}

export const DEFAULT_INQUIRY_CONFIG: InquiryConfig = {
  teamInbox: 'equipo@expecuador.example',
  allowedOrigins: '*',
  rateLimit: { max: 5, windowSeconds: 60 },
  hashSalt: 'exp-ecuador-local',
};

function fileMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message: MailMessage) {
      const info = await transport.sendMail(message);
      mkdirSync(dir, { recursive: true });
      const id = message.headers['X-Inquiry-Id'] ?? Date.now().toString(36);
      writeFileSync(join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`), info.message as Buffer);
    },
  };
}

function smtpMailer(url: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message: MailMessage) {
      await transport.sendMail(message);
    },
  };
}

export function createInquiryService(db: Database, options: InquiryServiceOptions) {
  const sql: TransactionalSql = {
    query: (text, params) => db.admin.query(text, params),
    transaction: (fn) => db.transaction((tx) => fn(tx as Sql)),
  };
  const mailer = options.smtpUrl ? smtpMailer(options.smtpUrl) : fileMailer(options.outboxDir);
  const log = options.log ?? (() => {});
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  /** One drain at a time; a kick during a drain runs one more after it. */
  const drain = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const r = await drainOutbox(sql, mailer, options.outbox);
          if (r.sent || r.retried || r.failed) log(`[outbox] sent ${r.sent}, to retry ${r.retried}, failed ${r.failed}`);
        } catch (error) {
          log(`[outbox] not now: ${error instanceof Error ? error.message : String(error)}`);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const handler = createInquiryHandler({
    sql,
    config: { ...DEFAULT_INQUIRY_CONFIG, ...options.config },
    onStored: () => void drain(),
    isUnavailable: (error) => error instanceof DatabaseUnavailableError || isConnectionError(error),
  });
  const timer = setInterval(() => void drain(), options.intervalMs ?? 5000);
  timer.unref();

  return {
    handler: ((request, context) => handler(request, context)) as FunctionHandler,
    drain,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
