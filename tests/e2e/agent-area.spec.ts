/**
 * The agents' area as an agent uses it on her phone (docs/agent-area.md), at 390 px: she opens
 * /es/agente, asks for a code with her address, reads it in the mail the server sent, signs in,
 * sees her own new lead (and not the other agent's), moves it to "Contactado" with a note and a
 * follow-up day, and the database holds it, with the trail saying she did. An address that is no
 * agent's gets the same answer and no mail. Axe finds nothing serious; nothing is cut off at 320 px.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect, seriousAxeViolations, test } from './fixtures.ts';
import { until } from '../support/until.ts';

const shots = resolve(import.meta.dirname, '../../.cache/screenshots/agent-area');

async function mails(dir: string): Promise<ParsedMail[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  return Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))));
}
const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to.map((a) => a.text).join(',') : (m.to?.text ?? '')).toLowerCase();

/** She asks for a code with her address, reads it in the mail the server sent, and signs in (the area open in Spanish). */
async function signIn(page: Page, data: { outboxDir: string }, email: string) {
  const area = page.locator('exp-agent-area');
  // (the mails of the worker's earlier tests stay in its outbox: this code is in a mail that comes after)
  const before = new Set(readdirSync(data.outboxDir));
  await area.getByLabel('Correo', { exact: true }).fill(email);
  await area.getByRole('button', { name: 'Envíame un código' }).click();
  const mail = await until(async () => {
    const fresh = readdirSync(data.outboxDir).filter((f) => f.endsWith('.eml') && !before.has(f));
    const parsed = await Promise.all(fresh.map((f) => simpleParser(readFileSync(join(data.outboxDir, f)))));
    return parsed.find((m) => to(m).includes(email));
  });
  const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  await area.getByLabel('El código del correo').fill(code);
  await area.getByRole('button', { name: 'Entrar' }).click();
}

