/**
 * Saved searches with e-mail alerts (docs/decisions.md #23), end to end through a real SMTP server:
 * the request, the confirmation mail (the only mail an unconfirmed address gets), the link's page,
 * the alerts (instant, daily), price drops, one-click unsubscribe (RFC 8058), managing, bad,
 * expired and used links, idempotency, two runs at once, an SMTP outage; on our server over
 * PostgreSQL, and the deployed function under Deno.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePolygon } from '../../core/protocol/polygon.ts';
import { runAlerts } from '../../core/functions/alerts/run.ts';
import type { TransactionalSql } from '../../core/functions/sql.ts';
import { listingPath } from '../../core/routes.ts';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate, seedIfEmpty } from '../../server/db/setup.ts';
import { startDenoFunction, type DenoFunction } from '../support/deno-function.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { clientHeaders, startTestServer, type TestServer } from '../support/servers.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

const SITE = 'https://expecuador.example';
const FROM = '"eXp Realty Ecuador" <no-reply@expecuador.example>';
const TEAM = 'equipo@expecuador.example';

let seq = 0;
/** A place no seeded listing is in, so each test decides what matches. */
const place = () => `Pueblo Prueba ${Date.now().toString(36)}${++seq}`;
const address = (name: string) => `${name}-${Date.now().toString(36)}${++seq}@example.org`;

