/**
 * Following a market (docs/market.md) by e-mail, through a real SMTP server
 * (tests/support/deliveries.ts): double opt-in, the monthly report's mail with the figure the rule
 * gives (written again in tests/support/market-rule.ts), one-click unsubscribe; a follow that is
 * not monthly, or of a place without a report, refused; the same follow twice is one.
 */
import { formatCount, formatPrice } from '../../core/protocol/format.ts';
import { ecuadorMonth } from '../../core/protocol/calendar.ts';
import { now as clockNow } from '../../core/clock.ts';
import { describe, expect, it } from 'vitest';
import { SITE, TEAM, useDeliveries } from '../support/deliveries.ts';
import { useMarketRule } from '../support/market-rule.ts';
import { type ReceivedMail } from '../support/smtp.ts';
import { searchesDue } from '../support/alerts.ts';
import { until } from '../support/until.ts';

describe('the market index (docs/market.md): following a market by e-mail', () => {
  const d = useDeliveries([], { mail: { probeMs: 200 }, alerts: { teamInbox: TEAM } });
  const { ours } = useMarketRule(d);

  const linkIn = (mail: ReceivedMail, path: string) => {
    const token = new RegExp(`${path.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];
    expect(token, path).toBeTruthy();
    return `${d.server.url}${path}?token=${token}`;
  };
  const subscribe = async (body: Record<string, unknown>) => {
    const res = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'subscribe', ...body }),
    });
    return { status: res.status, json: (await res.json()) as { fields?: Record<string, string> } };
  };
  const follow = async (email: string) =>
    (
      await d.server.sql<{ id: string; status: string; next_run_at: string }>(
        'select id::text as id, status, next_run_at::text as next_run_at from internal.saved_searches where email = $1',
        [email],
      )
    )[0];
  /** the month of its report, the Ecuadorian calendar's last closed one */
  const reported = async () =>
    String(
      (
        await d.server.sql<{ m: string }>(
          "select to_char(date_trunc('month', internal.now() at time zone 'America/Guayaquil') - interval '1 month', 'YYYY-MM-DD') as m",
        )
      )[0]?.m,
    );

  it('double opt-in, then early each month one mail with the figure the rule gives, the count it stands on and the way to the report; one-click unsubscribe stops it', async () => {
    const [big] = await d.server.sql<{ city: string; name: string }>(
      "select i.path as city, i.name from internal.market_index i where i.kind = 'city' and i.type_group = 'all' group by 1, 2 order by max(i.listings) desc limit 1",
    );
    const place = String(big?.city);
    const email = `seller-${Date.now().toString(36)}@example.org`;
    expect(await subscribe({ email, market: { place, typeGroup: 'all' }, lang: 'es' })).toEqual({
      status: 200,
      json: { ok: true },
    });
    const confirm = await until(() => d.mailsTo(email)[0]);
    expect(confirm.text).toContain(`El informe de mercado de ${big?.name}`);
    expect(confirm.text).toContain('Una vez al mes');
    // nothing but the confirmation before it is confirmed, even when its time comes
    await searchesDue(d.server, email);
    await d.server.runAlerts();
    await d.server.drainOutbox();
    expect(d.mailsTo(email)).toHaveLength(1);

    const page = await fetch(linkIn(confirm, '/es/alerts/confirm'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Te enviaremos el informe de este mercado a inicios de cada mes.');
    expect(html).toContain(`href="/es/market/${place}"`);
    // its first report: the 1st of next month, 08:00 in Ecuador (13:00 UTC)
    const row = await follow(email);
    expect(row?.status).toBe('active');
    expect(new Date(String(row?.next_run_at)).toISOString()).toBe(`${ecuadorMonth(clockNow(), -1)}T13:00:00.000Z`);
    // not due yet: a run mails nothing (the team's lead notice aside)
    await d.server.runAlerts();
    await d.server.drainOutbox();
    expect(d.mailsTo(email)).toHaveLength(1);

    // its month comes
    await searchesDue(d.server, email);
    expect((await d.server.runAlerts()).alerts).toBeGreaterThanOrEqual(1);
    const report = await until(() => d.mailsTo(email)[1]);
    const month = await reported();
    const mine = await ours(place, 'all', month);
    // the month as the browser's own calendar names it in Spanish (core/protocol/month.ts takes the locale files')
    const named = new Intl.DateTimeFormat('es-EC', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${month.slice(0, 7)}-15T00:00:00Z`),
    );
    expect(report.subject).toBe(`El informe de mercado de ${big?.name}, ${named}`);
    expect(report.text).toContain(`${formatPrice(mine.median)}/m²`);
    expect(report.text).toContain(`Anuncios: ${formatCount(mine.listings)}`);
    expect(report.html).toContain(`${SITE}/es/market/${place}`);
    expect(report.raw['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(report.raw['list-unsubscribe']).toMatch(
      /^<https:\/\/expecuador\.example\/es\/alerts\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/,
    );
    // once a month: the next is due next month, and a run now mails nothing more
    expect(new Date(String((await follow(email))?.next_run_at)).getTime()).toBeGreaterThan(clockNow());
    await d.server.runAlerts();
    await d.server.drainOutbox();
    expect(d.mailsTo(email)).toHaveLength(2);

    // a market follow is monthly: its manage link cannot make it daily
    const manageToken = /\/es\/alerts\/manage\?token=([A-Za-z0-9_-]{43})/.exec(report.text)?.[1];
    const change = await fetch(`${d.server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'update', token: manageToken, frequency: 'daily' }),
    });
    expect(change.status).toBe(400);
    const manage = await (await fetch(`${d.server.url}/es/alerts/manage?token=${manageToken}`)).text();
    expect(manage).toContain(`El informe de mercado de ${big?.name}`);
    expect(manage).not.toContain('name="frequency"');

    // one click in the mail client, and no report comes again
    const unsubscribe = String(report.raw['list-unsubscribe'])
      .slice(1, -1)
      .replace(SITE, () => d.server.url);
    expect(
      (
        await fetch(unsubscribe, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        })
      ).status,
    ).toBe(200);
    expect((await follow(email))?.status).toBe('unsubscribed');
    await searchesDue(d.server, email);
    await d.server.runAlerts();
    await d.server.drainOutbox();
    expect(d.mailsTo(email)).toHaveLength(2);
  });

  it('refuses a place without a report, a follow that is not monthly, and a follow with a search in it; the same follow twice is one', async () => {
    const email = `twice-${Date.now().toString(36)}@example.org`;
    expect((await subscribe({ email, market: { place: 'atlantis' } })).json.fields).toEqual({ market: 'invalid' });
    expect((await subscribe({ email, market: { place: '../etc' } })).json.fields).toEqual({ market: 'invalid' });
    expect((await subscribe({ email, market: { place: 'quito', typeGroup: 'castle' } })).json.fields).toEqual({
      'market.typeGroup': 'invalid',
    });
    expect((await subscribe({ email, market: { place: 'quito' }, frequency: 'daily' })).json.fields).toEqual({
      frequency: 'invalid',
    });
    expect((await subscribe({ email, market: { place: 'quito' }, filters: { minPrice: 1 } })).json.fields).toEqual({
      filters: 'invalid',
    });
    expect((await subscribe({ email, frequency: 'monthly' })).json.fields).toEqual({ frequency: 'invalid' });
    // a city with a report of its houses (not every city has one: the edges' test of market-updates.test.ts makes a city of flats)
    const [city] = await d.server.sql<{ path: string }>(
      "select path from internal.market_index where kind = 'city' and type_group = 'house' order by path limit 1",
    );
    for (const key of ['a', 'b'])
      expect(
        (
          await subscribe({
            email,
            market: { place: city?.path, typeGroup: 'house' },
            idempotencyKey: `follow-twice-${key}-${Date.now()}`,
          })
        ).status,
      ).toBe(200);
    expect(await d.server.sql('select 1 from internal.saved_searches where email = $1', [email])).toHaveLength(1);
  });
});
