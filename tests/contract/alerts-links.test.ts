/**
 * A saved search's links and the abuse it must withstand (docs/decisions.md #23), end to end
 * through a real SMTP server (tests/support/alerts.ts): one-click unsubscribe (RFC 8058), a queued
 * mail included; bad, expired, used and misplaced links; managing an alert from its link; an
 * address that never confirmed is mailed nothing its sender wrote, and few confirmations; one
 * request made twice is one saved search; what it keeps is validated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, alertsOn, place, startAlertsServer, to, tokenIn } from '../support/alerts.ts';
import { SITE } from '../support/deliveries.ts';
import { clientHeaders, type TestServer } from '../support/servers.ts';
import type { TestSmtp } from '../support/smtp.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

describe("an alert's links and its abuse, on our server with a real SMTP server", () => {
  let server: TestServer;
  let smtp: TestSmtp;
  beforeAll(async () => ({ server, smtp } = await startAlertsServer()));
  afterAll(() => stopAll(server, smtp));
  const { subscribe, open, linkIn, listing, confirmed, alertsRun, mailedAfterRun } = alertsOn(
    () => server,
    () => smtp,
  );

  it('one-click unsubscribe stops every mail at once, a queued one included; a second click says so', async () => {
    const email = address('elena');
    const city = place();
    await confirmed(email, { email, filters: { city } });
    await listing({ city, title: 'First alert' });
    const first = await mailedAfterRun(email, (m) => m.subject.includes('new property'));
    const url = String(first.raw['list-unsubscribe']).slice(1, -1);
    const statuses = async () =>
      (
        await server.sql<{ status: string }>(
          "select status from internal.mail_outbox where kind = 'alert' and recipient = $1 order by id",
          [email],
        )
      ).map((r) => r.status);
    // the first is done with (SMTP's answer recorded) before SMTP goes away
    await until(async () => (await statuses()).join() === 'sent');
    // an alert queued while SMTP is away, then the one-click POST of the mail client
    await smtp.stop();
    await listing({ city, title: 'Queued before unsubscribing' });
    await alertsRun();
    const oneClick = await open(url, 'POST', 'List-Unsubscribe=One-Click');
    expect(oneClick.status).toBe(200);
    expect(oneClick.html).toContain('You are unsubscribed');
    expect(
      (await server.sql<{ status: string }>('select status from internal.saved_searches where email = $1', [email]))[0]
        ?.status,
    ).toBe('unsubscribed');
    // the queued alert is dropped at its next turn, SMTP still away. An attempt under way at the
    // click (composed before it, waiting for SMTP) fails first: a mail is composed when it is sent,
    // and one composed before the click may still be handed over (docs/decisions.md #23, "Mails")
    await until(async () => (await statuses()).join() === 'sent,dropped');
    await smtp.start();
    await listing({ city, title: 'After unsubscribing' });
    await alertsRun();
    await until(
      async () =>
        Number(
          (
            await server.sql<{ n: string }>(
              "select count(*) as n from internal.mail_outbox where kind = 'alert' and recipient = $1 and status in ('pending', 'sending')",
              [email],
            )
          )[0]?.n,
        ) === 0,
    );
    await server.drainOutbox();
    expect(to(smtp, email).filter((m) => m.subject.includes('new property'))).toHaveLength(1);
    expect(await statuses()).toEqual(['sent', 'dropped']);
    // the multipart form of RFC 8058 and a second click: clear, never an error
    const again = await open(
      url,
      'POST',
      '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
      'multipart/form-data; boundary=x',
    );
    expect(again.status).toBe(200);
    expect(again.html).toContain('You were already unsubscribed');
  });

  it('answers bad, expired, used and misplaced links with a clear page', async () => {
    const text = (html: string) => html.replace(/<[^>]+>/g, ' ');
    for (const bad of ['nonsense', 'A'.repeat(43), '', "'><script>alert(1)</script>"]) {
      for (const path of ['/alerts/confirm', '/alerts/manage', '/alerts/unsubscribe']) {
        const page = await open(`${SITE}${path}?token=${encodeURIComponent(bad)}`);
        expect(page.status, `${path} ${bad}`).toBe(404);
        expect(text(page.html)).toContain('This link is not valid');
        expect(page.html).not.toContain('<script>alert(1)');
        expect(page.html).not.toMatch(/Error:|at \w+ \(/);
      }
    }
    // expired: an unconfirmed request past its 48 hours
    const late = address('fede');
    await subscribe({ email: late, filters: { city: place() } });
    const confirmMail = await until(() => to(smtp, late)[0]);
    await server.sql(
      "update internal.saved_searches set expires_at = internal.now() - interval '1 minute' where email = $1",
      [late],
    );
    const expired = await open(linkIn(confirmMail, '/alerts/confirm'));
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('This link has expired');
    expect((await open(linkIn(confirmMail, '/alerts/confirm'), 'POST', '')).status).toBe(410);
    await alertsRun();
    expect(
      (await server.sql<{ status: string }>('select status from internal.saved_searches where email = $1', [late]))[0]
        ?.status,
    ).toBe('expired');

    // used: a confirmation link opened again
    const used = address('gabi');
    const mail = await confirmed(used, { email: used, filters: { city: place() } });
    const again = await open(linkIn(mail, '/alerts/confirm'), 'POST', '');
    expect(again.status).toBe(200);
    expect(again.html).toContain('This alert is already on');
    // a confirmation token is not a manage or unsubscribe token
    expect((await open(`${SITE}/alerts/manage?token=${tokenIn(mail, '/alerts/confirm')}`)).status).toBe(404);
    expect((await open(`${SITE}/alerts/unsubscribe?token=${tokenIn(mail, '/alerts/confirm')}`)).status).toBe(404);
  });

  it('manages an alert from its link: how often, pause and resume, delete', async () => {
    const email = address('hugo');
    const city = place();
    await confirmed(email, { email, filters: { city }, lang: 'es' });
    await listing({ city, title: 'Primera' });
    const alert = await mailedAfterRun(email, (m) => m.subject.includes('propiedad nueva'));
    expect(alert.subject).toBe(`1 propiedad nueva: Propiedades en ${city}`);
    expect(alert.text).toContain('Darse de baja');
    const manage = `${SITE}/es/alerts/manage?token=${tokenIn(alert, '/es/alerts/manage')}`;
    const page = await open(manage);
    expect(page.status).toBe(200);
    expect(page.html).toContain('lang="es"');
    expect(page.html).toContain('Tu alerta');
    expect((await open(manage, 'POST', 'do=save&frequency=weekly')).html).toContain('Guardado.');
    expect(
      (
        await server.sql<{ frequency: string }>('select frequency from internal.saved_searches where email = $1', [
          email,
        ])
      )[0]?.frequency,
    ).toBe('weekly');
    await open(manage, 'POST', 'do=save&frequency=instant');
    expect((await open(manage, 'POST', 'do=pause')).html).toContain('En pausa');
    await listing({ city, title: 'Mientras en pausa' });
    await alertsRun();
    await open(manage, 'POST', 'do=resume');
    await listing({ city, title: 'Después de reanudar' });
    await alertsRun();
    const next = await until(() => to(smtp, email).filter((m) => m.subject.includes('propiedad nueva'))[1]);
    expect(next.text).toContain('Después de reanudar');
    expect(next.text).not.toContain('Mientras en pausa');
    const deleted = await open(manage, 'POST', 'do=delete');
    expect(deleted.html).toContain('Esta alerta fue eliminada');
    expect((await open(manage)).status).toBe(410);
  });

  it('mails an address that never confirmed nothing its sender wrote, and at most three confirmations a day; one client at most ten a day, whatever addresses it types', async () => {
    const victim = address('victim');
    // a sender's words, a typed city and a made-up place: none reaches a stranger's inbox
    const hostile = {
      keywords: 'visit http://phish.example to claim your prize',
      city: 'Call +1 555 0100 now',
      place: 'claim-prize/now',
      placeName: 'Your account is locked',
    };
    const asked: number[] = [];
    for (let i = 0; i < 6; i++)
      asked.push((await subscribe({ email: victim, filters: { ...hostile, minPrice: 100000 + i * 1000 } })).status);
    // the same answer every time: it tells nobody what the address was sent
    expect(asked).toEqual([200, 200, 200, 200, 200, 200]);
    // every delivery ended (a mail is recorded before SMTP's answer)
    await server.drainOutbox();
    const mails = to(smtp, victim);
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      for (const text of ['phish', 'prize', '555', 'Call', 'claim', 'locked']) {
        expect(mail.text).not.toContain(text);
        expect(mail.html).not.toContain(text);
      }
      expect(mail.text).toMatch(/Properties · from \$10\d,000/);
    }
    // a city and a place of ours are told by their own names
    const known = address('known');
    await subscribe({ email: known, filters: { city: 'CUMBAYA', place: 'quito' } });
    const told = await until(() => to(smtp, known)[0]);
    expect(told.text).toContain('Properties in Quito in Cumbayá');
    // once the address confirmed a search it is its owner's: its words are shown
    const owner = address('owner');
    await confirmed(owner, { filters: { city: place() } });
    await subscribe({ email: owner, filters: { keywords: 'piscina temperada' } });
    const second = await until(() => to(smtp, owner).find((m) => m.text.includes('piscina temperada')));
    expect(second.subject).toBe('Confirm your property alert');
    // one client typing address after address: ten confirmation mails a day, then 429
    const client = { 'X-Forwarded-For': '10.3.9.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await subscribe({ email: address(`spray${i}`), filters: { minPrice: 50000 + i } }, client)).status,
      );
      // within the per-minute limit (5 a minute): the per-minute window moves on
      if (i % 5 === 4)
        await server.sql(
          "update internal.saved_searches set created_at = created_at - interval '2 minutes' where client_hash = (select client_hash from internal.saved_searches order by created_at desc limit 1)",
        );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('makes one saved search of the same request twice, and validates what it keeps', async () => {
    const email = address('ines');
    const city = place();
    const key = `alert-key-${Date.now()}`;
    expect((await subscribe({ email, filters: { city, beds: 2 }, idempotencyKey: key })).status).toBe(200);
    expect((await subscribe({ email, filters: { city, beds: 2 }, idempotencyKey: key })).status).toBe(200);
    expect(
      (await subscribe({ email: email.toUpperCase(), filters: { beds: 2, city: city.toLowerCase() } })).status,
    ).toBe(200);
    await server.drainOutbox();
    expect(
      Number(
        (
          await server.sql<{ n: string }>('select count(*) as n from internal.saved_searches where email_key = $1', [
            email.toLowerCase(),
          ])
        )[0]?.n,
      ),
    ).toBe(1);
    expect(to(smtp, email)).toHaveLength(1);

    const bad = await subscribe({
      email: 'not an address',
      frequency: 'hourly',
      lang: 'fr',
      filters: { minPrice: -5, bbox: [1, 2, 0, 3], city: 'x\ny' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({
      email: 'invalid',
      frequency: 'invalid',
      lang: 'invalid',
      'filters.minPrice': 'invalid',
      'filters.bbox': 'invalid',
      'filters.city': 'invalid',
    });
    expect((await subscribe({ frequency: 'daily' })).json.fields).toEqual({ email: 'required' });
    // an Idempotency-Key header that is not a key is refused, as the inquiry refuses it (one rule: core/functions/request-key.ts)
    const badKey = await subscribe({ email: address('key') }, { 'Idempotency-Key': 'short' });
    expect(badKey.status).toBe(400);
    expect(badKey.json.fields).toEqual({ idempotencyKey: 'invalid' });
    // a header key makes a repeat one request
    const headerKey = { 'Idempotency-Key': `alert-header-${Date.now()}` };
    const once = address('once');
    expect((await subscribe({ email: once, filters: { city } }, headerKey)).status).toBe(200);
    expect((await subscribe({ email: once, filters: { city, beds: 5 } }, headerKey)).status).toBe(200);
    expect(
      Number(
        (
          await server.sql<{ n: string }>('select count(*) as n from internal.saved_searches where email_key = $1', [
            once.toLowerCase(),
          ])
        )[0]?.n,
      ),
    ).toBe(1);
    // a bot that fills the honeypot is told "ok" and never mailed
    const bot = address('bot');
    expect((await subscribe({ email: bot, website: 'http://spam.example' })).json).toEqual({ ok: true });
    await server.drainOutbox();
    expect(to(smtp, bot)).toHaveLength(0);
    // five a minute per client
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await subscribe({ email: address('rate') }, clientHeaders('10.9.9.9'))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
