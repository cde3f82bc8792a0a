/**
 * A real SMTP server in the test process (the smtp-server package) that keeps what it receives,
 * parsed by mailparser; it can be stopped and started again on the same port to play an outage,
 * and it can hold chosen recipients at RCPT TO (a slow or stuck mail server) until released.
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
  headers: Map<string, unknown>;
  /** the headers as they were written (unfolded), by lower-case name: List-Unsubscribe as sent, not as parsed */
  raw: Record<string, string>;
  /** the calendar parts (text/calendar, an .ics attachment), as text */
  calendars: Array<{ contentType: string; filename: string; content: string }>;
  receivedAt: number;
}

export interface TestSmtp {
  url: string;
  port: number;
  mails: ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
  /** holds every RCPT TO whose address matches until release() (or the client hangs up) */
  hold(match: (address: string) => boolean): void;
  /** lets the held recipients through and stops holding */
  release(): void;
  /** how many RCPT TO commands are being held right now */
  holding(): number;
  /** the client ports of the conversations held right now (which process holds one: its socket's local port) */
  heldPorts(): number[];
}

export async function startSmtp(): Promise<TestSmtp> {
  const port = await freePort();
  const mails: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  let match: ((address: string) => boolean) | null = null;
  let waiting: Array<{ session: string; port: number; go: () => void }> = [];
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        // an outage is abrupt: open connections are cut at once, not after 30 s
        closeTimeout: 100,
        onRcptTo(address, session, callback) {
          if (!match?.(address.address)) return callback();
          const entry = {
            session: session.id,
            port: session.remotePort,
            go: () => {
              waiting = waiting.filter((w) => w !== entry);
              callback();
            },
          };
          waiting.push(entry);
        },
        onData(stream, session, callback) {
          simpleParser(stream)
            .then((m) => {
              const addr = (a: unknown) => (a as { text?: string } | undefined)?.text ?? '';
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
                headers: m.headers as Map<string, unknown>,
                raw: Object.fromEntries(
                  m.headerLines.map((h) => [
                    h.key,
                    h.line
                      .slice(h.line.indexOf(':') + 1)
                      .replace(/\r?\n[ \t]+/g, ' ')
                      .trim(),
                  ]),
                ),
                calendars: m.attachments
                  .filter(
                    (a) =>
                      /^(text\/calendar|application\/ics)/i.test(a.contentType) || /\.ics$/i.test(a.filename ?? ''),
                  )
                  .map((a) => ({
                    contentType: a.contentType,
                    filename: a.filename ?? '',
                    content: a.content.toString('utf8'),
                  })),
                receivedAt: Date.now(),
              });
              callback();
            })
            .catch((error: Error) => callback(error));
        },
        onClose(session) {
          // a client that hung up while held: nothing to answer any more
          waiting = waiting.filter((w) => w.session !== session.id);
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
    stop: () =>
      new Promise<void>((resolve) => {
        const s = server;
        server = undefined;
        if (!s) return resolve();
        s.close(() => resolve());
      }),
    hold(m) {
      match = m;
    },
    release() {
      match = null;
      for (const w of [...waiting]) w.go();
    },
    holding: () => waiting.length,
    heldPorts: () => waiting.map((w) => w.port),
  };
}
