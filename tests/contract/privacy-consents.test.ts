/**
 * Her consents (docs/privacy.md, "Consents"), through the inquiry and privacy functions as any
 * client calls them, over PostgreSQL (the server and the visitors' calls: tests/support/privacy.ts):
 * a box that is not one refused; each box she ticked kept in the words she read, under the notice's
 * version, with the page; the CRM hears them with the lead (verified with `standardwebhooks`), each
 * with the link that withdraws it, a mail client's one-click POST; her monthly home report a consent
 * of its own, withdrawn on her data's page and unsubscribed; another visitor's session never
 * withdraws hers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE } from '../../core/protocol/privacy.ts';
import { usePrivacySuite } from '../support/privacy.ts';

describe("her data on request: a link mailed to her address, what we keep, its correction and its erasure (Ecuador's LOPDP)", () => {
  const { suite, call, sendInquiry, inquire, delivered, openData } = usePrivacySuite();

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
    expect(await suite.server.sql('select id from internal.consents where inquiry_id = $1::uuid', [plain])).toEqual([]);
    // two boxes ticked on a partner's page: each kept in the words she read, under the notice's version
    const page = 'https://socio.example/casas/cumbaya';
    const lead = await inquire(CARLA, 'Con casillas', {
      consents: ['other_agents', 'marketing'],
      source: { page, element: 'exp-inquiry-form', utm: {} },
    });
    expect(
      await suite.server.sql(
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
    const at = `${suite.server.url}${link.pathname}${link.search}`;
    // the link's page: what she agreed to, and a button; opening it (a mail scanner) withdraws nothing
    const shown = await fetch(at);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain(es.marketing);
    expect(html).toContain('value="withdraw"');
    const state = () =>
      suite.server.sql<{ purpose: string; via: string | null }>(
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
    expect((await fetch(`${suite.server.url}/es/privacidad/consentimiento?token=${'y'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${suite.server.url}/privacy/consent?token=%3Cscript%3E`)).status).toBe(404);

    // her monthly home report is a consent of its own, kept with its subscription
    const report = await fetch(`${suite.server.url}/functions/v1/saved-searches`, {
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
    const [homeConsent] = await suite.server.sql<{ id: string; text: string; search: string }>(
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
      await suite.server.sql('select status from internal.saved_searches where id = $1::bigint', [homeConsent!.search]),
    ).toEqual([{ status: 'unsubscribed' }]);
    // another visitor's session never withdraws hers
    const OSCAR = { name: 'Óscar Otro', email: 'oscar.otro@example.com', phone: '' };
    await inquire(OSCAR, 'Hola', { consents: ['marketing'] });
    const others = await openData(OSCAR.email);
    const [mine] = await suite.server.sql<{ id: string }>(
      "select id::text as id from internal.consents where purpose = 'other_agents' and email = $1",
      [CARLA.email],
    );
    expect((await call({ action: 'withdraw', session: others.session, consent: mine!.id })).status).toBe(400);
    expect(
      await suite.server.sql('select withdrawn_at from internal.consents where id = $1::bigint', [mine!.id]),
    ).toEqual([{ withdrawn_at: null }]);
  }, 120_000);
});
