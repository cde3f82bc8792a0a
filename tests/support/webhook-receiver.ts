/**
 * A CRM's webhook endpoint in the test process: keeps every delivery (headers and body as
 * received), verifies none itself (the tests do, with the `standardwebhooks` package), and can
 * answer 503 (an outage) or hang up without answering.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** what the endpoint answered: 200, 503, or 0 (hung up) */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** 'ok' answers 200; 'down' answers 503; 'hang-up' closes the connection unanswered */
  mode: 'ok' | 'down' | 'hang-up';
  /** the deliveries the endpoint took (a 2xx), by webhook-id */
  taken(): Map<string, number>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    deliveries,
    mode: 'ok',
    taken() {
      const counts = new Map<string, number>();
      for (const d of deliveries)
        if (d.answered >= 200 && d.answered < 300)
          counts.set(String(d.headers['webhook-id']), (counts.get(String(d.headers['webhook-id'])) ?? 0) + 1);
      return counts;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const delivery: Delivery = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: 0 };
    deliveries.push(delivery);
    if (receiver.mode === 'hang-up') return void req.socket.destroy();
    delivery.answered = receiver.mode === 'down' ? 503 : 200;
    res
      .writeHead(delivery.answered, { 'Content-Type': 'text/plain' })
      .end(receiver.mode === 'down' ? 'down for maintenance' : 'ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/exp`;
  return receiver;
}
