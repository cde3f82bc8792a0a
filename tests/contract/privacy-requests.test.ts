/**
 * A visitor's data on her request (docs/privacy.md), through the privacy function as any client
 * calls it, over PostgreSQL (the server and the visitors' calls: tests/support/privacy.ts): she sent
 * an inquiry (with a visit request) and follows a search; she asks for her data by e-mail (an
 * address we do not know gets the same answer and no mail); the mailed link opens once and shows
 * all three; she corrects her phone; she erases herself. Then no table of the database holds her
 * name, e-mail or phone (every row of every table, read as text), the CRM received lead.erased
 * (verified with `standardwebhooks`), the agent and the team were told without her name, her alert
 * can never be sent, and another visitor's data is untouched. A link never made is refused, and an
 * address is mailed at most three links a day.
 */
import { simpleParser } from 'mailparser';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { issueToken } from '../../core/functions/alerts/tokens.ts';
import { HER, OTHER, usePrivacySuite } from '../support/privacy.ts';
import { until } from '../support/until.ts';

describe("her data on request: a link mailed to her address, what we keep, its correction and its erasure (Ecuador's LOPDP)", () => {
  const { suite, call, mailsTo, inquire } = usePrivacySuite();

  it('shows her everything once, corrects her phone, and erases her everywhere it is kept', async () => {
    // what she did on the site: an inquiry with a visit request, a followed search; and what another visitor did
    // (with a consent: it goes with her too)
    const lead = await inquire(HER, 'Me interesa la casa de Cumbayá, mi teléfono es +593 99 111 2233', {
      consents: ['marketing'],
    });
    const [listing] = await suite.server.sql<{ id: string }>(
      "select id::text as id from internal.listings where is_public and country_code = 'EC' order by id limit 1",
    );
    await suite.server.sql(
      `insert into internal.visit_requests (inquiry_id, listing_id, agent_id, recipient_email, mode, proposed, name, email, phone, lang)
       values ($1::uuid, $2::bigint, $3::bigint, $4, 'in_person', array[internal.now() + interval '3 days'], $5, $6, $7, 'es')`,
      [lead, listing!.id, suite.agent.id, suite.agent.email, HER.name, HER.email, HER.phone],
    );
    const subscribed = await fetch(`${suite.server.url}/functions/v1/saved-searches`, {
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
    const [search] = await suite.server.sql<{ id: string }>(
      'select id::text as id from internal.saved_searches where email = $1',
      [HER.email],
    );
    const confirm = await issueToken(
      { query: (text, params) => suite.server.sql(text, params ? [...params] : []) },
      search!.id,
      'confirm',
      null,
    );
    expect(
      (await (
        await fetch(`${suite.server.url}/functions/v1/saved-searches`, {
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
        suite.hooks.deliveries.some((d) => d.body.includes(lead)) &&
        suite.hooks.deliveries.some((d) => d.body.includes(otherLead)),
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

    // (until then her lead's search_text holds her phone's digits: the needles below would find them)
    expect(
      await suite.server.sql(
        "select count(*)::int as n from public.inquiries where strpos(search_text, '593990000000') > 0",
      ),
    ).toEqual([{ n: 1 }]);
    // erasure
    const erased = await call({ action: 'erase', session });
    expect(erased).toMatchObject({ status: 200, body: { ok: true, erased: { inquiries: 1, saved_searches: 1 } } });
    // the session went with her address
    expect((await call({ action: 'view', session })).status).toBe(404);

    // no table holds her name, e-mail or phone: every row of every table of ours, read as text (her
    // phones as written, and as their digits, which a lead's search_text keeps: 40_inquiries.sql)
    const tables = await suite.server.sql<{ name: string }>(
      "select format('%I.%I', table_schema, table_name) as name from information_schema.tables where table_schema in ('public', 'internal', 'auth') and table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(20);
    for (const { name } of tables)
      for (const needle of [
        HER.name,
        HER.email,
        'valeria.privada',
        '99 111 2233',
        '99 000 0000',
        '593991112233',
        '593990000000',
      ]) {
        const [row] = await suite.server.sql<{ n: number }>(
          `select count(*)::int as n from ${name} t where strpos(lower(t::text), lower($1)) > 0`,
          [needle],
        );
        expect({ table: name, needle, rows: row!.n }).toEqual({ table: name, needle, rows: 0 });
      }
    // the lead stays, marked erased, in its agent's list; the trail says it was erased
    expect(
      await suite.server.sql(
        'select name, email, phone, message, erased_at is not null as erased from public.inquiries where id = $1',
        [lead],
      ),
    ).toEqual([{ name: '', email: '', phone: null, message: null, erased: true }]);
    expect(await suite.server.sql('select what from public.lead_events where lead_id = $1', [lead])).toEqual([
      { what: 'erased' },
    ]);
    // her alert can never be sent again: the search is gone, nothing of it waits in the outbox
    expect(
      await suite.server.sql('select id from internal.saved_searches where id = $1::bigint', [search!.id]),
    ).toEqual([]);
    expect(
      await suite.server.sql(
        "select id from internal.mail_outbox where status = 'pending' and split_part(ref_id, ':', 1) = $1",
        [search!.id],
      ),
    ).toEqual([]);

    // the CRM hears lead.erased (signed, ids only); the agent and the team are told, without her name
    await until(() => suite.hooks.deliveries.some((d) => d.body.includes('lead.erased')));
    const event = new Webhook(suite.secret).verify(
      suite.hooks.deliveries.find((d) => d.body.includes('lead.erased'))!.body,
      suite.hooks.deliveries.find((d) => d.body.includes('lead.erased'))!.headers as Record<string, string>,
    ) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event).toMatchObject({
      type: 'lead.erased',
      data: { lead_ids: [lead], saved_search_ids: [Number(search!.id)] },
    });
    // (each mail read as a mail client does: its subject decoded, whatever its words' encoding)
    const told = await Promise.all((await mailsTo(suite.agent.email)).map((m) => simpleParser(m)));
    const notice = told.find((m) => /eliminaron|erased/.test(m.subject ?? ''));
    expect(notice).toBeDefined();
    expect([notice!.subject, notice!.text, notice!.html || ''].join('\n')).not.toContain('Valeria');

    // another visitor's data is untouched
    expect(
      await suite.server.sql('select name, email, phone from public.inquiries where id = $1', [otherLead]),
    ).toEqual([{ name: OTHER.name, email: OTHER.email, phone: OTHER.phone }]);
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
