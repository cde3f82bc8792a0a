/**
 * A real SMTP server in the test process (the smtp-server package) that keeps what it receives,
 * parsed by mailparser; it can be stopped and started again on the same port to play an outage.
 */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './postgres.ts';

export interface ReceivedMail {
  envelopeTo: string[];
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  inquiryId: string;
}

export interface TestSmtp {
  url: string;
  port: number;
  mails: ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const port = await freePort();
  const mails: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, session, callback) {
          simpleParser(stream)
            .then((m) => {
              const addr = (a: unknown) => ((a as { text?: string } | undefined)?.text ?? '');
              mails.push({
                envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                from: addr(m.from),
                to: addr(m.to),
                replyTo: addr(m.replyTo),
                subject: m.subject ?? '',
                text: m.text ?? '',
                html: typeof m.html === 'string' ? m.html : '',
                messageId: m.messageId ?? '',
                inquiryId: String(m.headers.get('x-inquiry-id') ?? ''),
              });
              callback();
            })
            .catch((error: Error) => callback(error));
        },
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await start();
  return {
    url: `smtp://127.0.0.1:${port}/?pool=true&maxConnections=4`,
    port,
    mails,
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
