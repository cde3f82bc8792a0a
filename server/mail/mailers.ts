/**
 * How the local server hands mail over: SMTP (SMTP_URL, a nodemailer URL) with timeouts, so a
 * mail server that stops answering fails a send instead of holding it for nodemailer's default
 * ten minutes; or, with no SMTP configured, an .eml file per mail in the outbox directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from '../../supabase/functions/_shared/outbox/worker.ts';

export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 } as const;

export function smtpMailer(url: string): Mailer {
  // the URL's own settings win over these defaults
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    async send(message: MailMessage) {
      await transport.sendMail(message);
    },
    verify: () => transport.verify(),
  };
}

export function fileMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message: MailMessage) {
      const info = await transport.sendMail(message);
      mkdirSync(dir, { recursive: true });
      const id = message.messageId.replace(/[^\w.-]+/g, '');
      writeFileSync(join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`), info.message as Buffer);
    },
  };
}
