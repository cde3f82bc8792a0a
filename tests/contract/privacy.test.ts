/**
 * A visitor's data on her request (docs/privacy.md), through the privacy function as any client
 * calls it, over PostgreSQL: she sent an inquiry (with a visit request) and follows a search; she
 * asks for her data by e-mail (an address we do not know gets the same answer and no mail); the
 * mailed link opens once and shows all three; she corrects her phone; she erases herself. Then no
 * table of the database holds her name, e-mail or phone (every row of every table, read as text),
 * the CRM received lead.erased (verified with `standardwebhooks`), the agent and the team were told
 * without her name, her alert can never be sent, and another visitor's data is untouched. Then the
 * retention job on old leads, mails and requests, run by two servers on one database at once.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../core/functions/alerts/tokens.ts';
import { addEndpoint } from '../../server/webhooks/endpoints.ts';
import { inquiryBody } from '../support/inquiry.ts';
import { PRIVACY_NOTICE } from '../../core/protocol/privacy.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { postgresDatabase } from '../support/postgres.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { until } from '../support/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const HER = { name: 'Valeria Privada', email: 'Valeria.Privada+casa@example.com', phone: '+593 99 111 2233' };
const OTHER = { name: 'Otto Ajeno', email: 'otto.ajeno@example.com', phone: '+593 98 444 5566' };

describe("her data on request: a link mailed to her address, what we keep, its correction and its erasure (Ecuador's LOPDP)", () => {
  let server: TestServer;
  let hooks: WebhookReceiver;
  let secret = '';
  let agent = { id: '', email: '' };
  let ip = 0;

  const call = async (body: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/functions/v1/privacy`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.9.0.${++ip}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const mailsTo = async (email: string) => {
    await server.drainOutbox();
    return readdirSync(server.outboxDir)
      .sort()
      .map((f) => readFileSync(join(server.outboxDir, f), 'utf8'))
      .filter((m) => m.split(/\r?\n/).some((line) => line.toLowerCase() === `to: ${email.toLowerCase()}`));
  };
  /** (`more.source`: the page the browser names, sent with its Origin as a browser does) */
  const sendInquiry = (who: typeof HER, message: string, more: Record<string, unknown> = {}) =>
    fetch(`${server.url}/functions/v1/send-property-inquiry`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': `10.9.1.${++ip}`,
        ...(more.source ? { Origin: new URL((more.source as { page: string }).page).origin } : {}),
      },
      body: JSON.stringify(
        inquiryBody({ name: who.name, email: who.email, phone: who.phone, message, leadAgentId: agent.id, ...more }),
      ),
    });
  const inquire = async (who: typeof HER, message: string, more: Record<string, unknown> = {}) => {
    const res = await sendInquiry(who, message, more);
    expect(res.status).toBe(200);
    return String(((await res.json()) as { id: string }).id);
  };
  /** A signed delivery of this event naming this text, verified as a CRM would. */
  const delivered = async (type: string, naming: string) => {
    await until(() => hooks.deliveries.some((d) => d.body.includes(`"${type}"`) && d.body.includes(naming)));
    const d = hooks.deliveries.find((x) => x.body.includes(`"${type}"`) && x.body.includes(naming))!;
    return new Webhook(secret).verify(d.body, d.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
  };
  /** Her data's page, opened through a link mailed to her: its session and what it shows. */
  const openData = async (email: string) => {
    expect((await call({ action: 'ask', email, lang: 'es' })).status).toBe(200);
    const mail = (await mailsTo(email)).at(-1) ?? '';
    const token =
      /\/es\/privacidad\/mis-datos\?token=([A-Za-z0-9_-]{43})/.exec(
        mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
      )?.[1] ?? '';
    const opened = await call({ action: 'open', token });
    expect(opened.status).toBe(200);
    return {
      session: String(opened.body.session),
      data: opened.body.data as Record<string, Array<Record<string, unknown>>>,
    };
  };

  beforeAll(async () => {
    server = await startTestServer('postgres', {
      trustProxy: { hops: 1 },
      webhooks: { baseDelaySeconds: 0.2, maxDelaySeconds: 0.5 },
    });
    hooks = await startWebhookReceiver();
    secret = (
      await addEndpoint(server.db, {
        url: hooks.url,
        events: ['inquiry.created', 'lead.erased', 'consent.withdrawn'],
        dev: true,
      })
    ).secret;
    const [made] = await server.sql<{ id: string; email: string }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ('Paula', 'Privacidad', 'paula.privacidad@example.com', 'EC') returning id::text as id, email",
    );
    agent = made!;
  }, 240_000);

  afterAll(async () => {
    await hooks?.close();
    await server?.close();
  });

  it('shows her everything once, corrects her phone, and erases her everywhere it is kept', async () => {
    // what she did on the site: an inquiry with a visit request, a followed search; and what another visitor did
    // (with a consent: it goes with her too)
    const lead = await inquire(HER, 'Me interesa la casa de Cumbayá, mi teléfono es +593 99 111 2233', {
      consents: ['marketing'],
    });
    const [listing] = await server.sql<{ id: string }>(
      "select id::text as id from internal.listings where is_public and country_code = 'EC' order by id limit 1",
    );
    await server.sql(
      `insert into internal.visit_requests (inquiry_id, listing_id, agent_id, recipient_email, mode, proposed, name, email, phone, lang)
       values ($1::uuid, $2::bigint, $3::bigint, $4, 'in_person', array[internal.now() + interval '3 days'], $5, $6, $7, 'es')`,
      [lead, listing!.id, agent.id, agent.email, HER.name, HER.email, HER.phone],
    );
    const subscribed = await fetch(`${server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.9.2.1' },
      body: JSON.stringify({
        action: 'subscribe',
        email: HER.email,
        filters: { city: 'Quito' },
        frequency: 'daily',
        lang: 'es',
        website: '',
      }),
    });
    expect(subscribed.status).toBe(200);
    const [search] = await server.sql<{ id: string }>(
      'select id::text as id from internal.saved_searches where email = $1',
      [HER.email],
    );
    const confirm = await issueToken(
      { query: (text, params) => server.sql(text, params ? [...params] : []) },
      search!.id,
      'confirm',
      null,
    );
    expect(
      (await (
        await fetch(`${server.url}/functions/v1/saved-searches`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ action: 'confirm', token: confirm }),
        })
      ).json()) as object,
    ).toMatchObject({
      ok: true,
    });
    const otherLead = await inquire(OTHER, 'Quisiera información');
    await until(
      () =>
        hooks.deliveries.some((d) => d.body.includes(lead)) && hooks.deliveries.some((d) => d.body.includes(otherLead)),
    );

    // an address we keep nothing about: the same answer, and no mail
    expect(await call({ action: 'ask', email: 'nadie.conocido@example.com', lang: 'es' })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await mailsTo('nadie.conocido@example.com')).toEqual([]);
    // a bad address is said so; a bad action too
    expect((await call({ action: 'ask', email: 'no es un correo' })).status).toBe(400);
    expect((await call({ action: 'steal', email: HER.email })).status).toBe(400);

    // she asks (in another case and without her +tag: the same mailbox) and the link comes
    expect(await call({ action: 'ask', email: 'valeria.privada@EXAMPLE.com', lang: 'es' })).toEqual({
      status: 200,
      body: { ok: true },
    });
    const mail = (await mailsTo('valeria.privada@EXAMPLE.com')).at(-1) ?? '';
    const token =
      /\/es\/privacidad\/mis-datos\?token=([A-Za-z0-9_-]{43})/.exec(
        mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
      )?.[1] ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // the link opens once: everything kept about her mailbox
    const opened = await call({ action: 'open', token });
    expect(opened.status).toBe(200);
    const data = opened.body.data as {
      inquiries: Array<Record<string, unknown>>;
      saved_searches: Array<Record<string, unknown>>;
      mails: unknown[];
    };
    expect(data.inquiries).toHaveLength(1);
    expect(data.inquiries[0]).toMatchObject({
      id: lead,
      name: HER.name,
      email: HER.email,
      phone: HER.phone,
      agent: 'Paula Privacidad',
      visit: { mode: 'in_person', phone: HER.phone },
    });
    expect(data.saved_searches).toEqual([
      expect.objectContaining({ email: HER.email, status: 'active', filters: { city: 'Quito' } }),
    ]);
    expect(data.mails.length).toBeGreaterThan(0);
    expect(JSON.stringify(data)).not.toContain(OTHER.email);
    expect((await call({ action: 'open', token })).status).toBe(410);
    const session = String(opened.body.session);

    // a correction: her phone, wherever it is kept
    expect((await call({ action: 'correct', session, name: HER.name, phone: 'no\nphone' })).status).toBe(400);
    const corrected = await call({ action: 'correct', session, name: HER.name, phone: '+593 99 000 0000' });
    expect(corrected.status).toBe(200);
    expect((corrected.body.data as typeof data).inquiries[0]).toMatchObject({
      phone: '+593 99 000 0000',
      visit: { phone: '+593 99 000 0000' },
    });

    // erasure
    const erased = await call({ action: 'erase', session });
    expect(erased).toMatchObject({ status: 200, body: { ok: true, erased: { inquiries: 1, saved_searches: 1 } } });
    // the session went with her address
    expect((await call({ action: 'view', session })).status).toBe(404);

    // no table holds her name, e-mail or phone: every row of every table of ours, read as text
    const tables = await server.sql<{ name: string }>(
      "select format('%I.%I', table_schema, table_name) as name from information_schema.tables where table_schema in ('public', 'internal', 'auth') and table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(20);
    for (const { name } of tables)
      for (const needle of [HER.name, HER.email, 'valeria.privada', '99 111 2233', '99 000 0000']) {
        const [row] = await server.sql<{ n: number }>(
          `select count(*)::int as n from ${name} t where strpos(lower(t::text), lower($1)) > 0`,
          [needle],
        );
        expect({ table: name, needle, rows: row!.n }).toEqual({ table: name, needle, rows: 0 });
      }
    // the lead stays, marked erased, in its agent's list; the trail says it was erased
    expect(
      await server.sql(
        'select name, email, phone, message, erased_at is not null as erased from public.inquiries where id = $1',
        [lead],
      ),
    ).toEqual([{ name: '', email: '', phone: null, message: null, erased: true }]);
    expect(await server.sql('select what from public.lead_events where lead_id = $1', [lead])).toEqual([
      { what: 'erased' },
    ]);
    // her alert can never be sent again: the search is gone, nothing of it waits in the outbox
    expect(await server.sql('select id from internal.saved_searches where id = $1::bigint', [search!.id])).toEqual([]);
    expect(
      await server.sql(
        "select id from internal.mail_outbox where status = 'pending' and split_part(ref_id, ':', 1) = $1",
        [search!.id],
      ),
    ).toEqual([]);

    // the CRM hears lead.erased (signed, ids only); the agent and the team are told, without her name
    await until(() => hooks.deliveries.some((d) => d.body.includes('lead.erased')));
    const event = new Webhook(secret).verify(
      hooks.deliveries.find((d) => d.body.includes('lead.erased'))!.body,
      hooks.deliveries.find((d) => d.body.includes('lead.erased'))!.headers as Record<string, string>,
    ) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event).toMatchObject({
      type: 'lead.erased',
      data: { lead_ids: [lead], saved_search_ids: [Number(search!.id)] },
    });
    // (each mail read as a mail client does: its subject decoded, whatever its words' encoding)
    const told = await Promise.all((await mailsTo(agent.email)).map((m) => simpleParser(m)));
    const notice = told.find((m) => /eliminaron|erased/.test(m.subject ?? ''));
    expect(notice).toBeDefined();
    expect([notice!.subject, notice!.text, notice!.html || ''].join('\n')).not.toContain('Valeria');

    // another visitor's data is untouched
    expect(await server.sql('select name, email, phone from public.inquiries where id = $1', [otherLead])).toEqual([
      { name: OTHER.name, email: OTHER.email, phone: OTHER.phone },
    ]);
  }, 120_000);

  it('keeps each consent she ticked with its words, the notice and the page; the CRM gets a one-click withdrawal; her home report goes with its consent', async () => {
    const CARLA = { name: 'Carla Consiente', email: 'carla.consiente@example.com', phone: '+593 99 777 8899' };
    const es = (
      JSON.parse(readFileSync(join(import.meta.dirname, '../../core/locales/es.json'), 'utf8')) as {
        consent: Record<string, string>;
      }
    ).consent;
    // a box that is not one, one ticked twice, the home report (its own request) or not a list: refused, nothing kept
    for (const consents of [['spam'], ['marketing', 'marketing'], ['home_report'], 'marketing']) {
      const res = await sendInquiry(CARLA, 'Casillas malas', { consents });
      expect([res.status, ((await res.json()) as { fields: Record<string, string> }).fields]).toEqual([
        400,
        { consents: 'invalid' },
      ]);
    }
    // nothing ticked: nothing kept beside her request
    const plain = await inquire(CARLA, 'Sin casillas');
    expect(await server.sql('select id from internal.consents where inquiry_id = $1::uuid', [plain])).toEqual([]);
    // two boxes ticked on a partner's page: each kept in the words she read, under the notice's version
    const page = 'https://socio.example/casas/cumbaya';
    const lead = await inquire(CARLA, 'Con casillas', {
      consents: ['other_agents', 'marketing'],
      source: { page, element: 'exp-inquiry-form', utm: {} },
    });
    expect(
      await server.sql(
        'select purpose, text, lang, notice_version, page, withdrawn_at from internal.consents where inquiry_id = $1::uuid order by purpose',
        [lead],
      ),
    ).toEqual([
      {
        purpose: 'marketing',
        text: es.marketing,
        lang: 'es',
        notice_version: PRIVACY_NOTICE.version,
        page,
        withdrawn_at: null,
      },
      {
        purpose: 'other_agents',
        text: es.other_agents,
        lang: 'es',
        notice_version: PRIVACY_NOTICE.version,
        page,
        withdrawn_at: null,
      },
    ]);
    // the CRM hears them with the lead (signed), each with the link that withdraws it
    const created = await delivered('inquiry.created', lead);
    const told = created.data.consents as Array<{
      purpose: string;
      text: string;
      page: string;
      notice_version: string;
      given_at: string;
      withdraw_url: string;
    }>;
    expect(told.map((c) => [c.purpose, c.text, c.page, c.notice_version])).toEqual(
      expect.arrayContaining([
        ['marketing', es.marketing, page, PRIVACY_NOTICE.version],
        ['other_agents', es.other_agents, page, PRIVACY_NOTICE.version],
      ]),
    );
    const link = new URL(told.find((c) => c.purpose === 'marketing')!.withdraw_url);
    expect(link.pathname).toBe('/es/privacidad/consentimiento');
    const at = `${server.url}${link.pathname}${link.search}`;
    // the link's page: what she agreed to, and a button; opening it (a mail scanner) withdraws nothing
    const shown = await fetch(at);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain(es.marketing);
    expect(html).toContain('value="withdraw"');
    const state = () =>
      server.sql<{ purpose: string; via: string | null }>(
        'select purpose, withdrawn_via as via from internal.consents where inquiry_id = $1::uuid order by purpose',
        [lead],
      );
    expect((await state()).map((c) => c.via)).toEqual([null, null]);
    // a mail client's one-click POST (RFC 8058) withdraws it; again: already withdrawn
    const oneClick = () =>
      fetch(at, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const first = await oneClick();
    expect(first.status).toBe(200);
    expect(await state()).toEqual([
      { purpose: 'marketing', via: 'link' },
      { purpose: 'other_agents', via: null },
    ]);
    expect(await (await oneClick()).text()).toMatch(/ya estaba retirado/);
    const withdrawn = await delivered('consent.withdrawn', lead);
    expect(withdrawn.data).toMatchObject({
      purpose: 'marketing',
      email: CARLA.email,
      inquiry_id: lead,
      withdrawn_via: 'link',
    });
    // a link never issued: said so
    expect((await fetch(`${server.url}/es/privacidad/consentimiento?token=${'y'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${server.url}/privacy/consent?token=%3Cscript%3E`)).status).toBe(404);

    // her monthly home report is a consent of its own, kept with its subscription
    const report = await fetch(`${server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.9.3.1', Origin: new URL(page).origin },
      body: JSON.stringify({
        action: 'subscribe',
        email: CARLA.email,
        home: { place: 'cumbaya', property_type: 'house', area_m2: 250, bedrooms: 3 },
        lang: 'es',
        source: { page, element: 'exp-home-valuation', utm: {} },
      }),
    });
    expect(report.status).toBe(200);
    const [homeConsent] = await server.sql<{ id: string; text: string; search: string }>(
      "select id::text as id, text, search_id::text as search from internal.consents where purpose = 'home_report' and email = $1",
      [CARLA.email],
    );
    expect(homeConsent?.text).toBe(es.home_report);

    // her data's page lists the three; she withdraws the home report there, and it is unsubscribed
    const { session, data } = await openData(CARLA.email);
    expect(data.consents!.map((c) => [c.purpose, c.withdrawn_via])).toEqual(
      expect.arrayContaining([
        ['marketing', 'link'],
        ['other_agents', null],
        ['home_report', null],
      ]),
    );
    expect((await call({ action: 'withdraw', session, consent: '999999999' })).status).toBe(400);
    const after = await call({ action: 'withdraw', session, consent: homeConsent!.id });
    expect(after.status).toBe(200);
    expect((after.body.data as typeof data).consents!.find((c) => c.purpose === 'home_report')).toMatchObject({
      withdrawn_via: 'my-data',
    });
    expect(
      await server.sql('select status from internal.saved_searches where id = $1::bigint', [homeConsent!.search]),
    ).toEqual([{ status: 'unsubscribed' }]);
    // another visitor's session never withdraws hers
    const OSCAR = { name: 'Óscar Otro', email: 'oscar.otro@example.com', phone: '' };
    await inquire(OSCAR, 'Hola', { consents: ['marketing'] });
    const others = await openData(OSCAR.email);
    const [mine] = await server.sql<{ id: string }>(
      "select id::text as id from internal.consents where purpose = 'other_agents' and email = $1",
      [CARLA.email],
    );
    expect((await call({ action: 'withdraw', session: others.session, consent: mine!.id })).status).toBe(400);
    expect(await server.sql('select withdrawn_at from internal.consents where id = $1::bigint', [mine!.id])).toEqual([
      { withdrawn_at: null },
    ]);
  }, 120_000);

  it('refuses a link it never made, and mails an address at most three links a day', async () => {
    expect((await call({ action: 'open', token: 'x'.repeat(43) })).status).toBe(404);
    expect((await call({ action: 'open', token: 'short' })).status).toBe(404);
    await inquire(OTHER, 'Otra consulta');
    for (let i = 0; i < 5; i++)
      expect((await call({ action: 'ask', email: OTHER.email, lang: 'en' })).status).toBe(200);
    const links = (await mailsTo(OTHER.email)).filter((m) => /privacy\/my-data\?token=/.test(m.replace(/=\r?\n/g, '')));
    expect(links).toHaveLength(3);
  }, 60_000);
});

