/**
 * A seller's request (docs/valuation.md), on our server over PostgreSQL with a real SMTP server and
 * a webhook receiver (tests/support/valuation.ts): the seller's lead reaching the agent who serves
 * Cumbayá with the estimate in the mail, the seller's own mail, the `seller.lead.created` webhook
 * verified with the `standardwebhooks` package; one mailbox acknowledged three times a day; no
 * estimate made for a request refused or kept without answering; and the monthly home report, once
 * a month, after a double opt-in.
 */
import { describe, expect, it } from 'vitest';
import { formatPrice } from '../../core/protocol/format.ts';
import { parseEstimate } from '../../core/protocol/valuation.ts';
import { SITE, TEAM, useDeliveries } from '../support/deliveries.ts';
import { inquiryBody } from '../support/inquiry.ts';
import { clientHeaders } from '../support/servers.ts';
import { searchesDue } from '../support/alerts.ts';
import { until } from '../support/until.ts';
import { CUMBAYA, valuationOn } from '../support/valuation.ts';

describe('what a home may ask (docs/valuation.md)', () => {
  const d = useDeliveries(['seller.lead.created'], {
    mail: { probeMs: 200 },
    alerts: { teamInbox: TEAM },
    inquiry: { teamInbox: TEAM },
  });
  const { estimate, post } = valuationOn(d);

  it("sends the seller's lead to the agent who serves Cumbayá with the estimate, tells the seller, and the CRM's webhook verifies; nothing twice, bad facts refused", async () => {
    const email = `vendedor-${Date.now()}@example.org`;
    const e = parseEstimate((await estimate(CUMBAYA)).data);
    const [area] = await d.server.sql<{ id: string; email: string }>(
      'select a.id::text as id, a.email from public.agents a where a.id = internal.area_agent($1)',
      [e.place?.path],
    );
    const served = await d.server.sql<{ loc: string[] }>(
      'select locations_served as loc from public.agents where id = $1',
      [area?.id],
    );
    expect(served[0]?.loc.join(' ')).toMatch(/Cumbayá/);
    const body = inquiryBody({
      name: 'Lucía Vendedora',
      email,
      phone: '+593 99 123 4567',
      message: 'Casa con jardín',
      seller: { facts: CUMBAYA, timeline: 'months3', alsoBuying: true },
      idempotencyKey: `seller-${Date.now()}`,
      lang: 'es',
      source: { page: 'https://agente.example/vender', element: 'exp-home-valuation', utm: {} },
    });
    for (let i = 0; i < 2; i++) expect((await post('send-property-inquiry', body)).status).toBe(200);
    const [row] = await d.server.sql<{ n: number; kind: string; to: string }>(
      'select count(*)::int as n, max(recipient_kind) as kind, max(recipient_email) as to from public.inquiries where email = $1',
      [email],
    );
    expect(row).toEqual({ n: 1, kind: 'area_agent', to: area?.email });
    await d.server.drainOutbox();
    const agentMail = await until(() =>
      d.mailsTo(area!.email).find((m) => m.subject.startsWith('Nuevo vendedor / New seller')),
    );
    expect(agentMail.text).toContain(formatPrice(e.value));
    expect(agentMail.text).toContain('Lucía Vendedora');
    expect(agentMail.text).toContain('En los próximos 3 meses');
    for (const c of e.comparables.slice(0, 3)) expect(agentMail.html).toContain(`${SITE}/es/properties/${c.id}-`);
    const ack = await until(() => d.mailsTo(email)[0]);
    expect(ack.subject).toContain('Tu solicitud de valoración');
    expect(ack.text).toContain(formatPrice(e.value));
    expect(ack.text).not.toContain('Casa con jardín');
    const event = await d.event((body) => body.includes(email));
    expect(event.type).toBe('seller.lead.created');
    expect(event.data).toMatchObject({
      timeline: 'months3',
      also_buying: true,
      home: CUMBAYA,
      recipient: { kind: 'area_agent', email: area?.email },
      estimate: { value: e.value },
    });
    // an agent's own site: the lead is theirs
    const [owner] = await d.server.sql<{ id: string; email: string }>(
      "select id::text as id, email from public.agents where country_code = 'EC' and email is not null and id <> $1 order by id desc limit 1",
      [area?.id],
    );
    expect(
      (
        await post('send-property-inquiry', {
          ...body,
          idempotencyKey: `seller-owned-${Date.now()}`,
          leadAgentId: owner?.id,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await d.server.sql<{ kind: string }>(
          'select recipient_kind as kind from public.inquiries where email = $1 and lead_agent_id is not null',
          [email],
        )
      )[0]?.kind,
    ).toBe('lead_agent');
    // bad facts, a missing phone: refused by name, nothing stored
    const bad = await post('send-property-inquiry', {
      ...body,
      idempotencyKey: `seller-bad-${Date.now()}`,
      seller: { ...body.seller, facts: { ...CUMBAYA, area_m2: 0 } },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string> }).fields).toEqual({
      'seller.facts.area_m2': 'invalid',
    });
    const nophone = await post('send-property-inquiry', {
      ...body,
      phone: '',
      idempotencyKey: `seller-nophone-${Date.now()}`,
    });
    expect(((await nophone.json()) as { fields: Record<string, string> }).fields).toEqual({ phone: 'required' });
    expect(
      (
        await d.server.sql<{ n: number }>('select count(*)::int as n from public.inquiries where email = $1', [email])
      )[0]?.n,
    ).toBe(2);
  });

  it("acknowledges a seller's request to one mailbox three times a day however the address is written (case, a +tag), refuses the fourth and mails nothing for it; a mailbox that confirmed an alert gets more", async () => {
    const box = `buzon-${Date.now().toString(36)}`;
    const ask = (address: string, n: number) =>
      post(
        'send-property-inquiry',
        inquiryBody({
          name: 'Vendedora Insistente',
          email: address,
          phone: '+593 99 000 0000',
          message: '',
          seller: { facts: CUMBAYA, timeline: 'now', alsoBuying: false },
          idempotencyKey: `${box}-${n}`,
          lang: 'es',
        }),
      );
    const written = [`${box}@example.org`, `${box.toUpperCase()}+valoracion@Example.org`, ` ${box}+2@example.org `];
    for (const [i, address] of written.entries()) expect((await ask(address, i)).status, address).toBe(200);
    const fourth = await ask(`${box}+otra@example.org`, 3);
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as { fields: Record<string, string> }).fields).toEqual({ email: 'limited' });
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    await d.server.drainOutbox();
    const acks = () =>
      d.smtp.mails.filter((m) =>
        m.envelopeTo.some((a) => a.toLowerCase().replace(/\+[^@]*@/, '@') === `${box}@example.org`),
      );
    await until(() => acks().length >= 3);
    expect(
      (
        await d.server.sql<{ n: number }>(
          "select count(*)::int as n from public.inquiries where lower(email) like $1 || '%'",
          [box],
        )
      )[0]?.n,
    ).toBe(3);
    // the mailbox proves it is its owner's: it confirmed an alert
    await d.server.sql(
      `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, created_at, confirmed_at, expires_at, idempotency_key, client_hash)
       values ($1, $1, '{"place":"cumbaya"}', $1, 'daily', 'es', 'active', internal.now(), internal.now(), internal.now() + interval '1 day', $1, 'proven')`,
      [`${box}@example.org`],
    );
    expect((await ask(`${box}+otra@example.org`, 4)).status).toBe(200);
    await d.server.drainOutbox();
    expect(acks().length).toBeLessThanOrEqual(4);
  });

  it('makes no estimate for a request it refuses or keeps without answering: a retry, a client over its limit, a bot (the estimate runs after those)', async () => {
    const body = (n: number, extra: Record<string, unknown> = {}) =>
      inquiryBody({
        name: 'Lucía',
        email: `cuenta-${n}-${Date.now()}@example.org`,
        phone: '+593 99 000 0001',
        message: '',
        seller: { facts: CUMBAYA, timeline: 'now', alsoBuying: false },
        idempotencyKey: `estimate-order-${Date.now()}-${n}`,
        lang: 'es',
        ...extra,
      });
    const same = clientHeaders('10.44.9.9');
    const send = (b: Record<string, unknown>, headers = same) =>
      fetch(`${d.server.url}/functions/v1/send-property-inquiry`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(b),
      });
    const first = body(0);
    const stored = await send(first);
    expect(stored.status).toBe(200);
    const { id } = (await stored.json()) as { id: string };
    // the client uses its five a minute
    for (let i = 1; i < 5; i++) expect((await send(body(i))).status).toBe(200);
    // with the estimate gone, any call of it would fail the request (503): none is made
    await d.server.sql('alter function public.estimate_value(jsonb) rename to estimate_value_away');
    try {
      const retry = await send(first);
      expect(retry.status).toBe(200);
      expect(((await retry.json()) as { id: string }).id).toBe(id);
      expect((await send(body(6))).status).toBe(429);
      expect((await send(body(7, { website: 'http://spam.example' }), clientHeaders('10.44.9.10'))).status).toBe(200);
      const follow = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...clientHeaders('10.44.9.11') },
        body: JSON.stringify({
          action: 'subscribe',
          email: `bot-${Date.now()}@example.org`,
          home: CUMBAYA,
          lang: 'es',
          website: 'http://spam.example',
        }),
      });
      expect(follow.status).toBe(200);
    } finally {
      await d.server.sql('alter function public.estimate_value_away(jsonb) rename to estimate_value');
    }
  });

  it('mails the home report once a month to a seller who confirmed it, with the estimate made again', async () => {
    const email = `informe-${Date.now()}@example.org`;
    expect((await post('saved-searches', { action: 'subscribe', email, home: CUMBAYA, lang: 'en' })).status).toBe(200);
    expect(
      (await post('saved-searches', { action: 'subscribe', email, home: { ...CUMBAYA, area_m2: 0 }, lang: 'en' }))
        .status,
    ).toBe(400);
    await d.server.drainOutbox();
    const confirm = await until(() => d.mailsTo(email)[0]);
    expect(confirm.text).toMatch(/The monthly estimate of your home in /);
    const token = /alerts\/confirm\?token=([\w-]{43})/.exec(confirm.text)?.[1];
    // due already, but unconfirmed: nothing
    await searchesDue(d.server, email);
    await d.server.runAlerts();
    await d.server.drainOutbox();
    expect(d.mailsTo(email)).toHaveLength(1);
    expect((await post('saved-searches', { action: 'confirm', token })).status).toBe(200);
    const [row] = await d.server.sql<{ frequency: string; next: string }>(
      'select frequency, next_run_at::text as next from internal.saved_searches where email = $1',
      [email],
    );
    expect(row?.frequency).toBe('monthly');
    expect(new Date(String(row?.next)).getUTCDate()).toBe(1);
    await searchesDue(d.server, email);
    await d.server.runAlerts();
    await d.server.runAlerts();
    await d.server.drainOutbox();
    const report = await until(() => d.mailsTo(email).find((m) => m.subject.includes('what your home may ask')));
    const value = parseEstimate((await estimate(CUMBAYA)).data).value;
    expect(report.text).toContain(formatPrice(value));
    expect(report.raw['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(d.mailsTo(email).filter((m) => m.subject.includes('what your home may ask'))).toHaveLength(1);
  });
});
