/**
 * Alerts delivered whatever happens (docs/decisions.md #23), through a real SMTP server
 * (tests/support/alerts.ts): an SMTP outage loses nothing and sends each alert once; two runs of
 * the alert job at once share the searches, never a window, on PostgreSQL; and the deployed
 * saved-searches function under Deno confirms by the link, runs the alert job on its scheduled
 * call and unsubscribes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAlerts } from '../../core/functions/alerts/run.ts';
import type { TransactionalSql } from '../../core/functions/sql.ts';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate, seedIfEmpty } from '../../server/db/setup.ts';
import { address, alertsOn, place, startAlertsServer, to, tokenIn } from '../support/alerts.ts';
import { FROM, SITE, TEAM } from '../support/deliveries.ts';
import { startDenoFunction, type DenoFunction } from '../support/deno-function.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

describe('alerts through an SMTP outage, on our server', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  beforeAll(async () => ({ server, smtp } = await startAlertsServer()));
  afterAll(() => stopAll(server, smtp));
  const { listing, confirmed, alertsRun } = alertsOn(
    () => server,
    () => smtp,
  );

  it('loses nothing while SMTP is down: the alerts go out once it is back, each once', async () => {
    const emails = [address('jose'), address('karen')];
    const city = place();
    for (const email of emails) await confirmed(email, { email, filters: { city } });
    await smtp.stop();
    await listing({ city, title: 'During the outage' });
    await alertsRun();
    // each alert tried and failed while SMTP was away (not merely not yet tried)
    await until(
      async () =>
        (
          await server.sql<{ n: number }>(
            "select count(*)::int as n from internal.mail_outbox where recipient = any ($1) and attempts > 0 and transient_failure and status = 'pending'",
            [emails],
          )
        )[0]?.n === emails.length,
      20_000,
      'both alerts failed once while SMTP was away',
    );
    await smtp.start();
    for (const email of emails)
      await until(() => to(smtp, email).find((m) => m.subject.includes('new property')), 20000);
    // every delivery ended (a mail is recorded before SMTP's answer): a second copy would be here
    await server.drainOutbox();
    for (const email of emails)
      expect(to(smtp, email).filter((m) => m.subject.includes('new property'))).toHaveLength(1);
  });
});

describe('two alert runs at once (PostgreSQL)', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer('postgres', {
      mail: { smtpUrl: smtp.url, intervalMs: 200, from: FROM, siteUrl: SITE },
      alerts: { intervalSeconds: 0, settleSeconds: 0 },
    });
  }, 180_000);
  afterAll(() => stopAll(server, smtp));

  it('send each alert once: the runs share the searches, never a window', async () => {
    const city = place();
    await server.sql(
      `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, confirmed_at, sent_through, next_run_at, idempotency_key, client_hash)
       select 'twice' || g || '@example.org', 'twice' || g || '@example.org', jsonb_build_object('city', $1::text), 'k' || g, 'instant', 'en', 'active', internal.now(), internal.now(), internal.now() - interval '1 minute', internal.now() - interval '1 minute', 'twice-' || g, 'c'
         from generate_series(1, 300) g`,
      [city],
    );
    await server.sql(
      "insert into internal.listings (title, price, city, status, country_code) values ('Twice-run listing', 99000, $1, '1', 'EC')",
      [city],
    );
    const sql: TransactionalSql = {
      query: (t, p) => server.db.admin.query(t, p),
      transaction: (fn) => server.db.transaction((tx) => fn(tx)),
    };
    const [a, b] = await Promise.all([
      runAlerts(sql, { settleSeconds: 0, batch: 25 }),
      runAlerts(sql, { settleSeconds: 0, batch: 25 }),
    ]);
    expect(a.alerts + b.alerts).toBe(300);
    expect(a.alerts).toBeGreaterThan(0);
    expect(b.alerts).toBeGreaterThan(0);
    const [alerts] = await server.sql<{ n: string; searches: string }>(
      "select count(*)::int as n, count(distinct search_id)::int as searches from internal.search_alerts a join internal.saved_searches s on s.id = a.search_id where s.email like 'twice%'",
    );
    expect(alerts).toEqual({ n: 300, searches: 300 });
    await until(
      async () =>
        smtp.mails.filter((m) => m.subject.includes('new property') && m.envelopeTo[0]?.startsWith('twice')).length ===
        300,
      60000,
    );
    await server.drainOutbox();
    const received = smtp.mails.filter((m) => m.envelopeTo[0]?.startsWith('twice')).map((m) => m.envelopeTo[0]);
    expect(new Set(received).size).toBe(300);
    expect(received).toHaveLength(300);
  }, 120_000);
});

describe('the deployed saved-searches function (Deno, PostgreSQL)', () => {
  let postgres: PostgresServer;
  let db: Database;
  let fn: DenoFunction;
  let smtp: TestSmtp;
  const call = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await fetch(fn.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    postgres = await startPostgres();
    db = await openPostgres(postgres.url);
    await migrate(db);
    await seedIfEmpty(db, 200);
    fn = await startDenoFunction(
      {
        SUPABASE_DB_URL: postgres.url,
        SMTP_URL: smtp.url,
        SITE_URL: SITE,
        SMTP_FROM: FROM,
        TEAM_INBOX: TEAM,
        ALERTS_RUN_SECRET: 'test-alerts',
        ALERTS_SETTLE: '0',
      },
      'saved-searches',
    );
  }, 240_000);
  afterAll(() => stopAll(fn, db, postgres, smtp));

  it('confirms by the link, runs the alert job on its scheduled call, and unsubscribes', async () => {
    const email = address('luz');
    const city = place();
    expect(await call({ action: 'subscribe', email, filters: { city }, frequency: 'instant', lang: 'es' })).toEqual({
      status: 200,
      json: { ok: true },
    });
    const confirm = await until(() => to(smtp, email)[0], 30000);
    expect(confirm.subject).toBe('Confirma tu alerta de propiedades');
    const token = tokenIn(confirm, '/es/alerts/confirm');
    expect((await call({ action: 'view', token })).json).toMatchObject({
      ok: true,
      purpose: 'confirm',
      search: { status: 'pending', frequency: 'instant' },
    });
    expect((await call({ action: 'confirm', token })).json).toMatchObject({ ok: true, search: { status: 'active' } });
    await until(() => to(smtp, TEAM).find((m) => m.text.includes(email)), 30000);
    await db.admin.query(
      "insert into internal.listings (title, price, city, status, country_code) values ('Nueva en Deno', 123000, $1, '1', 'EC')",
      [city],
    );
    const run = await fetch(fn.url, { method: 'POST', headers: { 'x-alerts-run': 'test-alerts' } });
    expect(await run.json()).toMatchObject({ alerts: 1 });
    const alert = await until(() => to(smtp, email).find((m) => m.subject.includes('propiedad nueva')), 30000);
    expect(alert.text).toContain('Nueva en Deno');
    expect(alert.raw['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = tokenIn(alert, '/es/alerts/unsubscribe');
    expect((await call({ action: 'unsubscribe', token: unsubscribe })).json).toMatchObject({
      ok: true,
      search: { status: 'unsubscribed' },
    });
    expect((await call({ action: 'unsubscribe', token: unsubscribe })).json).toMatchObject({ ok: true, already: true });
    expect((await call({ action: 'confirm', token: 'B'.repeat(43) })).status).toBe(404);
    // a wrong secret runs nothing
    expect((await fetch(fn.url, { method: 'POST', headers: { 'x-alerts-run': 'wrong' } })).status).toBe(400);
  }, 120_000);
});