describe('nothing kept for ever: the retention job, once across two servers on one database', () => {
  let copy: { url: string; drop: () => Promise<void> };
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    copy = await postgresDatabase('seeded');
    // two servers on one database, as a deployment with two processes has them
    for (let i = 0; i < 2; i++) {
      const server = await startServer({
        db: await openPostgres(copy.url),
        port: 0,
        bundlePort: 0,
        mail: { outboxDir: mkdtempSync(join(tmpdir(), 'exp-outbox-')) },
      });
      await server.ready;
      servers.push(server);
    }
  }, 240_000);

  afterAll(async () => {
    for (const s of servers) await s.close();
    await copy?.drop();
  });

  it('erases exactly the leads past 24 months without contact, the mails sent over 90 days ago and the requests never confirmed after 30 days; one server does it', async () => {
    const db = await openPostgres(copy.url);
    const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      db.jobs.query<T>(text, params);
    try {
      const lead = async (key: string, age: string, followUp: string | null = null) =>
        (
          await sql<{ id: string }>(
            `insert into public.inquiries (idempotency_key, name, email, phone, message, recipient_email, recipient_kind, received_at, follow_up_on)
             values ($1, 'Rita Retenida', $1 || '@example.com', '+593 99 222 3344', 'Hola', 'equipo@example.com', 'team', internal.now() - $2::interval, (internal.now() + $3::interval)::date)
             returning id::text as id`,
            [key, age, followUp ?? '-100 years'],
          )
        )[0]!.id;
      const expired = await lead('ret-old', '25 months');
      const touched = await lead('ret-touched', '25 months');
      await sql(
        "insert into public.lead_events (lead_id, what, at) values ($1::uuid, 'changed', internal.now() - interval '2 months')",
        [touched],
      );
      const followed = await lead('ret-follow', '25 months', '10 days');
      const recent = await lead('ret-recent', '3 months');
      const mail = async (ref: string, status: string, age: string) =>
        (
          await sql<{ id: string }>(
            // (not due for a day: the servers' outbox workers leave a waiting one waiting)
            `insert into internal.mail_outbox (kind, ref_id, recipient, status, created_at, sent_at, next_attempt_at) values ('inquiry', $1, 'x@example.com', $2, internal.now() - $3::interval,
             case when $2 = 'sent' then internal.now() - $3::interval end, internal.now() + interval '1 day') returning id::text as id`,
            [ref, status, age],
          )
        )[0]!.id;
      const oldSent = await mail('ret-1', 'sent', '100 days');
      const newSent = await mail('ret-2', 'sent', '10 days');
      const oldPending = await mail('ret-3', 'pending', '100 days');
      const search = async (key: string, status: string, age: string) =>
        (
          await sql<{ id: string }>(
            `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, created_at, expires_at, idempotency_key, client_hash)
             values ($1 || '@example.com', $1, '{}', $1, 'daily', 'es', $2, internal.now() - $3::interval, internal.now() - $3::interval + interval '7 days', $1, 'x') returning id::text as id`,
            [key, status, age],
          )
        )[0]!.id;
      const oldPendingSearch = await search('ret-s1', 'pending', '40 days');
      const newPendingSearch = await search('ret-s2', 'pending', '5 days');
      const oldActive = await search('ret-s3', 'active', '400 days');

      // both servers at once, the last run forgotten: one runs, the other finds it taken
      await sql("delete from internal.job_schedule where job = 'retention'");
      const runsBefore = (await sql<{ n: number }>('select count(*)::int as n from internal.retention_runs'))[0]!.n;
      const outcomes = await Promise.all(servers.map((s) => s.applyRetention(3600)));
      expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
      // (counts: ours and whatever else the seeded database holds past its period; the rows below say which went)
      const done = outcomes.find((o) => o !== null)!;
      for (const kind of ['leads', 'mails', 'pending_searches'] as const)
        expect(done[kind], kind).toBeGreaterThanOrEqual(1);
      // and not again within the hour, from either
      expect(await Promise.all(servers.map((s) => s.applyRetention(3600)))).toEqual([null, null]);
      expect((await sql<{ n: number }>('select count(*)::int as n from internal.retention_runs'))[0]!.n).toBe(
        runsBefore + 1,
      );

      const leads = await sql<{ id: string; name: string; erased: boolean }>(
        'select id::text as id, name, erased_at is not null as erased from public.inquiries where id = any($1::uuid[]) order by idempotency_key',
        [[expired, touched, followed, recent]],
      );
      expect(Object.fromEntries(leads.map((l) => [l.id, l.erased]))).toEqual({
        [expired]: true,
        [touched]: false,
        [followed]: false,
        [recent]: false,
      });
      expect(leads.find((l) => l.id === expired)?.name).toBe('');
      expect(
        (
          await sql<{ id: string }>(
            'select id::text as id from internal.mail_outbox where id = any($1::bigint[]) order by id',
            [[oldSent, newSent, oldPending]],
          )
        ).map((r) => r.id),
      ).toEqual([newSent, oldPending].sort((a, b) => Number(a) - Number(b)));
      expect(
        (
          await sql<{ id: string }>(
            'select id::text as id from internal.saved_searches where id = any($1::bigint[]) order by id',
            [[oldPendingSearch, newPendingSearch, oldActive]],
          )
        ).map((r) => r.id),
      ).toEqual([newPendingSearch, oldActive].sort((a, b) => Number(a) - Number(b)));
    } finally {
      await db.close();
    }
  }, 120_000);
});
