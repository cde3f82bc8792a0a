/**
 * Mail handed to an SMTP server with nodemailer, for our server and the Deno function alike (each
 * passes its own nodemailer: `nodemailer` in Node, `npm:nodemailer` in Deno). Timeouts, so a mail
 * server that stops answering fails a send instead of holding it for nodemailer's ten minutes.
 */
import type { Mailer, MailMessage } from './worker.ts';

const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 } as const;

interface Transport {
  sendMail(message: MailMessage): Promise<unknown>;
  verify(): Promise<unknown>;
}

/** nodemailer's createTransport, as each runtime imports it */
export type TransportFactory = (options: { url: string } & typeof SMTP_TIMEOUTS) => Transport;

/** `url`'s own settings (e.g. ?pool=true) win over the timeouts. */
export function smtpMailer(createTransport: TransportFactory, url: string): Mailer {
  const transport = createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    async send(message) {
      await transport.sendMail(message);
    },
    verify: () => transport.verify(),
  };
}
