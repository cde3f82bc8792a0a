/**
 * What a saved search's alerts say and to whom (docs/decisions.md #23), end to end through a real
 * SMTP server (tests/support/alerts.ts): the request, the confirmation mail (the only mail an
 * unconfirmed address gets), the link's page, then the alerts that match and none that do not: a
 * place and a price, an area drawn on the map and the search's words, rentals, new developments, a
 * daily digest, price drops and a long list cut at twelve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePolygon } from '../../core/protocol/polygon.ts';
import { listingPath } from '../../core/routes.ts';
import { address, alertsOn, place, searchesDue, startAlertsServer, to, tokenIn } from '../support/alerts.ts';
import { SITE, TEAM } from '../support/deliveries.ts';
import type { TestServer } from '../support/servers.ts';
import type { TestSmtp } from '../support/smtp.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

describe('what the alerts mail, on our server with a real SMTP server', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  beforeAll(async () => ({ server, smtp } = await startAlertsServer()));
  afterAll(() => stopAll(server, smtp));
  const { subscribe, open, linkIn, listing, confirmed, alertsRun, newAlertsAfterRun, mailedAfterRun } = alertsOn(
    () => server,
    () => smtp,
  );

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
    expect(
      (await server.sql<{ status: string }>('select status from internal.saved_searches where email = $1', [email]))[0]
        ?.status,
    ).toBe('pending');
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
    for (const absent of ['Too cheap', 'Elsewhere', 'While unconfirmed', 'Listed before the request'])
      expect(alert.text).not.toContain(absent);
    expect(before).toBeTruthy();
    // one-click unsubscribe (RFC 8058) and the manage link
    expect(alert.raw['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(alert.raw['list-unsubscribe']).toMatch(
      /^<https:\/\/expecuador\.example\/alerts\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/,
    );
    expect(alert.text).toMatch(/\/alerts\/manage\?token=[A-Za-z0-9_-]{43}/);
    // the tokens are kept hashed: no token of the mail is in the database
    const stored = await server.sql<{ token_hash: string }>('select token_hash from internal.saved_search_tokens');
    expect(
      stored.some((t) => alert.text.includes(t.token_hash) || t.token_hash === tokenIn(alert, '/alerts/manage')),
    ).toBe(false);

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
    for (const absent of ['Casa en venta nueva', 'Arriendo caro', 'Arriendo anterior'])
      expect(alert.text).not.toContain(absent);
    // its "see all" link is the rent search
    const all = /https:\/\/expecuador\.example\/es\/search-properties\?[^\s"]+/.exec(alert.text)?.[0] ?? '';
    expect(new URL(all.replace(/&amp;/g, '&')).searchParams.get('operation')).toBe('rent');
  });

  it('follows new developments: a new project in the place is mailed from its price, linking to its page; a sale there is not', async () => {
    const email = address('buyer-off-plan');
    const city = place();
    await listing({ city, title: 'Casa anterior' });
    const confirm = await confirmed(email, { lang: 'es', filters: { city, operation: 'project', deliveryBy: 2030 } });
    // said as projects (docs/projects.md "In the search"), not as properties
    expect(confirm.text).toContain(`Proyectos nuevos en ${city} · con entrega hasta 2030`);
    expect(confirm.text).toContain('Nos pediste que te enviemos por correo los proyectos nuevos de esta búsqueda:');
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
    const alert = await mailedAfterRun(email, (m) => m.subject.includes('proyecto nuevo'));
    expect(alert.subject).toBe(`1 proyecto nuevo: Proyectos nuevos en ${city} · con entrega hasta 2030`);
    // in words that agree with a project: "Nuevo", not "Nueva"
    expect(alert.text).toContain('Nuevo: Torre Nueva Prueba');
    expect(alert.text).toContain('Desde $98,000');
    expect(alert.text).toMatch(/https:\/\/expecuador\.example\/es\/proyectos\/torre-[a-z0-9]+/);
    for (const absent of ['Casa en venta nueva', 'Casa anterior']) expect(alert.text).not.toContain(absent);
    // a unit of it for sale is a sale as any: mailed to a search for sale there, naming its project
    const buyer = address('buyer-of-a-unit');
    await confirmed(buyer, { lang: 'es', filters: { city } });
    const unit = await listing({ city, title: 'Departamento 804 · Tipo A' });
    await server.sql(
      'update internal.listings set unit_type_id = (select id from internal.project_unit_types where project_id = $1) where id = $2',
      [p?.id, unit],
    );
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
    await searchesDue(server, email);
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
});
