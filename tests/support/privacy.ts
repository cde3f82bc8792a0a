/**
 * A visitor's data on her request (docs/privacy.md), for the suites of
 * tests/contract/privacy-requests.test.ts and privacy-consents.test.ts: the server they run on over
 * PostgreSQL (behind one proxy, its webhooks retried soon, a webhook receiver registered for
 * inquiry.created, lead.erased and consent.withdrawn, an agent of our own), the two visitors, and
 * what a visitor, a mail client and a CRM do there: call the privacy function, read the mails an
 * address was sent, send an inquiry, verify a signed delivery, open her data's page through the
 * link mailed to her.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect } from 'vitest';
import { addEndpoint } from '../../server/webhooks/endpoints.ts';
import { inquiryBody } from './inquiry.ts';
import { startTestServer, type TestServer } from './servers.ts';
import { stopAll } from './stop-all.ts';
import { until } from './until.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

export const HER = { name: 'Valeria Privada', email: 'Valeria.Privada+casa@example.com', phone: '+593 99 111 2233' };
export const OTHER = { name: 'Otto Ajeno', email: 'otto.ajeno@example.com', phone: '+593 98 444 5566' };

export interface PrivacySuite {
  server: TestServer;
  hooks: WebhookReceiver;
  /** the signing secret of the suite's webhook endpoint */
  secret: string;
  /** an agent of our own, the leads' agent */
  agent: { id: string; email: string };
}

/**
 * Our server over PostgreSQL behind one proxy, its webhooks retried soon, a webhook receiver
 * registered for the events of her data, and an agent of our own.
 */
async function startPrivacyServer(): Promise<PrivacySuite> {
  const server = await startTestServer('postgres', {
    trustProxy: { hops: 1 },
    webhooks: { baseDelaySeconds: 0.2, maxDelaySeconds: 0.5 },
  });
  let hooks: WebhookReceiver | undefined;
  try {
    hooks = await startWebhookReceiver();
    const secret = (
      await addEndpoint(server.db, {
        url: hooks.url,
        events: ['inquiry.created', 'lead.erased', 'consent.withdrawn'],
        dev: true,
      })
    ).secret;
    const [made] = await server.sql<{ id: string; email: string }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ('Paula', 'Privacidad', 'paula.privacidad@example.com', 'EC') returning id::text as id, email",
    );
    return { server, hooks, secret, agent: made! };
  } catch (error) {
    await stopAll(hooks, server);
    throw error;
  }
}

/**
 * The suite of the enclosing `describe`: its server started before its tests and stopped after
 * them (`suite` is filled in when they start), and what a visitor, a mail client and a CRM do there.
 */
export function usePrivacySuite() {
  const suite = {} as PrivacySuite;
  beforeAll(async () => void Object.assign(suite, await startPrivacyServer()), 240_000);
  afterAll(() => stopAll(suite.hooks, suite.server));
  return { suite, ...privacyOn(() => suite) };
}

/** What a visitor, a mail client and a CRM do on the suite's server (read when a test runs). */
function privacyOn(suiteOf: () => PrivacySuite) {
  let ip = 0;

  const call = async (body: Record<string, unknown>) => {
    const res = await fetch(`${suiteOf().server.url}/functions/v1/privacy`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.9.0.${++ip}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const mailsTo = async (email: string) => {
    const { server } = suiteOf();
    await server.drainOutbox();
    return readdirSync(server.outboxDir)
      .sort()
      .map((f) => readFileSync(join(server.outboxDir, f), 'utf8'))
      .filter((m) => m.split(/\r?\n/).some((line) => line.toLowerCase() === `to: ${email.toLowerCase()}`));
  };
  /** (`more.source`: the page the browser names, sent with its Origin as a browser does) */
  const sendInquiry = (who: typeof HER, message: string, more: Record<string, unknown> = {}) =>
    fetch(`${suiteOf().server.url}/functions/v1/send-property-inquiry`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': `10.9.1.${++ip}`,
        ...(more.source ? { Origin: new URL((more.source as { page: string }).page).origin } : {}),
      },
      body: JSON.stringify(
        inquiryBody({
          name: who.name,
          email: who.email,
          phone: who.phone,
          message,
          leadAgentId: suiteOf().agent.id,
          ...more,
        }),
      ),
    });
  const inquire = async (who: typeof HER, message: string, more: Record<string, unknown> = {}) => {
    const res = await sendInquiry(who, message, more);
    expect(res.status).toBe(200);
    return String(((await res.json()) as { id: string }).id);
  };
  /** A signed delivery of this event naming this text, verified as a CRM would. */
  const delivered = async (type: string, naming: string) => {
    const { hooks, secret } = suiteOf();
    await until(() => hooks.deliveries.some((d) => d.body.includes(`"${type}"`) && d.body.includes(naming)));
    const d = hooks.deliveries.find((x) => x.body.includes(`"${type}"`) && x.body.includes(naming))!;
    return new Webhook(secret).verify(d.body, d.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
  };
  /** Her data's page, opened through a link mailed to her: its session and what it shows. */
  const openData = async (email: string) => {
    const before = (await mailsTo(email)).length;
    expect((await call({ action: 'ask', email, lang: 'es' })).status).toBe(200);
    // the link of a mail sent after she asked (the last mail found may be an earlier one while
    // hers is still being sent by the server's own round: a loaded machine)
    const linkOf = (mail: string) =>
      /\/es\/privacidad\/mis-datos\?token=([A-Za-z0-9_-]{43})/.exec(
        mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
      )?.[1];
    const token = await until(
      async () => (await mailsTo(email)).slice(before).map(linkOf).find(Boolean),
      20_000,
      `a mail to ${email} with the link to her data`,
    );
    const opened = await call({ action: 'open', token });
    expect(opened.status).toBe(200);
    return {
      session: String(opened.body.session),
      data: opened.body.data as Record<string, Array<Record<string, unknown>>>,
    };
  };
  return { call, mailsTo, sendInquiry, inquire, delivered, openData };
}
