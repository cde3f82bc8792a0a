/**
 * The setup of the suites that follow a delivery end to end: our server over PostgreSQL, a real SMTP
 * server, a webhook receiver registered for the suite's events, and the data API as a browser reads
 * it. Called in a describe block: it registers that block's beforeAll and afterAll, and the object it
 * answers is filled before the block's first test.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';
import type { ServerOptions } from '../../server/server.ts';
import { addEndpoint } from '../../server/webhooks/endpoints.ts';
import { startTestServer, type TestServer } from './servers.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from './smtp.ts';
import { stopAll } from './stop-all.ts';
import { until } from './until.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

export const SITE = 'https://expecuador.example';
export const TEAM = 'equipo@expecuador.example';
export const FROM = '"eXp Realty Ecuador" <no-reply@expecuador.example>';

export interface Deliveries {
  server: TestServer;
  smtp: TestSmtp;
  hooks: WebhookReceiver;
  /** the signing secret of the suite's webhook endpoint */
  secret: string;
  rest: PostgrestClient;
  /** the mails whose envelope names this address (in any case) */
  mailsTo(email: string): ReceivedMail[];
  /** the first delivery whose body passes the test, once it arrives, verified with the standardwebhooks package */
  event(test: (body: string) => boolean, what?: string): Promise<{ type: string; data: Record<string, unknown> }>;
}

export function useDeliveries(events: string[], options: Partial<ServerOptions> = {}): Deliveries {
  const d = {
    mailsTo: (email: string) =>
      d.smtp.mails.filter((m) => m.envelopeTo.some((a) => a.toLowerCase() === email.toLowerCase())),
    event: async (test: (body: string) => boolean, what = 'the webhook') => {
      const delivery = await until(() => d.hooks.deliveries.find((x) => test(x.body)), 15_000, what);
      return new Webhook(d.secret).verify(delivery.body, delivery.headers as Record<string, string>);
    },
  } as Deliveries;
  beforeAll(async () => {
    d.smtp = await startSmtp();
    d.hooks = await startWebhookReceiver();
    d.server = await startTestServer('postgres', {
      trustProxy: { hops: 1 },
      ...options,
      mail: {
        smtpUrl: d.smtp.url,
        intervalMs: 200,
        from: FROM,
        siteUrl: SITE,
        baseDelaySeconds: 0.2,
        maxDelaySeconds: 1,
        ...options.mail,
      },
      alerts: { intervalSeconds: 0, settleSeconds: 0, ...options.alerts },
    });
    await d.server.ready;
    d.rest = new PostgrestClient(`${d.server.url}/rest/v1`, { headers: { apikey: 'anon-key' } });
    if (events.length) d.secret = (await addEndpoint(d.server.db, { url: d.hooks.url, events, dev: true })).secret;
  }, 240_000);
  afterAll(() => stopAll(d.server, d.hooks, d.smtp));
  return d;
}