test.describe("the agents' area", () => {
  // the worker's database is shared with the other specs (the directory counts its agents): what this test adds, it takes away
  test.afterEach(async ({ data }) => {
    await data.sql("delete from public.inquiries where idempotency_key like 'e2e-area-%'");
    await data.sql("delete from internal.saved_searches where idempotency_key = 'e2e-area-sub'");
    await data.sql("delete from internal.mail_outbox where ref_id in (select id::text from internal.visit_requests where email = 'vera.visita@example.com')");
    await data.sql("delete from internal.visit_requests where email = 'vera.visita@example.com'");
    // (and the codes mailed, so that the next test's one-a-minute limit is its own)
    await data.sql(
      "delete from internal.auth_codes where lower(email) in ('ana.movil@example.com', 'bruno.otro@example.com', 'nadie.aqui@example.com', 'equipo.movil@example.com')",
    );
    await data.sql("delete from public.agents where email in ('ana.movil@example.com', 'bruno.otro@example.com')");
    await data.sql(
      "delete from auth.users where email in ('ana.movil@example.com', 'bruno.otro@example.com', 'nadie.aqui@example.com', 'equipo.movil@example.com')",
    );
    await data.sql("delete from internal.mail_outbox where kind = 'lead-reassigned' and recipient in ('ana.movil@example.com', 'bruno.otro@example.com')");
  });

  test('an agent signs in with the code from her mail, sees her own lead only, and moves it to contacted with a note', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const [ana, bruno] = await data.sql<{ id: string }>(
      `insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC'), ('Bruno', 'Otro', 'bruno.otro@example.com', 'EC')
       returning id::text as id`,
    );
    const lead = async (key: string, owner: string, name: string) =>
      (
        await data.sql<{ id: string }>(
          `insert into public.inquiries (idempotency_key, name, email, phone, message, property_title, recipient_email, recipient_kind, lead_agent_id, lang, element, page_url)
           values ($1, $2, 'cliente@example.com', '0991234567', '¿Sigue disponible? Quisiera verla el sábado.', 'Casa en Cumbayá', 'x@example.com', 'lead_agent', $3::bigint, 'es', 'exp-property-search', 'https://ana.example.com/')
           returning id::text as id`,
          [key, name, owner],
        )
      )[0]!.id;
    const mine = await lead('e2e-area-ana', ana!.id, 'Carla Compradora');
    // what she consented to besides her request (docs/privacy.md "Consents"): one given, one withdrawn
    await data.sql(
      `insert into internal.consents (purpose, email, inquiry_id, text, lang, notice_version, withdrawn_at, withdrawn_via) values
         ('marketing', 'cliente@example.com', $1::uuid, 'Envíame por correo...', 'es', '1.0', null, null),
         ('other_agents', 'cliente@example.com', $1::uuid, 'Otros agentes...', 'es', '1.0', internal.now(), 'link')`,
      [mine],
    );
    // a seller who asked what their home is worth, with the estimate made then
    await data.sql(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, lang, element, page_url, seller)
       values ('e2e-area-seller', 'Sara Vendedora', 'sara@example.com', 'Quiero vender', 'x@example.com', 'lead_agent', $1::bigint, 'es', 'exp-home-valuation', 'https://www.expecuador.example/sell',
               '{"facts": {"property_type": "house"}, "estimate": {"value": 150000, "low": 135000, "high": 165000}}')`,
      [ana!.id],
    );
    // and a search followed from her website, confirmed
    await data.sql(
      `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, confirmed_at, idempotency_key, client_hash, lead_agent_id, element)
       values ('sigue.busqueda@example.com', 'sigue.busqueda@example.com', '{"city": "Quito", "property_type": "house"}', 'e2e-area', 'daily', 'es', 'active', internal.now() + interval '1 day', internal.now(), 'e2e-area-sub', 'h', $1::bigint, 'exp-property-search')`,
      [ana!.id],
    );
    await lead('e2e-area-bruno', bruno!.id, 'Daniel Desconocido');

    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${data.url}/es/agente`);
    const area = page.locator('exp-agent-area');
    await expect(area.getByRole('heading', { name: 'Agentes: entrar' })).toBeVisible();
    await page.screenshot({ path: join(shots, 'sign-in-1366.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    // an address that is no agent's: the same answer, and no mail
    await area.getByLabel('Correo').fill('nadie.aqui@example.com');
    await area.getByRole('button', { name: 'Envíame un código' }).click();
    await expect(area.getByRole('status').first()).toContainText('Si nadie.aqui@example.com es el correo de un agente');
    await area.getByRole('button', { name: 'Usar otro correo' }).click();
    // hers
    await signIn(page, data, 'ana.movil@example.com');
    expect((await mails(data.outboxDir)).some((m) => to(m).includes('nadie.aqui@example.com'))).toBe(false);
    // her lead, not Bruno's
    await expect(area.getByRole('heading', { name: 'Tus contactos' })).toBeVisible();
    const card = area.getByRole('article', { name: 'Carla Compradora' });
    await expect(card).toBeVisible();
    await expect(area.getByRole('article', { name: 'Daniel Desconocido' })).toHaveCount(0);
    await expect(card.getByText('Sobre Casa en Cumbayá')).toBeVisible();
    await expect(card.locator('[part="consents"]')).toHaveText('Consintió: correos comerciales · contacto de otros agentes (retirado)');
    const followed = area.locator('[part="subscriptions"]');
    await expect(followed.getByRole('heading')).toHaveText('1 suscripción a alertas');
    await expect(followed.getByRole('link', { name: 'sigue.busqueda@example.com' })).toBeVisible();
    await expect(card.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\/593991234567\?text=Hola%20Carla/);
    await page.screenshot({ path: join(shots, 'leads-390.png'), fullPage: true });
    // on a desk: the same list, wider
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: join(shots, 'leads-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });

    // what she sees, as a spreadsheet's file: her lead only, a formula kept as text
    const [download] = await Promise.all([page.waitForEvent('download'), area.getByRole('button', { name: 'Descargar estos contactos (CSV)' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);
    expect(csv).toContain('"Carla Compradora"');
    expect(csv).not.toContain('Daniel Desconocido');
    // only valuations: the seller's, with the estimate
    await area.getByLabel('Sobre').selectOption('valuation');
    await expect(area.locator('[part="count"]')).toHaveText('1 contacto');
    await expect(area.getByRole('article', { name: 'Sara Vendedora' }).locator('[part="estimate"]')).toHaveText(/^Nuestra estimación: \$150[.,]000/);
    await area.getByLabel('Sobre').selectOption('');
    // only what came from her own website
    await area.getByLabel('Desde').selectOption({ label: 'ana.example.com' });
    await expect(area.locator('[part="count"]')).toHaveText('1 contacto');
    await area.getByLabel('Desde').selectOption({ label: 'Cualquier lugar' });

    // moved to contacted, with a note and a follow-up day
    await card.getByRole('button', { name: 'Actualizar: estado, seguimiento, nota' }).click();
    await card.getByLabel('Estado').selectOption('contacted');
    await card.getByLabel('Seguimiento el').fill('2026-06-20');
    await card.getByLabel(/^Nota/).fill('Llamé: visita el sábado a las 10');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await expect(card.getByText('Guardado.')).toBeVisible();
    const [row] = await data.sql<{ status: string; follow_up_on: string; notes: number; by: string | null }>(
      `select i.status, i.follow_up_on::text as follow_up_on, (select count(*)::int from public.lead_notes n where n.lead_id = i.id) as notes,
              (select u.email from public.lead_events e join auth.users u on u.id = e.by_user where e.lead_id = i.id and e.what = 'changed') as by
         from public.inquiries i where i.id = $1`,
      [mine],
    );
    expect(row).toEqual({ status: 'contacted', follow_up_on: '2026-06-20', notes: 1, by: 'ana.movil@example.com' });

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'leads-320.png'), fullPage: true });
    expect(consoleErrors).toEqual([]);
  });
  test('her calendar: she confirms a requested visit on her phone, and her hours, saved in the page, bound the next booking', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const [ana] = await data.sql<{ id: string }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC') returning id::text as id",
    );
    const [listing] = await data.sql<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where is_public and country_code = 'EC' order by id limit 1",
    );
    const open = (
      await data.sql<{ t: string }>(
        "select to_json(t)#>>'{}' as t from internal.open_visit_times($1::bigint, internal.now(), internal.now() + interval '14 days') t",
        [ana!.id],
      )
    ).map((r) => r.t);
    const [lead] = await data.sql<{ id: string }>(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, listing_id, lang)
       values ('e2e-area-visit', 'Vera Visita', 'vera.visita@example.com', 'Quisiera verla', 'ana.movil@example.com', 'lead_agent', $1::bigint, $2::bigint, 'es') returning id::text as id`,
      [ana!.id, listing!.id],
    );
    const [request] = await data.sql<{ id: string }>(
      `insert into internal.visit_requests (inquiry_id, listing_id, agent_id, recipient_email, mode, proposed, name, email, lang)
       values ($1::uuid, $2::bigint, $3::bigint, 'ana.movil@example.com', 'in_person', $4::timestamptz[], 'Vera Visita', 'vera.visita@example.com', 'es') returning id::text as id`,
      [lead!.id, listing!.id, ana!.id, [open[2], open[3]]],
    );

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/agente`);
    await signIn(page, data, 'ana.movil@example.com');
    const area = page.locator('exp-agent-area');
    await area.getByRole('tab', { name: 'Visitas', exact: true }).click();
    await expect(area.getByRole('tab', { name: 'Visitas', exact: true })).toHaveAttribute('aria-selected', 'true');
    // the week of her first proposed time
    const inWeek = async () => (await area.getByRole('article').count()) > 0;
    for (let i = 0; i < 3 && !(await inWeek()); i++) {
      await expect(area.locator('[part~="visits-count"]')).not.toHaveText('Cargando...');
      if (await inWeek()) break;
      await area.getByRole('button', { name: 'La semana siguiente' }).click();
    }
    const visit = area.getByRole('article').filter({ hasText: 'Vera Visita' });
    await expect(visit).toBeVisible();
    await expect(visit.getByText('Solicitada')).toBeVisible();
    await page.screenshot({ path: join(shots, 'visits-390.png'), fullPage: true });
    await visit
      .getByRole('button', { name: /^Confirmar / })
      .first()
      .click();
    await expect(visit.getByText('Confirmada: se ha avisado al visitante.')).toBeVisible();
    const [done] = await data.sql<{ status: string; lead: string; mails: number }>(
      `select r.status, (select status from public.inquiries where id = r.inquiry_id) as lead,
              (select count(*)::int from internal.mail_outbox o where o.ref_id = r.id::text and o.kind in ('visit-confirmed', 'visit-confirmed-agent')) as mails
         from internal.visit_requests r where r.id = $1::bigint`,
      [request!.id],
    );
    expect(done).toEqual({ status: 'confirmed', lead: 'visit_booked', mails: 2 });

    // her hours: Sundays 10:00-12:00 only, saved in the page; the listing's times follow at once
    await area.getByRole('tab', { name: 'Horario de visitas' }).click();
    const hours = area.locator('form[part="hours"]');
    await expect(hours.getByText('Aún no has fijado tu horario')).toBeVisible();
    for (let left = await hours.getByRole('button', { name: /^Quitar .* a / }).count(); left > 0; left--)
      await hours
        .getByRole('button', { name: /^Quitar .* a / })
        .first()
        .click();
    await hours.getByRole('button', { name: 'Añadir horas el domingo' }).click();
    const sunday = hours.getByRole('group', { name: 'domingo' });
    await sunday.getByLabel('Desde').fill('10:00');
    await sunday.getByLabel('Hasta').fill('12:00');
    // first, an overlapping second period: refused with the reason, nothing changed
    await hours.getByRole('button', { name: 'Añadir horas el domingo' }).click();
    await sunday.getByLabel('Desde').nth(1).fill('11:00');
    await sunday.getByLabel('Hasta').nth(1).fill('13:00');
    await hours.getByRole('button', { name: 'Guardar el horario' }).click();
    await expect(hours.getByText('Dos periodos del mismo día se solapan.')).toBeVisible();
    expect(await data.sql('select 1 from internal.agent_visiting_hours where agent_id = $1::bigint', [ana!.id])).toEqual([]);
    await sunday.getByRole('button', { name: /^Quitar domingo de 11:00/ }).click();
    await hours.getByRole('button', { name: 'Guardar el horario' }).click();
    await expect(hours.getByText('Guardado: las nuevas solicitudes siguen este horario desde ahora.')).toBeVisible();
    await page.screenshot({ path: join(shots, 'hours-390.png'), fullPage: true });
    const times = (
      await data.sql<{ t: string }>("select to_json(t)#>>'{}' as t from public.visit_times($1::bigint, $2::bigint) t", [listing!.id, ana!.id])
    ).map((r) => new Date(Date.parse(r.t) - 5 * 3_600_000));
    expect(times.length).toBeGreaterThan(0);
    for (const local of times) {
      expect(local.getUTCDay()).toBe(0);
      expect(local.toISOString().slice(11, 16) >= '10:00' && local.toISOString().slice(11, 16) <= '11:00').toBe(true);
    }

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'hours-320.png'), fullPage: true });
    await area.getByRole('tab', { name: 'Visitas', exact: true }).click();
    await expect(visit.getByText('Confirmada', { exact: true })).toBeVisible();
    await page.screenshot({ path: join(shots, 'visits-320.png'), fullPage: true });
    // (the refused hours' answer, a 400, is the one message the browser logs)
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });
  test('her profile: she writes her about in both languages, picks a place she serves, uploads her photo, and the public page shows it', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const [ana] = await data.sql<{ id: string }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC') returning id::text as id",
    );
    const [place] = await data.sql<{ path: string; name: string }>(
      "select path, name from internal.places where kind = 'sector' and name ~ '^[A-Za-z]{5,}$' order by listings desc limit 1",
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/agente`);
    await signIn(page, data, 'ana.movil@example.com');
    const area = page.locator('exp-agent-area');
    await area.getByRole('tab', { name: 'Perfil' }).click();
    const form = area.locator('form[part="profile"]');
    await form.getByLabel('Sobre ti, en español').fill('Vendo casas en Quito desde 2015.');
    await form.getByLabel('Sobre ti, en inglés').fill('I have sold homes in Quito since 2015.');
    await form.getByLabel('Idiomas que hablas').fill('Español, English');
    // a link on another site: refused with the reason, nothing saved
    await form.getByLabel(/^Facebook/).fill('https://evil.example/ana');
    await form.getByRole('button', { name: 'Guardar el perfil' }).click();
    await expect(form.getByText('Facebook debe ser una dirección https:// de facebook.com.')).toBeVisible();
    expect((await data.sql<{ about_es: string | null }>('select about_es from public.agents where id = $1::bigint', [ana!.id]))[0]?.about_es).toBeNull();
    await form.getByLabel(/^Facebook/).fill('https://www.facebook.com/ana.movil');
    // a place of ours, picked from the suggestions
    await form.getByLabel('Añadir un lugar').fill(place!.name.slice(0, 5));
    await form
      .getByRole('button', { name: new RegExp(`^${place!.name}`) })
      .first()
      .click();
    await expect(form.getByRole('button', { name: `Quitar ${place!.name}` })).toBeVisible();
    // her photo, from her phone
    const face = await sharp({ create: { width: 480, height: 640, channels: 3, background: { r: 160, g: 110, b: 80 } } })
      .jpeg()
      .toBuffer();
    await form.getByLabel('Tu foto').setInputFiles({ name: 'ana.jpg', mimeType: 'image/jpeg', buffer: face });
    await expect(form.getByText('Tu foto está guardada.')).toBeVisible();
    await form.getByRole('button', { name: 'Guardar el perfil' }).click();
    await expect(form.getByText('Guardado: el público ya lo ve.')).toBeVisible();
    const [row] = await data.sql<{ about_es: string; languages: string[]; locations_served: string[]; picture: string; facebook: string }>(
      'select about_es, languages, locations_served, picture, facebook from public.agents where id = $1::bigint',
      [ana!.id],
    );
    expect(row).toMatchObject({
      about_es: 'Vendo casas en Quito desde 2015.',
      languages: ['Español', 'English'],
      locations_served: [place!.name],
      facebook: 'https://www.facebook.com/ana.movil',
    });
    expect(row!.picture).toMatch(/^\/media\/photos\/[0-9a-f]{32}\//);
    await expect(area.locator('[part="preview"]').getByText('Vendo casas en Quito desde 2015.')).toBeVisible();
    await page.screenshot({ path: join(shots, 'profile-390.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'profile-320.png'), fullPage: true });
    // her site kit: the code for her website names her as the owner of its leads, in her colour
    await page.setViewportSize({ width: 390, height: 844 });
    await area.getByRole('tab', { name: 'Tu web' }).click();
    const kit = area.locator('[part="site-kit"]');
    await kit.getByLabel('Tu color (botones y enlaces)').fill('#7a1f5c');
    await expect(kit.getByLabel('El código para tu web')).toHaveValue(
      new RegExp(`<exp-property-search lead-agent-id="${ana!.id}" lang="es" style="--exp-color-primary: #7a1f5c"></exp-property-search>`),
    );
    await expect(kit.locator('[part="kit-preview"] exp-property-search')).toHaveAttribute('lead-agent-id', ana!.id);
    const plugin = await fetch(new URL((await kit.getByRole('link', { name: 'Descargar el plugin de WordPress' }).getAttribute('href')) ?? '', data.url));
    expect([plugin.status, plugin.headers.get('content-type')]).toEqual([200, 'application/zip']);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'kit-390.png'), fullPage: true });
    // her public page, as a crawler reads it: the Spanish about and her photo
    const html = await (await fetch(`${data.url}/es/findanagent/${ana!.id}`)).text();
    expect(html).toContain('Vendo casas en Quito desde 2015.');
    expect(html).toContain(row!.picture);
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });
  test('the team, on a phone: sees every lead and whose it is, gives one to another agent with a reason, and that agent finds it in her list', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const [ana, bruno] = await data.sql<{ id: string }>(
      `insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC'), ('Bruno', 'Otro', 'bruno.otro@example.com', 'EC')
       returning id::text as id`,
    );
    await data.sql(
      "with u as (insert into auth.users (email) values ('equipo.movil@example.com') returning id) insert into internal.team_members (user_id) select id from u",
    );
    await data.sql(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, lang)
       values ('e2e-area-team', 'Teresa Traspaso', 'teresa@example.com', 'Quiero vender mi casa', 'ana.movil@example.com', 'lead_agent', $1::bigint, 'es')`,
      [ana!.id],
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/agente`);
    await signIn(page, data, 'equipo.movil@example.com');
    const area = page.locator('exp-agent-area');
    const lead = area.getByRole('article', { name: 'Teresa Traspaso' });
    await expect(lead.locator('[part="why"]')).toHaveText('De: Ana Móvil · Tuyo: llegó desde tu web (su lead-agent-id).');
    await lead.getByRole('button', { name: 'Actualizar: estado, seguimiento, nota' }).click();
    await lead.getByLabel('Dar este contacto a').selectOption({ label: 'Bruno Otro' });
    await lead.getByLabel(/^Motivo/).fill('Bruno atiende Samborondón');
    await lead.getByRole('button', { name: 'Dar el contacto' }).click();
    await expect(lead.getByText('Hecho: se ha avisado al agente.')).toBeVisible();
    await expect(lead.locator('[part="why"]')).toHaveText('De: Bruno Otro · Te lo asignó el equipo.');
    // the team's console: its agents and its routing
    await area.getByRole('tab', { name: 'Equipo' }).click();
    await area.getByLabel('Buscar un agente (nombre o correo)').fill('bruno.otro');
    await expect(area.getByRole('article', { name: 'Bruno Otro' })).toContainText('1 contacto abierto');
    await area.getByRole('button', { name: 'Añadir una regla' }).click();
    await area.getByLabel(/^Origen/).fill('feria-vivienda');
    await area.getByRole('button', { name: 'Guardar el reparto' }).click();
    await expect(area.getByText('Guardado: los nuevos contactos lo siguen desde ahora.')).toBeVisible();
    expect(await data.sql('select source from internal.routing_rules')).toEqual([{ source: 'feria-vivienda' }]);
    await data.sql('delete from internal.routing_rules');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // visitors' requests about their data, never who asked, and the retention job's last run (the server ran it at start)
    const [asked] = await data.sql<{ id: string }>(
      "insert into internal.privacy_requests (kind, asked_at, answered_at, outcome) values ('erasure', internal.now() - interval '2 hours', internal.now() - interval '1 hour', '{\"inquiries\": 1}') returning id::text as id",
    );
    try {
      await area.getByRole('tab', { name: 'Contactos', exact: true }).click();
      await area.getByRole('tab', { name: 'Equipo', exact: true }).click();
      const privacy = area.locator('[part="privacy-requests"]');
      await expect(privacy.getByRole('heading', { name: 'Datos de los visitantes' })).toBeVisible();
      await expect(privacy.getByText('Eliminó sus datos').first()).toBeVisible();
      await expect(privacy.locator('[part="retention"]')).toContainText('Conservación, última ejecución');
    } finally {
      await data.sql('delete from internal.privacy_requests where id = $1::bigint', [asked!.id]);
    }
    await page.screenshot({ path: join(shots, 'team-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: join(shots, 'team-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // Bruno signs in on the same phone: the lead is his now, and says why
    await page.setViewportSize({ width: 390, height: 844 });
    await area.getByRole('button', { name: 'Salir' }).click();
    await expect(area.getByRole('heading', { name: 'Agentes: entrar' })).toBeVisible();
    await signIn(page, data, 'bruno.otro@example.com');
    await expect(area.getByRole('article', { name: 'Teresa Traspaso' }).locator('[part="why"]')).toHaveText('Te lo asignó el equipo.');
    expect(bruno!.id).toBeTruthy();
    expect(consoleErrors).toEqual([]);
  });
  test("her listings' weeks: a visitor opens her listing's page and saves it; she sees the view and the save in this week's figures", async ({
    page,
    data,
    consoleErrors,
  }) => {
    const [ana] = await data.sql<{ id: string }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC') returning id::text as id",
    );
    const [listing] = await data.sql<{ id: string; title: string; before: string | null }>(
      `with one as (select id, agent_id from internal.listings where is_public and country_code = 'EC' and operation = 'sale' order by id desc offset 3 limit 1)
       update internal.listings l set agent_id = $1::bigint from one where l.id = one.id returning l.id::text as id, l.title, one.agent_id::text as before`,
      [ana!.id],
    );
    try {
      // a visitor: the listing's page, and its heart
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${data.url}/es/properties/${listing!.id}`);
      const detail = page.locator('exp-property-detail');
      await detail.locator('[part~="save-button"]').first().click();
      await until(
        async () =>
          ((await data.sql<{ n: number }>('select views + saves as n from internal.listing_weeks where listing_id = $1::bigint', [listing!.id]))[0]?.n ?? 0) >=
            2 || undefined,
      );
      // Ana
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${data.url}/es/agente`);
      await signIn(page, data, 'ana.movil@example.com');
      const area = page.locator('exp-agent-area');
      await area.getByRole('tab', { name: 'Inmuebles' }).click();
      const figures = area.getByRole('article', { name: listing!.title });
      await expect(figures).toContainText('vistas 1 · guardados 1');
      await expect(figures.getByRole('table')).toBeVisible();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, 'listings-390.png'), fullPage: true });
      await page.setViewportSize({ width: 320, height: 700 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(consoleErrors).toEqual([]);
    } finally {
      await data.sql('update internal.listings set agent_id = $2::bigint where id = $1::bigint', [listing!.id, listing!.before]);
      await data.sql('delete from internal.listing_weeks where listing_id = $1::bigint', [listing!.id]);
    }
  });

  test('a tab whose code does not download says so, and opens on "Try again" once the network is back', async ({ page, data }) => {
    await data.sql("insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC')");
    // the network drops the calendar's code (the tabs other than her leads are their own chunks: docs/agent-area.md "Speed")
    let offline = true;
    await page.route(/\/chunks\/visits-[^/]*\.js/, (route) => (offline ? route.abort('internetdisconnected') : route.continue()));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/agente`);
    await signIn(page, data, 'ana.movil@example.com');
    const area = page.locator('exp-agent-area');
    await expect(area.locator('[part="count"]')).toBeVisible();
    await area.getByRole('tab', { name: 'Visitas', exact: true }).click();
    // (the area's own message, its tabs still there: not the element's last-resort error)
    await expect(area.getByRole('alert')).toContainText('Inténtalo de nuevo en un momento');
    await expect(area.getByRole('tablist')).toBeVisible();
    offline = false;
    await area.getByRole('button', { name: 'Intentar de nuevo' }).click();
    await expect(area.getByRole('alert')).toHaveCount(0);
    await expect(area.getByRole('tabpanel')).toContainText('Las horas son las de Ecuador.');
  });
});
