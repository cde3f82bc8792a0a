/**
 * Alerts' leads follow their owner (docs/leads.md), on our server through a real SMTP server and a
 * webhook receiver (tests/support/deliveries.ts): the agent a saved search names, not the team, is
 * told of its confirmation, with where it came from; the CRM hears of the confirmation and of the
 * unsubscription (signed webhooks); a forged owner is refused.
 */
import { describe, expect, it } from 'vitest';
import { issueToken } from '../../core/functions/alerts/tokens.ts';
import { TEAM, useDeliveries } from '../support/deliveries.ts';
import { key, PAGE_ORIGIN, until } from '../support/leads.ts';
import { clientHeaders } from '../support/servers.ts';

describe('leads: alerts follow the owner (our server)', () => {
  const d = useDeliveries(['alert.confirmed', 'alert.unsubscribed'], { alerts: { teamInbox: TEAM } });
  let client = 0;

  const subscribe = (over: Record<string, unknown>) =>
    fetch(`${d.server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: PAGE_ORIGIN,
        ...clientHeaders(`10.8.0.${++client % 250}`),
      },
      body: JSON.stringify({
        action: 'subscribe',
        email: 'comprador@example.com',
        filters: { city: 'Quito' },
        frequency: 'daily',
        lang: 'es',
        idempotencyKey: key(),
        website: '',
        ...over,
      }),
    });

  it('tells the owner (not the team) of a confirmed alert, with where it came from; the CRM hears of the confirmation and the unsubscription; a forged owner is refused', async () => {
    const [owner] = (await d.server.sql<{ id: string; email: string }>(
      "select id::text as id, email from public.agents where country_code = 'EC' and email is not null order by id desc limit 1",
    )) as [{ id: string; email: string }];
    expect((await subscribe({ leadAgentId: 'agent@example.com' })).status).toBe(400);
    expect(await (await subscribe({ leadAgentId: '99999999' })).json()).toMatchObject({
      fields: { leadAgentId: 'invalid' },
    });
    const res = await subscribe({
      leadAgentId: owner.id,
      source: { page: `${PAGE_ORIGIN}/buscar`, element: 'exp-property-search', utm: { utm_campaign: 'alertas' } },
    });
    expect(res.status).toBe(200);
    await d.server.drainOutbox();
    await until(() => d.smtp.mails.some((m) => m.to.includes('comprador@example.com')));
    const confirmMail = d.smtp.mails.find((m) =>
      m.to.includes('comprador@example.com'),
    ) as (typeof d.smtp.mails)[number];
    const token = /alerts\/confirm\?token=([\w-]+)/.exec(confirmMail.text)?.[1];
    expect(token).toBeDefined();
    const confirmed = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'confirm', token }),
    });
    expect(confirmed.status).toBe(200);
    await d.server.drainOutbox();
    await until(() =>
      d.smtp.mails.some((m) => m.envelopeTo.map((a) => a.toLowerCase()).includes(owner.email.toLowerCase())),
    );
    const notice = d.smtp.mails.find((m) =>
      m.envelopeTo.map((a) => a.toLowerCase()).includes(owner.email.toLowerCase()),
    );
    expect(notice?.text).toContain(`Sitio / Site: ${PAGE_ORIGIN}`);
    expect(notice?.text).toContain('Campaña / Campaign: alertas');
    expect(d.smtp.mails.some((m) => m.envelopeTo.includes('equipo@expecuador.example'))).toBe(false);
    const event = await d.event((body) => body.includes('"alert.confirmed"'));
    expect(d.hooks.deliveries).toHaveLength(1);
    expect(event).toMatchObject({
      type: 'alert.confirmed',
      data: {
        email: 'comprador@example.com',
        frequency: 'daily',
        status: 'active',
        lead_agent_id: owner.id,
        attribution: {
          origin: PAGE_ORIGIN,
          page: `${PAGE_ORIGIN}/buscar`,
          element: 'exp-property-search',
          utm: { utm_campaign: 'alertas' },
        },
      },
    });

    // unsubscribing (the link an alert mail carries)
    const [search] = await d.server.sql<{ id: string }>(
      "select id::text as id from internal.saved_searches where email = 'comprador@example.com' and status = 'active'",
    );
    const unsubscribeToken = await issueToken(
      { query: (text, params) => d.server.sql(text, params ? [...params] : []) },
      String(search?.id),
      'unsubscribe',
      null,
    );
    const gone = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'unsubscribe', token: unsubscribeToken }),
    });
    expect(gone.status).toBe(200);
    await d.server.drainOutbox();
    const left = await d.event((body) => body.includes('"alert.unsubscribed"'));
    expect(d.hooks.deliveries).toHaveLength(2);
    expect(left).toMatchObject({
      type: 'alert.unsubscribed',
      data: { id: search?.id, email: 'comprador@example.com', status: 'unsubscribed', lead_agent_id: owner.id },
    });
  });
});
