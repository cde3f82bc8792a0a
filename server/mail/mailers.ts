/**
 * How the local server hands mail over: SMTP (SMTP_URL, a nodemailer URL; the shared mailer with
 * its timeouts), or, with no SMTP configured, an .eml file per mail in the outbox directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { smtpMailer } from '../../core/functions/outbox/smtp.ts';
import type { Mailer, MailMessage } from '../../core/functions/outbox/worker.ts';

export function smtp(url: string): Mailer {
  return smtpMailer((options) => nodemailer.createTransport(options), url);
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