const to = (smtp: TestSmtp, email: string) => smtp.mails.filter((m) => m.envelopeTo.includes(email));
/** The token of a link to `path` in a mail (its text part). */
const tokenIn = (mail: ReceivedMail, path: string) => new RegExp(`${path.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];

describe('saved searches and alerts on our server, with a real SMTP server', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let ip = 0;

  async function subscribe(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders(`10.1.0.${++ip}`), ...headers },
      body: JSON.stringify({ action: 'subscribe', frequency: 'instant', lang: 'en', ...body }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  /** The page of a mail's link on our server (the mail names the public SITE_URL). */
  async function open(link: string, method: 'GET' | 'POST' = 'GET', body?: string, contentType = 'application/x-www-form-urlencoded') {
    const res = await fetch(
      link.replace(SITE, () => server.url),
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
    const [row] = await server.sql<{ id: string }>(
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
    const mail = await until(() => to(smtp, email)[0]);
    const page = await open(linkIn(mail, body.lang === 'es' ? '/es/alerts/confirm' : '/alerts/confirm'), 'POST', '');
    expect(page.status).toBe(200);
    return mail;
  }

  const alertsRun = () => server.runAlerts();
  /** the alert job runs and its mails are sent: the "new properties" alerts this address has had */
  const newAlertsAfterRun = async (email: string) => {
    await alertsRun();
    await server.drainOutbox();
    return to(smtp, email).filter((m) => m.subject.includes('new propert'));
  };
  /** the alert job runs: the first mail to this address that `match` picks, once it arrives */
  const mailedAfterRun = async (email: string, match: (mail: ReceivedMail) => boolean) => {
    await alertsRun();
    return until(() => to(smtp, email).find(match));
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer('postgres', {
      trustProxy: { hops: 1 },
      mail: { smtpUrl: smtp.url, intervalMs: 200, probeMs: 200, from: FROM, siteUrl: SITE, baseDelaySeconds: 0.2, maxDelaySeconds: 1 },
      alerts: { intervalSeconds: 0, settleSeconds: 0, teamInbox: TEAM },
    });
  });
  afterAll(() => stopAll(server, smtp));

  it('asks for confirmation, mails nothing else until confirmed, then exactly one alert with the new matching listing', async () => {
    const email = address('ana');
    const city = place();
    const before = await listing({ city, title: 'Listed before the request' });
    const answer = await subscribe({ email, filters: { city, minPrice: 100000, propertyType: 'house' } });
    expect(answer).toEqual({ status: 200, json: { ok: true } });
    const confirm = await until(() => to(smtp, email)[0]);
    expect(confirm.subject).toBe('Confirm your property alert');
    // (the city is told: a listing is in it, it is a place of ours, not only the sender's words)
    expect(confirm.text).toContain(`House in ${city} · from $100,000`);
    expect(confirm.text).toContain('As they come');
    expect(confirm.html).toContain(`${SITE}/alerts/confirm?token=`);
    // unconfirmed: a matching listing comes, a run passes, nothing is mailed
    await listing({ city, title: 'While unconfirmed' });
    await alertsRun();
    await server.drainOutbox();
    expect(to(smtp, email)).toHaveLength(1);

    // the link's page shows what was asked and a button; the GET confirms nothing (mail scanners open links)
    const link = linkIn(confirm, '/alerts/confirm');
    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Confirm my alert');
    expect(page.html).toMatch(/<form\b[^>]*\bmethod="post"/);
    expect(page.html).toContain('noindex');
    expect((await server.sql<{ status: string }>('select status from internal.saved_searches where email = $1', [email]))[0]?.status).toBe('pending');
    const done = await open(link, 'POST', '');
    expect(done.status).toBe(200);
    expect(done.html).toContain('Your alert is on');
    expect(done.headers.get('cache-control')).toBe('no-store');
    // the team hears of the new lead, once
    const lead = await until(() => to(smtp, TEAM).find((m) => m.text.includes(email)));
    expect(lead.subject).toContain('Nueva alerta confirmada / New confirmed alert');
    expect(lead.replyTo).toContain(email);

    const fresh = await listing({ city, title: 'Brand new on the market', price: 240000 });
    await listing({ city, title: 'Too cheap', price: 50000 });
    await listing({ city: place(), title: 'Elsewhere' });
    const alert = await mailedAfterRun(email, (m) => m.subject.includes('new property'));
    expect(alert.subject).toBe(`1 new property: House in ${city} · from $100,000`);
    expect(alert.text).toContain('Brand new on the market');
    expect(alert.text).toContain('$240,000');
    expect(alert.html).toContain(`${SITE}${listingPath(fresh, 'Brand new on the market', 'en')}`);
    for (const absent of ['Too cheap', 'Elsewhere', 'While unconfirmed', 'Listed before the request']) expect(alert.text).not.toContain(absent);
    expect(before).toBeTruthy();
    // one-click unsubscribe (RFC 8058) and the manage link
    expect(alert.raw['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(alert.raw['list-unsubscribe']).toMatch(/^<https:\/\/expecuador\.example\/alerts\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/);
    expect(alert.text).toMatch(/\/alerts\/manage\?token=[A-Za-z0-9_-]{43}/);
    // the tokens are kept hashed: no token of the mail is in the database
    const stored = await server.sql<{ token_hash: string }>('select token_hash from internal.saved_search_tokens');
    expect(stored.some((t) => alert.text.includes(t.token_hash) || t.token_hash === tokenIn(alert, '/alerts/manage'))).toBe(false);

    // nothing new: nothing sent
    expect(await newAlertsAfterRun(email)).toHaveLength(1);
  });

  it('follows an area drawn on the map and the words of the search: a new listing inside with the words is mailed, one outside or without them is not', async () => {
    const email = address('lasso');
    const city = place();
    // a square of about 2 km around (-78.5, -0.2), drawn as the map sends it
    const polygon = [
      [-78.51, -0.21],
      [-78.49, -0.21],
      [-78.49, -0.19],
      [-78.51, -0.19],
    ];
    const confirm = await confirmed(email, { filters: { city, polygon, keywords: 'piscina' } });
    // to an address that never confirmed: nothing the sender wrote (no listing is in this city yet, and words are words)
    expect(confirm.text).toContain('Properties in the area drawn on the map');
    expect(confirm.text).not.toContain(city);
    expect(confirm.text).not.toContain('piscina');
    await listing({ city, title: 'Casa con piscina dentro de la zona', at: ['-0.2', '-78.5'] });
    await listing({ city, title: 'Casa con piscina fuera de la zona', at: ['-0.2', '-78.45'] });
    await listing({ city, title: 'Casa sin agua dentro de la zona', at: ['-0.195', '-78.505'] });
    const alert = await mailedAfterRun(email, (m) => m.subject.includes('new property'));
    expect(alert.text).toContain('Casa con piscina dentro de la zona');
    for (const absent of ['fuera de la zona', 'sin agua']) expect(alert.text).not.toContain(absent);
    // its "see all" link is the same search on the search page: the area and the words
    const all = /https:\/\/expecuador\.example\/search-properties\?[^\s"]+/.exec(alert.text)?.[0] ?? '';
    const query = new URL(all.replace(/&amp;/g, '&')).searchParams;
    expect(query.get('keywords')).toBe('piscina');
    expect(decodePolygon(query.get('polygon'))).toEqual(polygon);
    // a broken area is refused before it is kept
    expect(
      (
        await subscribe({
          email: address('broken'),
          filters: {
            polygon: [
              [0, 0],
              [1, 1],
            ],
          },
        })
      ).json,
    ).toMatchObject({ fields: { 'filters.polygon': 'invalid' } });
  });

  it('follows a rent search: a new rental is mailed at its price a month, a new sale of the same place is not', async () => {
    const email = address('renter');
    const city = place();
    // a listing of the place first, so the confirmation may name it
    await listing({ city, title: 'Arriendo anterior', operation: 'rent', price: 700 });
    const confirm = await confirmed(email, { lang: 'es', filters: { city, operation: 'rent', maxPrice: 1200 } });
    expect(confirm.text).toContain(`Propiedades en arriendo en ${city} · hasta $1,200`);
    await listing({ city, title: 'Departamento en arriendo nuevo', operation: 'rent', price: 850 });
    await listing({ city, title: 'Casa en venta nueva', operation: 'sale', price: 900 });
    await listing({ city, title: 'Arriendo caro', operation: 'rent', price: 2500 });
    const alert = await mailedAfterRun(email, (m) => /propiedad nueva|propiedades nuevas/.test(m.subject));
    expect(alert.text).toContain('Departamento en arriendo nuevo');
    expect(alert.text).toContain('$850/mes');
    for (const absent of ['Casa en venta nueva', 'Arriendo caro', 'Arriendo anterior']) expect(alert.text).not.toContain(absent);
    // its "see all" link is the rent search
    const all = /https:\/\/expecuador\.example\/es\/search-properties\?[^\s"]+/.exec(alert.text)?.[0] ?? '';
    expect(new URL(all.replace(/&amp;/g, '&')).searchParams.get('operation')).toBe('rent');
  });

  it('follows new developments: a new project in the place is mailed from its price, linking to its page; a sale there is not', async () => {
    const email = address('buyer-off-plan');
    const city = place();
    await listing({ city, title: 'Casa anterior' });
    const confirm = await confirmed(email, { lang: 'es', filters: { city, operation: 'project', deliveryBy: 2030 } });
    expect(confirm.text).toContain(`Propiedades en proyectos nuevos en ${city} · con entrega hasta 2030`);
    const [p] = await server.sql<{ id: string }>(
      `insert into internal.projects (slug, name, city, stage, delivery, geo_lat, geo_lon, source_key)
       values ($1, 'Torre Nueva Prueba', $2, 'pre_sale', date '2028-03-01', -0.2, -78.5, $1) returning id::text as id`,
      [`torre-${Date.now().toString(36)}`, city],
    );
    await server.sql(
      "insert into internal.project_unit_types (project_id, position, property_type, bedrooms, area_min, area_max, price_min, price_max, units_available) values ($1, 0, 'apartment', 2, 70, 95, 98000, 131000, 12)",
      [p?.id],
    );
    await listing({ city, title: 'Casa en venta nueva' });
    const alert = await mailedAfterRun(email, (m) => /propiedad nueva|propiedades nuevas/.test(m.subject));
    expect(alert.text).toContain('Torre Nueva Prueba');
    expect(alert.text).toContain('Desde $98,000');
    expect(alert.text).toMatch(/https:\/\/expecuador\.example\/es\/proyectos\/torre-[a-z0-9]+/);
    for (const absent of ['Casa en venta nueva', 'Casa anterior']) expect(alert.text).not.toContain(absent);
    // a unit of it for sale is a sale as any: mailed to a search for sale there, naming its project
    const buyer = address('buyer-of-a-unit');
    await confirmed(buyer, { lang: 'es', filters: { city } });
    const unit = await listing({ city, title: 'Departamento 804 · Tipo A' });
    await server.sql('update internal.listings set unit_type_id = (select id from internal.project_unit_types where project_id = $1) where id = $2', [
      p?.id,
      unit,
    ]);
    const unitAlert = await mailedAfterRun(buyer, (m) => /propiedad nueva|propiedades nuevas/.test(m.subject));
    expect(unitAlert.text).toMatch(/Departamento 804 · Tipo A\n\$[\d,]+ · [^\n]+ · Obra nueva · Torre Nueva Prueba · /);
  });

  it('sends a daily search one digest when its day comes, with everything since the last one', async () => {
    const email = address('diego');
    const city = place();
    await confirmed(email, { email, filters: { city }, frequency: 'daily' });
    await listing({ city, title: 'Morning listing' });
    await listing({ city, title: 'Evening listing' });
    expect(await newAlertsAfterRun(email)).toHaveLength(0);
    // a day later
    await server.sql("update internal.saved_searches set next_run_at = internal.now() - interval '1 second' where email = $1", [email]);
    const digest = await mailedAfterRun(email, (m) => m.subject.includes('new propert'));
    expect(digest.subject).toBe(`2 new properties: Properties in ${city}`);
    expect(digest.text).toContain('Morning listing');
    expect(digest.text).toContain('Evening listing');
    const [next] = await server.sql<{ due_in_hours: number }>(
      'select extract(epoch from next_run_at - internal.now()) / 3600 as due_in_hours from internal.saved_searches where email = $1',
      [email],
    );
    expect(Number(next?.due_in_hours)).toBeGreaterThan(23);
    expect(await newAlertsAfterRun(email)).toHaveLength(1);
  });

  it('lists a price drop as a drop (was and now), not a rise, and at most 12 listings with a link to see all', async () => {
    const email = address('carla');
    const city = place();
    const old = await listing({ city, title: 'Going down', price: 300000 });
    const rising = await listing({ city, title: 'Going up', price: 300000 });
    await confirmed(email, { email, filters: { city } });
    await server.sql('update internal.listings set price = 255000 where id = $1', [old]);
    await server.sql('update internal.listings set price = 350000 where id = $1', [rising]);
    const drop = await mailedAfterRun(email, (m) => m.subject.includes('price drop'));
    expect(drop.subject).toBe(`1 price drop: Properties in ${city}`);
    expect(drop.text).toContain('Price drop: Going down');
    expect(drop.text).toContain('$255,000 (was $300,000)');
    expect(drop.html).toContain('text-decoration:line-through">was $300,000');
    expect(drop.text).not.toContain('Going up');

    for (let i = 0; i < 14; i++) await listing({ city, title: `Batch ${i}` });
    const many = await mailedAfterRun(email, (m) => m.subject.startsWith('14 new'));
    expect(many.text.match(/^New: Batch/gm)).toHaveLength(12);
    expect(many.text).toMatch(/See all 14 on the site: https:\/\/expecuador\.example\/search-properties\?city=Pueblo/);
  });

  it('one-click unsubscribe stops every mail at once, a queued one included; a second click says so', async () => {
    const email = address('elena');
    const city = place();
    await confirmed(email, { email, filters: { city } });
    await listing({ city, title: 'First alert' });
    const first = await mailedAfterRun(email, (m) => m.subject.includes('new property'));
    const url = String(first.raw['list-unsubscribe']).slice(1, -1);
    // an alert queued while SMTP is away, then the one-click POST of the mail client
    await smtp.stop();
    await listing({ city, title: 'Queued before unsubscribing' });
    await alertsRun();
    const oneClick = await open(url, 'POST', 'List-Unsubscribe=One-Click');
    expect(oneClick.status).toBe(200);
    expect(oneClick.html).toContain('You are unsubscribed');
    expect((await server.sql<{ status: string }>('select status from internal.saved_searches where email = $1', [email]))[0]?.status).toBe('unsubscribed');
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
    expect(
      (await server.sql<{ status: string }>("select status from internal.mail_outbox where kind = 'alert' and recipient = $1 order by id", [email])).map(
        (r) => r.status,
      ),
    ).toEqual(['sent', 'dropped']);
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
    await server.sql("update internal.saved_searches set expires_at = internal.now() - interval '1 minute' where email = $1", [late]);
    const expired = await open(linkIn(confirmMail, '/alerts/confirm'));
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('This link has expired');
    expect((await open(linkIn(confirmMail, '/alerts/confirm'), 'POST', '')).status).toBe(410);
    await alertsRun();
    expect((await server.sql<{ status: string }>('select status from internal.saved_searches where email = $1', [late]))[0]?.status).toBe('expired');

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
    expect((await server.sql<{ frequency: string }>('select frequency from internal.saved_searches where email = $1', [email]))[0]?.frequency).toBe('weekly');
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
    for (let i = 0; i < 6; i++) asked.push((await subscribe({ email: victim, filters: { ...hostile, minPrice: 100000 + i * 1000 } })).status);
    // the same answer every time: it tells nobody what the address was sent
    expect(asked).toEqual([200, 200, 200, 200, 200, 200]);
    await server.drainOutbox();
    await new Promise((r) => setTimeout(r, 500));
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
      statuses.push((await subscribe({ email: address(`spray${i}`), filters: { minPrice: 50000 + i } }, client)).status);
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
    expect((await subscribe({ email: email.toUpperCase(), filters: { beds: 2, city: city.toLowerCase() } })).status).toBe(200);
    await server.drainOutbox();
    expect(
      Number((await server.sql<{ n: string }>('select count(*) as n from internal.saved_searches where email_key = $1', [email.toLowerCase()]))[0]?.n),
    ).toBe(1);
    expect(to(smtp, email)).toHaveLength(1);

    const bad = await subscribe({ email: 'not an address', frequency: 'hourly', lang: 'fr', filters: { minPrice: -5, bbox: [1, 2, 0, 3], city: 'x\ny' } });
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
      Number((await server.sql<{ n: string }>('select count(*) as n from internal.saved_searches where email_key = $1', [once.toLowerCase()]))[0]?.n),
    ).toBe(1);
    // a bot that fills the honeypot is told "ok" and never mailed
    const bot = address('bot');
    expect((await subscribe({ email: bot, website: 'http://spam.example' })).json).toEqual({ ok: true });
    await server.drainOutbox();
    expect(to(smtp, bot)).toHaveLength(0);
    // five a minute per client
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await subscribe({ email: address('rate') }, clientHeaders('10.9.9.9'))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('loses nothing while SMTP is down: the alerts go out once it is back, each once', async () => {
    const emails = [address('jose'), address('karen')];
    const city = place();
    for (const email of emails) await confirmed(email, { email, filters: { city } });
    await smtp.stop();
    await listing({ city, title: 'During the outage' });
    await alertsRun();
    await new Promise((r) => setTimeout(r, 600));
    await smtp.start();
    for (const email of emails) await until(() => to(smtp, email).find((m) => m.subject.includes('new property')), 20000);
    await new Promise((r) => setTimeout(r, 800));
    await server.drainOutbox();
    for (const email of emails) expect(to(smtp, email).filter((m) => m.subject.includes('new property'))).toHaveLength(1);
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
    await server.sql("insert into internal.listings (title, price, city, status, country_code) values ('Twice-run listing', 99000, $1, '1', 'EC')", [city]);
    const sql: TransactionalSql = { query: (t, p) => server.db.admin.query(t, p), transaction: (fn) => server.db.transaction((tx) => fn(tx)) };
    const [a, b] = await Promise.all([runAlerts(sql, { settleSeconds: 0, batch: 25 }), runAlerts(sql, { settleSeconds: 0, batch: 25 })]);
    expect(a.alerts + b.alerts).toBe(300);
    expect(a.alerts).toBeGreaterThan(0);
    expect(b.alerts).toBeGreaterThan(0);
    const [alerts] = await server.sql<{ n: string; searches: string }>(
      "select count(*)::int as n, count(distinct search_id)::int as searches from internal.search_alerts a join internal.saved_searches s on s.id = a.search_id where s.email like 'twice%'",
    );
    expect(alerts).toEqual({ n: 300, searches: 300 });
    await until(async () => smtp.mails.filter((m) => m.subject.includes('new property') && m.envelopeTo[0]?.startsWith('twice')).length === 300, 60000);
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
    const res = await fetch(fn.url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
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
    expect(await call({ action: 'subscribe', email, filters: { city }, frequency: 'instant', lang: 'es' })).toEqual({ status: 200, json: { ok: true } });
    const confirm = await until(() => to(smtp, email)[0], 30000);
    expect(confirm.subject).toBe('Confirma tu alerta de propiedades');
    const token = tokenIn(confirm, '/es/alerts/confirm');
    expect((await call({ action: 'view', token })).json).toMatchObject({ ok: true, purpose: 'confirm', search: { status: 'pending', frequency: 'instant' } });
    expect((await call({ action: 'confirm', token })).json).toMatchObject({ ok: true, search: { status: 'active' } });
    await until(() => to(smtp, TEAM).find((m) => m.text.includes(email)), 30000);
    await db.admin.query("insert into internal.listings (title, price, city, status, country_code) values ('Nueva en Deno', 123000, $1, '1', 'EC')", [city]);
    const run = await fetch(fn.url, { method: 'POST', headers: { 'x-alerts-run': 'test-alerts' } });
    expect(await run.json()).toMatchObject({ alerts: 1 });
    const alert = await until(() => to(smtp, email).find((m) => m.subject.includes('propiedad nueva')), 30000);
    expect(alert.text).toContain('Nueva en Deno');
    expect(alert.raw['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = tokenIn(alert, '/es/alerts/unsubscribe');
    expect((await call({ action: 'unsubscribe', token: unsubscribe })).json).toMatchObject({ ok: true, search: { status: 'unsubscribed' } });
    expect((await call({ action: 'unsubscribe', token: unsubscribe })).json).toMatchObject({ ok: true, already: true });
    expect((await call({ action: 'confirm', token: 'B'.repeat(43) })).status).toBe(404);
    // a wrong secret runs nothing
    expect((await fetch(fn.url, { method: 'POST', headers: { 'x-alerts-run': 'wrong' } })).status).toBe(400);
  }, 120_000);
});
