/**
 * A mail provider's HTTP API in the test process, as Resend's answers (POST /emails with a bearer
 * key; one delivery per Idempotency-Key, as the provider keeps them): it keeps what it took, and can
 * be down (503), refuse (422) or hang up, to play an outage and a refusal.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  reply_to?: string;
  headers: Record<string, string>;
  /** as Resend takes them: base64 content */
  attachments?: Array<{ filename: string; content: string; content_type?: string }>;
  idempotencyKey: string;
}

export interface MailApi {
  /** the send endpoint, as MAIL_API_URL */
  url: string;
  key: string;
  /** what was taken (one per idempotency key) */
  sent: SentMail[];
  /** every POST, taken or not */
  attempts: number;
  mode: 'ok' | 'down' | 'refuse';
  close(): Promise<void>;
}

export async function startMailApi(key = 're_test_key'): Promise<MailApi> {
  const api: MailApi = { url: '', key, sent: [], attempts: 0, mode: 'ok', close: async () => {} };
  const server = createServer((req, res) => {
    if (req.method === 'HEAD' || req.method === 'GET') return void res.writeHead(api.mode === 'down' ? 503 : 200).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      api.attempts++;
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (req.url !== '/emails' || req.method !== 'POST') return send(404, { message: 'not found' });
      if (req.headers.authorization !== `Bearer ${key}`)
        return send(401, { name: 'validation_error', message: 'API key is invalid' });
      if (api.mode === 'down') return send(503, { message: 'service unavailable' });
      if (api.mode === 'refuse') return send(422, { name: 'validation_error', message: 'Invalid `to` field' });
      const mail = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<SentMail, 'idempotencyKey'>;
      const idempotencyKey = String(req.headers['idempotency-key'] ?? '');
      if (!api.sent.some((m) => idempotencyKey && m.idempotencyKey === idempotencyKey))
        api.sent.push({ ...mail, idempotencyKey });
      send(200, { id: `re-${api.sent.length}` });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/emails`;
  api.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return api;
}
