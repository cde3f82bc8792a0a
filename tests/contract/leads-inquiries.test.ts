/**
 * Leads go where the business needs them (docs/leads.md): an inquiry from an element with a lead
 * owner reaches that agent (the listing's agent gets a copy only when the deployment says so),
 * with where it came from in the mail and the webhook; a forged owner is refused; signed webhooks
 * (verified with the `standardwebhooks` package) survive an endpoint's outage and are never taken
 * twice; an endpoint on no public https address, or removed, is sent nothing. Against our server
 * (Node, copies on) and the deployed function (Deno, PostgreSQL, copies off, the default).
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate, seedIfEmpty } from '../../server/db/setup.ts';
import { addEndpoint, removeEndpoint, webhookReport } from '../../server/webhooks/endpoints.ts';
import { SITE } from '../support/deliveries.ts';
import { startDenoFunction, type DenoFunction } from '../support/deno-function.ts';
import { key, PAGE_ORIGIN, seq, until } from '../support/leads.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { clientHeaders, startTestServer, type TestServer } from '../support/servers.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { stopAll } from '../support/stop-all.ts';

interface Target {
  functionsUrl: string;
  db: Database;
  sql<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  drainOutbox(): Promise<unknown>;
  copies: boolean;
  close(): Promise<void>;
}

async function nodeTarget(smtp: TestSmtp): Promise<Target> {
  const server: TestServer = await startTestServer('postgres', {
    trustProxy: { hops: 1 },
    mail: { smtpUrl: smtp.url, intervalMs: 200, siteUrl: SITE, baseDelaySeconds: 0.2, maxDelaySeconds: 1 },
    inquiry: { copyListingAgent: true },
    webhooks: { baseDelaySeconds: 0.2, maxDelaySeconds: 0.5 },
  });
  return {
    functionsUrl: `${server.url}/functions/v1`,
    db: server.db,
    sql: server.sql,
    drainOutbox: () => server.drainOutbox(),
    copies: true,
    close: () => server.close(),
  };
}

async function denoTarget(smtp: TestSmtp): Promise<Target> {
  const postgres: PostgresServer = await startPostgres();
  const db = await openPostgres(postgres.url);
  let fn: DenoFunction | undefined;
  try {
    await migrate(db);
    await seedIfEmpty(db, 300);
    fn = await startDenoFunction({ SUPABASE_DB_URL: postgres.url, SMTP_URL: smtp.url, SITE_URL: SITE });
  } catch (error) {
    await db.close();
    await postgres.stop();
    throw error;
  }
  const deno = fn;
  return {
    functionsUrl: deno.url,
    db,
    sql: (text, params = []) => db.admin.query(text, params),
    drainOutbox: () => deno.drain(),
    copies: false,
    async close() {
      await deno.stop();
      await db.close();
      await postgres.stop();
    },
  };
}

describe.each([
  ['our server (Node, LEAD_COPY_LISTING_AGENT on)', nodeTarget],
  ['the deployed function (Deno, PostgreSQL, copies off)', denoTarget],
] as const)('leads: %s', (_name, start) => {
  let target: Target;
  let smtp: TestSmtp;
  let hooks: WebhookReceiver;
  let secret: string;
  let listing: { id: string; title: string; agent_id: string; agent_email: string };
  let owner: { id: string; email: string; first_name: string };
  let client = 0;

  const inquiry = async (
    over: Record<string, unknown> = {},
    headers: Record<string, string> = { Origin: PAGE_ORIGIN },
  ) => {
    const res = await fetch(`${target.functionsUrl}/send-property-inquiry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders(`10.7.0.${++client}`), ...headers },
      body: JSON.stringify({
        name: 'Andrea Villacís',
        email: 'andrea.villacis@example.com',
        phone: '+593 98 765 4321',
        message: '¿Puedo visitarla el sábado?',
        propertyTitle: 'x',
        propertyAddress: 'x',
        propertyPrice: 'x',
        recipientEmail: '',
        propertyId: listing.id,
        leadAgentId: owner.id,
        source: {
          page: `${PAGE_ORIGIN}/propiedades/quito?utm_source=ignored`,
          element: 'exp-property-search',
          utm: { utm_source: 'facebook', utm_medium: 'cpc', utm_campaign: 'cumbaya-noviembre' },
        },
        idempotencyKey: key(),
        lang: 'es',
        website: '',
        ...over,
      }),
    });
    return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const verified = (d: { headers: Record<string, unknown>; body: string }) =>
    new Webhook(secret).verify(d.body, d.headers as Record<string, string>) as {
      type: string;
      version: number;
      timestamp: string;
      data: Record<string, unknown>;
    };

  beforeAll(async () => {
    smtp = await startSmtp();
    hooks = await startWebhookReceiver();
    target = await start(smtp);
    [listing] = (await target.sql<typeof listing>(
      "select l.id::text as id, l.title, a.id::text as agent_id, a.email as agent_email from internal.listings l join public.agents a on a.id = l.agent_id where l.status = '1' and l.country_code = 'EC' and a.email is not null order by l.id limit 1",
    )) as [typeof listing];
    [owner] = (await target.sql<typeof owner>(
      "select id::text as id, email, first_name from public.agents where country_code = 'EC' and email is not null and id <> $1 order by id limit 1",
      [listing.agent_id],
    )) as [typeof owner];
    // a CRM on this machine: a development endpoint (http, loopback)
    const endpoint = await addEndpoint(target.db, {
      url: hooks.url,
      events: ['inquiry.created', 'alert.confirmed', 'alert.unsubscribed'],
      dev: true,
    });
    secret = endpoint.secret;
  }, 240_000);
  afterAll(() => stopAll(target, hooks, smtp));

  it("sends the inquiry to the lead's owner, with where it came from; the listing's agent gets a copy only when the deployment copies", async () => {
    const sent = await inquiry();
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    const id = String(sent.json.id);
    await target.drainOutbox();
    await until(() => smtp.mails.some((m) => m.inquiryId === id));
    const mails = () => smtp.mails.filter((m) => m.inquiryId === id);
    const mail = mails().find(
      (m) => m.envelopeTo.includes(owner.email.toLowerCase()) || m.envelopeTo.includes(owner.email),
    );
    expect(mail, JSON.stringify(mails().map((m) => m.envelopeTo))).toBeDefined();
    expect(mail?.text).toContain(`Hola ${owner.first_name}`);
    // where it came from: the site (the Origin header), the page without its query, the element, the campaign
    expect(mail?.text).toContain(`Sitio / Site: ${PAGE_ORIGIN}`);
    expect(mail?.text).toContain(`Página / Page: ${PAGE_ORIGIN}/propiedades/quito`);
    expect(mail?.text).not.toContain('utm_source=ignored');
    expect(mail?.text).toContain('Elemento / Element: exp-property-search');
    expect(mail?.text).toContain('Campaña / Campaign: cumbaya-noviembre / facebook / cpc');
    expect(mail?.html).toContain('cumbaya-noviembre / facebook / cpc');
    if (target.copies) {
      await until(() => mails().length === 2);
      const copy = mails().find((m) => m !== mail);
      expect(copy?.envelopeTo.map((a) => a.toLowerCase())).toEqual([listing.agent_email.toLowerCase()]);
      expect(copy?.subject).toMatch(/^\[Copia \/ Copy\] /);
      expect(copy?.text).toContain(`Copia: esta consulta fue para ${owner.first_name}`);
    } else {
      // every delivery ended (a mail is recorded before SMTP's answer): a copy would be here
      await target.drainOutbox();
      expect(mails()).toHaveLength(1);
    }
    const [row] = await target.sql<Record<string, unknown>>(
      'select recipient_kind, lead_agent_id::text as lead, copy_recipient, origin, page_url, element, utm from public.inquiries where id = $1',
      [id],
    );
    expect(row).toEqual({
      recipient_kind: 'lead_agent',
      lead: owner.id,
      copy_recipient: target.copies ? listing.agent_email : null,
      origin: PAGE_ORIGIN,
      page_url: `${PAGE_ORIGIN}/propiedades/quito`,
      element: 'exp-property-search',
      utm: { utm_source: 'facebook', utm_medium: 'cpc', utm_campaign: 'cumbaya-noviembre' },
    });

    // the webhook: signed as Standard Webhooks says, versioned, with the same attribution
    await until(() => hooks.deliveries.some((d) => d.body.includes(id)));
    const delivery = hooks.deliveries.find((d) => d.body.includes(id)) as (typeof hooks.deliveries)[number];
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(String(delivery.headers['webhook-id'])).toMatch(/^msg_[0-9a-f]{32}$/);
    const event = verified(delivery);
    expect(event).toMatchObject({ type: 'inquiry.created', version: 1 });
    expect(event.data).toMatchObject({
      id,
      lang: 'es',
      contact: {
        name: 'Andrea Villacís',
        email: 'andrea.villacis@example.com',
        phone: '+593 98 765 4321',
        message: '¿Puedo visitarla el sábado?',
      },
      listing: { id: listing.id, title: listing.title },
      recipient: { kind: 'lead_agent', agent_id: owner.id, email: owner.email },
      lead_agent_id: owner.id,
      copy_to: target.copies ? { kind: 'listing_agent', agent_id: listing.agent_id, email: listing.agent_email } : null,
      attribution: {
        origin: PAGE_ORIGIN,
        page: `${PAGE_ORIGIN}/propiedades/quito`,
        element: 'exp-property-search',
        utm: { utm_source: 'facebook', utm_medium: 'cpc', utm_campaign: 'cumbaya-noviembre' },
      },
    });
    expect(String((event.data.listing as { url: string }).url)).toMatch(new RegExp(`^${SITE}/es/`));
    // a body changed in transit does not verify
    expect(() => verified({ ...delivery, body: delivery.body.replace('Andrea', 'Andrés') })).toThrow();
  });

  it('refuses a forged owner: an address, an unknown id, and stores and sends nothing', async () => {
    const before = smtp.mails.length;
    for (const forged of ['maria@agente-maria.example', '99999999', '12; drop table x', -1]) {
      const answer = await inquiry({ leadAgentId: forged, email: `forged-${seq}@example.com` });
      expect(answer.status, String(forged)).toBe(400);
      expect(answer.json).toMatchObject({ error: 'validation', fields: { leadAgentId: 'invalid' } });
    }
    const [{ n } = { n: -1 }] = await target.sql<{ n: number }>(
      "select count(*)::int as n from public.inquiries where email like 'forged-%'",
    );
    expect(n).toBe(0);
    // malformed attribution is refused too; a page on another origin than the request's is not kept
    expect((await inquiry({ source: { element: '<script>', page: PAGE_ORIGIN } })).json).toMatchObject({
      fields: { source: 'invalid' },
    });
    expect((await inquiry({ source: { element: 'exp-property-search', utm: { gclid: 'x' } } })).json).toMatchObject({
      fields: { source: 'invalid' },
    });
    const other = await inquiry({ source: { element: 'exp-inquiry-form', page: 'https://elsewhere.example/p' } });
    expect(other.status).toBe(200);
    const [row] = await target.sql<{ page_url: string | null; element: string }>(
      'select page_url, element from public.inquiries where id = $1',
      [other.json.id],
    );
    expect(row).toEqual({ page_url: null, element: 'exp-inquiry-form' });
    await target.drainOutbox();
    expect(smtp.mails.slice(before).every((m) => m.inquiryId === other.json.id)).toBe(true);
  });

  it('keeps only what was checked: without an Origin no page is kept or mailed; an Origin that is no origin (16 KB of text) is neither stored nor in the webhook', async () => {
    const forgedPage = {
      element: 'exp-property-search',
      page: 'https://phish.example/login',
      utm: { utm_source: 'mail' },
    };
    const withoutOrigin = await inquiry({ source: forgedPage }, {});
    const hugeOrigin = await inquiry(
      { source: { ...forgedPage, page: `${PAGE_ORIGIN}/casas` } },
      { Origin: `${PAGE_ORIGIN}/${'x'.repeat(16_000)}` },
    );
    expect([withoutOrigin.status, hugeOrigin.status]).toEqual([200, 200]);
    const ids = [String(withoutOrigin.json.id), String(hugeOrigin.json.id)];
    const rows = await target.sql<{ id: string; origin: string | null; page_url: string | null; element: string }>(
      'select id::text as id, origin, page_url, element from public.inquiries where id = any($1::uuid[])',
      [ids],
    );
    expect(rows.map((r) => [r.origin || null, r.page_url, r.element])).toEqual([
      [null, null, 'exp-property-search'],
      [null, null, 'exp-property-search'],
    ]);
    await target.drainOutbox();
    await until(
      () =>
        ids.every((id) => smtp.mails.some((m) => m.inquiryId === id)) &&
        ids.every((id) => hooks.deliveries.some((d) => d.body.includes(`"id":"${id}"`))),
    );
    for (const id of ids) {
      const mail = smtp.mails.find((m) => m.inquiryId === id);
      expect(mail?.text).not.toContain('phish.example');
      expect(mail?.html).not.toContain('phish.example');
      expect(mail?.text).not.toContain('Sitio / Site');
      expect(mail?.text).not.toContain('Página / Page');
      const event = verified(
        hooks.deliveries.find((d) => d.body.includes(`"id":"${id}"`)) as (typeof hooks.deliveries)[number],
      );
      expect(event.data.attribution).toEqual({
        origin: null,
        page: null,
        element: 'exp-property-search',
        utm: { utm_source: 'mail' },
      });
    }
  });

  it('delivers a webhook after its endpoint comes back, each message taken once, and reports the failures', async () => {
    hooks.mode = 'down';
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(String((await inquiry()).json.id));
    const failedOnce = async () => {
      const [r] = await target.sql<{ n: number }>(
        "select count(*)::int as n from internal.mail_outbox where kind = 'webhook' and payload->'data'->>'id' = any($1) and attempts >= 1 and status = 'pending'",
        [ids],
      );
      return r?.n === 3;
    };
    await target.drainOutbox();
    await until(failedOnce);
    const report = await webhookReport(target.db);
    expect(report[0]).toMatchObject({ url: hooks.url, retrying: 3, last_error: 'the endpoint answered HTTP 503' });
    hooks.mode = 'ok';
    // (the deployed function delivers on its scheduled call; the backoff's wait is skipped here)
    await target.sql(
      "update internal.mail_outbox set next_attempt_at = internal.now() where kind = 'webhook' and status = 'pending'",
    );
    await target.drainOutbox();
    await until(() => ids.every((id) => hooks.deliveries.some((d) => d.answered === 200 && d.body.includes(id))));
    // every delivery ended (the receiver records a call before it answers): a second would be here
    await target.drainOutbox();
    for (const [id, n] of hooks.taken()) expect(n, id).toBe(1);
    // each attempt is signed afresh, with the same message id
    const attempts = hooks.deliveries.filter((d) => d.body.includes(ids[0] as string));
    expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1);
    for (const d of attempts) expect(verified(d).type).toBe('inquiry.created');
    expect((await webhookReport(target.db))[0]).toMatchObject({ waiting: 0, failed: 0 });
  });

  it('an endpoint that is not, or no longer, on a public https address is sent nothing: its deliveries fail for good, with the reason', async () => {
    // written straight into the table (the command refuses these): as if a name had come to point inside
    const [{ id } = { id: '' }] = await target.sql<{ id: string }>(
      "insert into internal.webhook_endpoints (url, events, secret) values ('https://127.0.0.1:9/hooks', '{inquiry.created}', 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0') returning id::text as id",
    );
    const sent = await inquiry();
    await target.drainOutbox();
    await until(
      async () =>
        (
          await target.sql<{ status: string }>(
            "select status from internal.mail_outbox where kind = 'webhook' and recipient = $1 and payload->'data'->>'id' = $2",
            [id, sent.json.id],
          )
        )[0]?.status === 'failed',
    );
    const [row] = await target.sql<{ last_error: string; attempts: number }>(
      "select last_error, attempts from internal.mail_outbox where kind = 'webhook' and recipient = $1",
      [id],
    );
    expect(row?.last_error).toMatch(/127\.0\.0\.1.*not an address/);
    // refused at once, not retried for a day
    expect(row?.attempts).toBe(1);
    await target.sql('update internal.webhook_endpoints set disabled_at = internal.now() where id = $1', [id]);
  });

  it('a removed endpoint is sent nothing more', async () => {
    const other = await startWebhookReceiver();
    try {
      const endpoint = await addEndpoint(target.db, { url: other.url, events: ['inquiry.created'], dev: true });
      expect(await removeEndpoint(target.db, endpoint.id)).toBe(true);
      await inquiry();
      // every delivery ended: one to the removed endpoint would be here
      await target.drainOutbox();
      expect(other.deliveries).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
