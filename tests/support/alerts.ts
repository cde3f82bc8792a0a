/**
 * Saved searches with e-mail alerts (docs/decisions.md #23) on our server, for the suites of
 * tests/contract/alerts-*.test.ts: the server they run on, with a real SMTP server, and what a
 * visitor and a mail client do there: ask for an alert, open a mail's link, confirm; listings made
 * in places no seeded listing is in, so that each test decides what matches; the alert job's runs.
 */
import { expect } from 'vitest';
import { FROM, SITE, TEAM } from './deliveries.ts';
import { clientHeaders, startTestServer, type TestServer } from './servers.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from './smtp.ts';
import { until } from './until.ts';

let seq = 0;
/** A place no seeded listing is in, so each test decides what matches. */
export const place = () => `Pueblo Prueba ${Date.now().toString(36)}${++seq}`;
export const address = (name: string) => `${name}-${Date.now().toString(36)}${++seq}@example.org`;

/** The time of every search of this address has come: its next run a second ago, by the servers' clock. */
export const searchesDue = (server: Pick<TestServer, 'sql'>, email: string) =>
  server.sql("update internal.saved_searches set next_run_at = internal.now() - interval '1 second' where email = $1", [
    email,
  ]);

export const to = (smtp: TestSmtp, email: string) => smtp.mails.filter((m) => m.envelopeTo.includes(email));
/** The token of a link to `path` in a mail (its text part). */
export const tokenIn = (mail: ReceivedMail, path: string) =>
  new RegExp(`${path.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];

/**
 * A real SMTP server, and our server behind one proxy mailing through it at once and soon again
 * after a failure, its alert job run by the test.
 */
export async function startAlertsServer(): Promise<{ server: TestServer; smtp: TestSmtp }> {
  const smtp = await startSmtp();
  try {
    const server = await startTestServer('postgres', {
      trustProxy: { hops: 1 },
      mail: {
        smtpUrl: smtp.url,
        intervalMs: 200,
        probeMs: 200,
        from: FROM,
        siteUrl: SITE,
        baseDelaySeconds: 0.2,
        maxDelaySeconds: 1,
      },
      alerts: { intervalSeconds: 0, settleSeconds: 0, teamInbox: TEAM },
    });
    return { server, smtp };
  } catch (error) {
    await smtp.stop();
    throw error;
  }
}

/** What a visitor, a mail client and the alert job do on the suite's server and SMTP server (read when a test runs). */
export function alertsOn(serverOf: () => TestServer, smtpOf: () => TestSmtp) {
  let ip = 0;

  async function subscribe(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await fetch(`${serverOf().url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders(`10.1.0.${++ip}`), ...headers },
      body: JSON.stringify({ action: 'subscribe', frequency: 'instant', lang: 'en', ...body }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  /** The page of a mail's link on our server (the mail names the public SITE_URL). */
  async function open(
    link: string,
    method: 'GET' | 'POST' = 'GET',
    body?: string,
    contentType = 'application/x-www-form-urlencoded',
  ) {
    const res = await fetch(
      link.replace(SITE, () => serverOf().url),
      { method, body, headers: body ? { 'Content-Type': contentType } : {}, redirect: 'manual' },
    );
    return { status: res.status, html: await res.text(), headers: res.headers };
  }

  const linkIn = (mail: ReceivedMail, path: string) => `${SITE}${path}?token=${tokenIn(mail, path)}`;

  async function listing(values: {
    city: string;
    price?: number;
    title?: string;
    beds?: number;
    type?: string;
    status?: string;
    at?: [string, string];
    operation?: 'sale' | 'rent';
  }): Promise<string> {
    const [row] = await serverOf().sql<{ id: string }>(
      "insert into internal.listings (title, price, city, bedrooms, bathrooms, square_feet, property_type, status, country_code, geo_lat, geo_lon, images, operation) values ($1, $2, $3, $4, 2, 120, $5, $6, 'EC', $7, $8, '[\"/media/listings/house-1.svg\"]'::jsonb, $9) returning id::text as id",
      [
        values.title ?? `Casa en ${values.city}`,
        values.price ?? 150000,
        values.city,
        values.beds ?? 3,
        values.type ?? 'house',
        values.status ?? '1',
        values.at?.[0] ?? '-0.2',
        values.at?.[1] ?? '-78.5',
        values.operation ?? 'sale',
      ],
    );
    return (row as { id: string }).id;
  }

  /** Asks for an alert and confirms it through the mail's link; the mails of that address so far. */
  async function confirmed(email: string, body: Record<string, unknown>): Promise<ReceivedMail> {
    expect((await subscribe({ email, ...body })).status).toBe(200);
    const mail = await until(() => to(smtpOf(), email)[0]);
    const page = await open(linkIn(mail, body.lang === 'es' ? '/es/alerts/confirm' : '/alerts/confirm'), 'POST', '');
    expect(page.status).toBe(200);
    return mail;
  }

  const alertsRun = () => serverOf().runAlerts();
  /** the alert job runs and its mails are sent: the "new properties" alerts this address has had */
  const newAlertsAfterRun = async (email: string) => {
    await alertsRun();
    await serverOf().drainOutbox();
    return to(smtpOf(), email).filter((m) => m.subject.includes('new propert'));
  };
  /** the alert job runs: the first mail to this address that `match` picks, once it arrives */
  const mailedAfterRun = async (email: string, match: (mail: ReceivedMail) => boolean) => {
    await alertsRun();
    return until(() => to(smtpOf(), email).find(match));
  };
  return { subscribe, open, linkIn, listing, confirmed, alertsRun, newAlertsAfterRun, mailedAfterRun };
}
