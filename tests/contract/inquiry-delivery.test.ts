/**
 * send-property-inquiry delivers (docs/leads.md), against a real SMTP server in this process: the
 * right recipient and message, never a stranger's address, nothing sent twice, nothing lost while
 * SMTP is down, CORS, the body of call 5 (docs/product.md §7) as it is. The same suite runs twice
 * (tests/support/inquiry-targets.ts): against our Node server and against the deployed function
 * itself under Deno (over PostgreSQL with the migrations applied). Then, on our server over
 * PostgreSQL: the database away, and a load of 500.
 */
import { FunctionsClient } from '@supabase/functions-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingPath } from '../../core/routes.ts';
import { body, key, post, serverTarget, TARGETS, withSmtp, type Target } from '../support/inquiry-targets.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';
import { clientHeaders, pausable, startTestServer, type TestServer } from '../support/servers.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

describe.each(TARGETS)('send-property-inquiry: %s, with a real SMTP server', (_name, start, ownsDatabase) => {
  let server: Target, smtp: TestSmtp;
  beforeAll(async () => ({ server, smtp } = await withSmtp(start)), 240_000);
  afterAll(() => stopAll(server, smtp));
  let client = 0;
  // every test is its own client address (the rate limit counts per client)
  // (our server trusts one proxy: X-Forwarded-For; the deployed function its edge's CF-Connecting-IP)
  const from = () => clientHeaders(`10.0.0.${++client}`);
  it("mails the listing's agent with the property, the visitor's message and Reply-To the visitor (through functions-js)", async () => {
    const [listing] = await server.sql<{
      id: string;
      title: string;
      address: string;
      city: string;
      price: string;
      email: string;
      first_name: string;
    }>(
      "select l.id::text as id, l.title, l.address, l.city, l.price::text as price, a.email, a.first_name from internal.listings l join public.agents a on a.id = l.agent_id where l.status = '1' and l.country_code = 'EC' and l.title not like '%<%' order by l.id limit 1",
    );
    const functions = new FunctionsClient(server.functionsUrl, { headers: { apikey: 'anon', ...from() } });
    const { data, error } = await functions.invoke<{ ok: boolean; id: string }>('send-property-inquiry', {
      body: body({ propertyId: listing?.id, recipientEmail: 'someone@elsewhere.example' }),
    });
    expect(error).toBeNull();
    expect(data?.ok).toBe(true);
    const [stored] = await server.sql<{ recipient_email: string; recipient_kind: string; property_title: string }>(
      'select recipient_email, recipient_kind, property_title from public.inquiries where id = $1',
      [data?.id],
    );
    expect(stored).toMatchObject({
      recipient_email: listing?.email,
      recipient_kind: 'listing_agent',
      property_title: listing?.title,
    });
    await until(() => smtp.mails.some((m) => m.inquiryId === data?.id));
    const mail = smtp.mails.find((m) => m.inquiryId === data?.id);
    expect(mail?.envelopeTo).toEqual([listing?.email]);
    expect(mail?.subject).toContain(listing?.title);
    expect(mail?.replyTo).toContain('lucia.perez@example.com');
    expect(mail?.text).toContain(String(listing?.address));
    expect(mail?.text).toContain(`$${Number(listing?.price).toLocaleString('en-US')}`);
    expect(mail?.text).toContain('Me interesa visitarla este sábado.');
    // the listing's own page, in Spanish
    expect(mail?.text).toContain(`https://expecuador.example${listingPath(String(listing?.id), listing?.title, 'es')}`);
    expect(mail?.text).toContain(`Hola ${listing?.first_name}`);
    expect(mail?.messageId).toContain(`inquiry-${data?.id}@`);
    expect(mail?.text).not.toContain('Whatever the page says');
  });

  it('says a rental\'s price a month in the agent\'s mail (docs/product.md "Rent and buy")', async () => {
    const [rent] = await server.sql<{ id: string; price: string }>(
      "select l.id::text as id, l.price::text as price from internal.listings l where l.status = '1' and l.country_code = 'EC' and l.operation = 'rent' and l.title not like '%<%' order by l.id limit 1",
    );
    const r = await post(server, body({ propertyId: rent?.id }), from());
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    await until(() => smtp.mails.some((m) => m.inquiryId === r.json.id));
    expect(smtp.mails.find((m) => m.inquiryId === r.json.id)?.text).toContain(
      `$${Number(rent?.price).toLocaleString('en-US')}/mes`,
    );
  });

  it("never mails a stranger's recipientEmail: the team inbox gets it", async () => {
    const r = await post(server, body({ recipientEmail: 'victim@evil.example' }), from());
    expect(r.status).toBe(200);
    const [stored] = await server.sql<{ recipient_email: string; recipient_kind: string; requested_recipient: string }>(
      'select recipient_email, recipient_kind, requested_recipient from public.inquiries where id = $1',
      [r.json.id],
    );
    expect(stored).toMatchObject({
      recipient_email: 'equipo@expecuador.example',
      recipient_kind: 'team',
      requested_recipient: 'victim@evil.example',
    });
    await until(() => smtp.mails.some((m) => m.inquiryId === r.json.id));
    expect(smtp.mails.flatMap((m) => m.envelopeTo)).not.toContain('victim@evil.example');
  });

  it("uses the browser's recipientEmail only when it is a known EC agent's, and agentId for a profile", async () => {
    const [agent] = await server.sql<{ id: string; email: string }>(
      "select id::text as id, email from public.agents where country_code = 'EC' and id = 3",
    );
    const known = await post(server, body({ recipientEmail: agent?.email.toUpperCase() }), from());
    const byId = await post(server, body({ agentId: agent?.id }), from());
    const [foreign] = await server.sql<{ email: string }>(
      "select email from public.agents where country_code <> 'EC' limit 1",
    );
    const notEc = await post(server, body({ recipientEmail: foreign?.email }), from());
    const rows = await server.sql<{ id: string; recipient_email: string; recipient_kind: string }>(
      'select id::text as id, recipient_email, recipient_kind from public.inquiries where id = any($1::uuid[])',
      [[known.json.id, byId.json.id, notEc.json.id]],
    );
    const by = (id: unknown) => rows.find((r) => r.id === id);
    expect(by(known.json.id)).toMatchObject({ recipient_email: agent?.email, recipient_kind: 'agent' });
    expect(by(byId.json.id)).toMatchObject({ recipient_email: agent?.email, recipient_kind: 'agent' });
    expect(by(notEc.json.id)).toMatchObject({ recipient_kind: 'team' });
  });

  it('makes one inquiry and one e-mail of a double click or a retry (idempotency key)', async () => {
    const payload = body();
    const headers = from();
    const results = await Promise.all([
      post(server, payload, headers),
      post(server, payload, headers),
      post(server, payload, headers),
    ]);
    expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const rows = await server.sql('select id from public.inquiries where idempotency_key = $1', [
      payload.idempotencyKey,
    ]);
    expect(rows).toHaveLength(1);
    await until(() => smtp.mails.some((m) => m.inquiryId === results[0]?.json.id));
    await server.drainOutbox();
    expect(smtp.mails.filter((m) => m.inquiryId === results[0]?.json.id)).toHaveLength(1);
  });

  it('accepts a honeypot hit silently and never delivers it', async () => {
    const r = await post(server, body({ website: 'https://spam.example' }), from());
    expect(r).toMatchObject({ status: 200, json: { ok: true } });
    const [row] = await server.sql<{ spam: boolean; queued: number }>(
      "select spam, (select count(*)::int from internal.mail_outbox where kind = 'inquiry' and ref_id = q.id::text) as queued from public.inquiries q where id = $1",
      [r.json.id],
    );
    expect(row).toMatchObject({ spam: true, queued: 0 });
    await server.drainOutbox();
    expect(smtp.mails.some((m) => m.inquiryId === r.json.id)).toBe(false);
  });

  it('loses nothing while SMTP is down and delivers each once when it is back', async () => {
    await smtp.stop();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await post(server, body({ message: `Down ${i}` }), from());
      expect(r.status).toBe(200);
      ids.push(String(r.json.id));
    }
    await server.drainOutbox();
    await until(async () => {
      const rows = await server.sql<{ n: number }>(
        "select count(*)::int as n from internal.mail_outbox where kind = 'inquiry' and ref_id = any($1) and status = 'pending' and attempts >= 1 and last_error is not null and transient_failure",
        [ids],
      );
      return rows[0]?.n === 5;
    });
    expect(smtp.mails.filter((m) => ids.includes(m.inquiryId))).toHaveLength(0);
    await smtp.start();
    await until(async () => {
      await server.drainOutbox();
      const rows = await server.sql<{ n: number }>(
        "select count(*)::int as n from internal.mail_outbox where kind = 'inquiry' and ref_id = any($1) and status = 'sent'",
        [ids],
      );
      return rows[0]?.n === 5;
    }, 20000);
    await server.drainOutbox();
    const delivered = smtp.mails.filter((m) => ids.includes(m.inquiryId));
    expect(delivered).toHaveLength(5);
    expect(new Set(delivered.map((m) => m.inquiryId)).size).toBe(5);
  });

  it('answers CORS preflights for partner origins', async () => {
    const res = await fetch(`${server.functionsUrl}/send-property-inquiry`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://partner.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, x-client-info, apikey, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('content-type');
  });

  it('accepts the body of call 5 (docs/product.md §7) exactly as the spec sends it, and mails the agent it names when that agent is ours', async () => {
    const [agent] = await server.sql<{ id: string; email: string }>(
      "select id::text as id, email from public.agents where country_code = 'EC' and nullif(btrim(email), '') is not null order by id desc limit 1",
    );
    const spec = {
      name: 'Marco Salazar',
      email: 'marco.salazar@example.com',
      phone: '0998765432',
      message: 'Quisiera más información.',
      propertyTitle: 'Casa en Cumbayá',
      propertyAddress: 'Cumbayá, Quito',
      propertyPrice: '$250,000',
      recipientEmail: agent?.email,
    };
    const r = await post(server, spec, from());
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const [stored] = await server.sql<{
      recipient_email: string;
      recipient_kind: string;
      property_title: string;
      idempotency_key: string;
    }>('select recipient_email, recipient_kind, property_title, idempotency_key from public.inquiries where id = $1', [
      r.json.id,
    ]);
    expect(stored).toMatchObject({
      recipient_email: agent?.email,
      recipient_kind: 'agent',
      property_title: 'Casa en Cumbayá',
    });
    await until(() => smtp.mails.some((m) => m.inquiryId === r.json.id));
    expect(smtp.mails.find((m) => m.inquiryId === r.json.id)?.envelopeTo).toEqual([agent?.email]);
    // the same body from a spec client that knows no agent: the team, never the stranger
    const stranger = await post(
      server,
      { ...spec, message: 'Otra consulta', recipientEmail: 'someone@nowhere.example' },
      from(),
    );
    expect(stranger.status).toBe(200);
    const [team] = await server.sql<{ recipient_email: string; recipient_kind: string }>(
      'select recipient_email, recipient_kind from public.inquiries where id = $1',
      [stranger.json.id],
    );
    expect(team).toMatchObject({ recipient_email: 'equipo@expecuador.example', recipient_kind: 'team' });
  });

  it('takes the idempotency key from the Idempotency-Key header too, and treats a keyless double click as one inquiry', async () => {
    const headers = { ...from(), 'Idempotency-Key': key() };
    const { idempotencyKey: _unused, ...keyless } = body({ message: 'Por cabecera' });
    const [a, b] = await Promise.all([post(server, keyless, headers), post(server, keyless, headers)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json.id).toBe(b.json.id);
    const client = from();
    const twice = await Promise.all([
      post(server, { ...keyless, message: 'Doble clic sin clave' }, client),
      post(server, { ...keyless, message: 'Doble clic sin clave' }, client),
    ]);
    expect(twice[0].json.id).toBe(twice[1].json.id);
    const other = await post(server, { ...keyless, message: 'Una consulta distinta' }, client);
    expect(other.json.id).not.toBe(twice[0].json.id);
  });

  if (ownsDatabase) {
    it('answers 503 while its database is down and stores again when it is back', async () => {
      await server.postgres?.pause();
      const down = await post(server, body(), from());
      expect(down.status).toBe(503);
      expect(down.json).toMatchObject({ error: 'unavailable' });
      await server.postgres?.resume();
      await until(async () => (await post(server, body(), from())).status === 200, 20000);
    });
  }
});

describe('send-property-inquiry over PostgreSQL', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer('postgres-pausable', {
      trustProxy: { hops: 1 },
      inquiry: { rateLimit: { max: 1000, windowSeconds: 60 } },
      mail: {
        smtpUrl: smtp.url,
        intervalMs: 100,
        from: 'no-reply@expecuador.example',
        siteUrl: 'https://expecuador.example',
        baseDelaySeconds: 0.2,
        maxDelaySeconds: 1,
      },
    });
  });
  afterAll(() => stopAll(server, smtp));
  const target = () => serverTarget(server);

  it('claims nothing while the database is down (503), and works when it is back', async () => {
    await pausable(server).pause();
    const down = await post(target(), body());
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ error: 'unavailable' });
    await pausable(server).resume();
    await until(async () => (await post(target(), body())).status === 200, 20000);
  });

  it('turns 500 inquiries from 50 concurrent clients into exactly 500 rows and 500 e-mails', async () => {
    const [{ n: rowsBefore }] = (await server.sql<{ n: number }>(
      'select count(*)::int as n from public.inquiries',
    )) as [{ n: number }];
    const mailsBefore = smtp.mails.length;
    const ids = new Set<string>();
    await Promise.all(
      Array.from({ length: 50 }, async (_, c) => {
        for (let i = 0; i < 10; i++) {
          const payload = body({ name: `Client ${c}`, message: `Inquiry ${c}-${i}` });
          const r = await post(target(), payload, clientHeaders(`192.168.${c}.1`));
          // a client that retries after a lost answer reuses its key
          if (i % 3 === 0) await post(target(), payload, clientHeaders(`192.168.${c}.1`));
          expect(r.status).toBe(200);
          ids.add(String(r.json.id));
        }
      }),
    );
    expect(ids.size).toBe(500);
    const [{ n: rowsAfter }] = (await server.sql<{ n: number }>('select count(*)::int as n from public.inquiries')) as [
      { n: number },
    ];
    expect(rowsAfter - rowsBefore).toBe(500);
    // two workers drain at once, as two server processes would
    const ours = () => smtp.mails.slice(mailsBefore).filter((m) => ids.has(m.inquiryId));
    await until(async () => {
      await Promise.all([server.drainOutbox(), server.drainOutbox()]);
      return ours().length >= 500;
    }, 60000);
    await Promise.all([server.drainOutbox(), server.drainOutbox()]);
    const mails = ours();
    expect(mails).toHaveLength(500);
    expect(new Set(mails.map((m) => m.inquiryId)).size).toBe(500);
    expect([...ids].every((id) => mails.some((m) => m.inquiryId === id))).toBe(true);
  }, 120_000);
});
