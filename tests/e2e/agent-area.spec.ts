/**
 * The agents' area as an agent uses it on her phone (docs/agent-area.md), at 390 px: she opens
 * /es/agente, asks for a code with her address, reads it in the mail the server sent, signs in,
 * sees her own new lead (and not the other agent's), moves it to "Contactado" with a note and a
 * follow-up day, and the database holds it, with the trail saying she did. An address that is no
 * agent's gets the same answer and no mail. Axe finds nothing serious; nothing is cut off at 320 px.
 * Her calendar: she confirms a requested visit, and her hours bound the next booking. Her profile,
 * the team and her listings' weeks: agent-area-profile.spec.ts.
 */
import { join } from 'node:path';
import { expect, screenshotDir, seriousAxeViolations, sideways, test } from './fixtures.ts';
import { addAna, cleanUpAgentArea, mails, signIn, to } from './agent-area-support.ts';
import { readFileSync } from 'node:fs';

const shots = screenshotDir('agent-area');

test.describe("the agents' area", () => {
  test.afterEach(({ data }) => cleanUpAgentArea(data));

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
    await expect(card.locator('[part="consents"]')).toHaveText(
      'Consintió: correos comerciales · contacto de otros agentes (retirado)',
    );
    const followed = area.locator('[part="subscriptions"]');
    await expect(followed.getByRole('heading')).toHaveText('1 suscripción a alertas');
    await expect(followed.getByRole('link', { name: 'sigue.busqueda@example.com' })).toBeVisible();
    await expect(card.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute(
      'href',
      /^https:\/\/wa\.me\/593991234567\?text=Hola%20Carla/,
    );
    await page.screenshot({ path: join(shots, 'leads-390.png'), fullPage: true });
    // on a desk: the same list, wider
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: join(shots, 'leads-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });

    // what she sees, as a spreadsheet's file: her lead only, a formula kept as text
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      area.getByRole('button', { name: 'Descargar estos contactos (CSV)' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);
    expect(csv).toContain('"Carla Compradora"');
    expect(csv).not.toContain('Daniel Desconocido');
    // only valuations: the seller's, with the estimate
    await area.getByLabel('Sobre').selectOption('valuation');
    await expect(area.locator('[part="count"]')).toHaveText('1 contacto');
    await expect(area.getByRole('article', { name: 'Sara Vendedora' }).locator('[part="estimate"]')).toHaveText(
      /^Nuestra estimación: \$150[.,]000/,
    );
    // a status none of hers has: the filters say they hide them, not that she has none
    await expect(area.locator('[part="empty"]')).toBeHidden();
    await area.getByLabel('Mostrar').selectOption('won');
    await expect(area.locator('[part="empty"]')).toHaveText('Ningún contacto con estos filtros.');
    await area.getByLabel('Mostrar').selectOption('');
    await area.getByLabel('Sobre').selectOption('');
    // only what came from her own website
    await area.getByLabel('Desde').selectOption({ label: 'ana.example.com' });
    await expect(area.locator('[part="count"]')).toHaveText('1 contacto');
    await area.getByLabel('Desde').selectOption({ label: 'Cualquier lugar' });

    // her morning mail of the leads to follow up: hers until she turns it off, saved as she ticks it
    const morning = area.getByRole('checkbox', { name: 'Envíame cada mañana los contactos que tengo que seguir' });
    const said = area.locator('[part="morning-mail"]').getByRole('status');
    await expect(morning).toBeChecked();
    await morning.uncheck();
    await expect(said).toHaveText('Listo: ya no lo recibirás.');
    const wants = async () =>
      (
        await data.sql<{ on: boolean }>('select follow_up_mail as on from public.agents where id = $1::bigint', [
          ana!.id,
        ])
      )[0]?.on;
    expect(await wants()).toBe(false);
    await morning.check();
    await expect(said).toHaveText('Listo: llegará las mañanas en que tengas contactos por seguir.');
    expect(await wants()).toBe(true);

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
    // the card says where she has got with it without being opened; a day gone by stands out
    const state = card.locator('[part="state"]');
    await expect(state).toHaveText('ContactadoSeguimiento el 20 jun');
    await card.getByLabel('Seguimiento el').fill('2026-06-15');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await expect(state.locator('[part="overdue"]')).toHaveText('Seguimiento pendiente desde el 15 jun');
    // what she must follow up: hers whose day has come, the seller's (no day) not
    await area.getByLabel('Mostrar').selectOption({ label: 'Seguimiento pendiente (hoy o antes)' });
    await expect(area.locator('[part="count"]')).toHaveText('1 contacto');
    await expect(card).toBeVisible();
    await area.getByLabel('Mostrar').selectOption('');
    // today, on Ecuador's day (the page's clock: the suite's instant, 17 June)
    await card.getByLabel('Seguimiento el').fill('2026-06-17');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await expect(state).toHaveText('ContactadoSeguimiento hoy');
    await card.getByLabel('Seguimiento el').fill('2026-06-15');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await expect(state.locator('[part="overdue"]')).toBeVisible();
    // won: nothing left to follow up
    await card.getByLabel('Estado').selectOption('won');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await expect(state).toHaveText('Cerrado');

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // her address where it says whom she signed in as is not broken inside ("…@example.co / m")
    const lines = await page
      .locator('exp-agent-area p')
      .filter({ hasText: 'ana.movil@example.com' })
      .first()
      .evaluate((p) => {
        const node = [...p.childNodes].find((n) => n.textContent?.includes('ana.movil@example.com'))!;
        const range = document.createRange();
        const at = node.textContent!.indexOf('ana.movil@example.com');
        range.setStart(node, at);
        range.setEnd(node, at + 'ana.movil@example.com'.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
    expect(lines).toBe(1);
    await page.screenshot({ path: join(shots, 'leads-320.png'), fullPage: true });
    expect(consoleErrors).toEqual([]);
  });
  test('her leads past the newest 500: she finds the oldest by its phone, a status or a kind reaches all of them, a follow-up due the next page', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const ana = await addAna(data);
    // 520 leads an hour apart; the 20 oldest contacted, due for a follow-up on 1 June, and about a
    // listing (the others new general questions), the oldest of all Olga's
    await data.sql(
      `insert into public.inquiries (idempotency_key, name, email, phone, message, property_title, recipient_email, recipient_kind, lead_agent_id, lang, status, follow_up_on, received_at)
       select 'e2e-area-many-' || n, case when n = 520 then 'Olga Antigua' else 'Contacto ' || n end, 'c' || n || '@correo.example',
              case when n = 520 then '+593 98 765 4321' end, 'Hola', case when n > 500 then 'Casa en Tumbaco' end, 'x@example.com', 'lead_agent', $1::bigint, 'es',
              case when n > 500 then 'contacted' else 'new' end, case when n > 500 then date '2026-06-01' end, internal.now() - make_interval(hours => n)
         from generate_series(1, 520) n`,
      [ana],
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/agente`);
    await signIn(page, data, 'ana.movil@example.com');
    const area = page.locator('exp-agent-area');
    const count = area.locator('[part="count"]');
    await expect(count).toHaveText('Tus 500 contactos más recientes; hay más antiguos');
    await expect(area.getByRole('article')).toHaveCount(25);
    await expect(area.getByRole('article', { name: 'Olga Antigua' })).toHaveCount(0);
    // her oldest, by its phone as she would type it: the database finds it
    await area.getByLabel('Buscar en tus contactos').fill('098 765 4321');
    await expect(area.getByRole('article', { name: 'Olga Antigua' })).toBeVisible();
    await expect(count).toHaveText('1 contacto');
    await area.getByLabel('Buscar en tus contactos').fill('nadie con este nombre');
    await expect(area.locator('[part="empty"]')).toHaveText('Ningún contacto coincide con «nadie con este nombre».');
    await area.getByLabel('Buscar en tus contactos').fill('');
    await expect(count).toHaveText('Tus 500 contactos más recientes; hay más antiguos');
    // the contacted ones are all older than her newest 500: the database brings them for the status, and for the kind
    await area.getByLabel('Mostrar').selectOption('contacted');
    await expect(count).toHaveText('20 contactos');
    await expect(area.getByRole('article', { name: 'Olga Antigua' })).toBeVisible();
    await area.getByLabel('Mostrar').selectOption('');
    await expect(count).toHaveText('Tus 500 contactos más recientes; hay más antiguos');
    await area.getByLabel('Sobre').selectOption('listing');
    await expect(count).toHaveText('20 contactos');
    await area.getByLabel('Sobre').selectOption('');
    await expect(count).toHaveText('Tus 500 contactos más recientes; hay más antiguos');
    // a follow-up due is the day's, read on the leads she has: the filter says so, and the next page brings them
    await area.getByLabel('Mostrar').selectOption({ label: 'Seguimiento pendiente (hoy o antes)' });
    await expect(count).toHaveText('0 contactos entre tus 500 más recientes');
    await expect(area.locator('[part="empty"]')).toHaveText('Ningún contacto con estos filtros.');
    await area.getByRole('button', { name: 'Ver contactos más antiguos' }).click();
    await expect(count).toHaveText('20 contactos');
    await expect(area.getByRole('article', { name: 'Olga Antigua' })).toBeVisible();
    await expect(area.getByRole('button', { name: 'Ver contactos más antiguos' })).toHaveCount(0);
    await page.screenshot({ path: join(shots, 'leads-older-390.png'), fullPage: true });
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
  test('her calendar: she confirms a requested visit on her phone, and her hours, saved in the page, bound the next booking', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const ana = { id: await addAna(data) };
    const [listing] = await data.sql<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where is_public and country_code = 'EC' order by id limit 1",
    );
    const open = (
      await data.sql<{ t: string }>(
        "select to_json(t)#>>'{}' as t from internal.open_visit_times($1::bigint, internal.now(), internal.now() + interval '14 days') t",
        [ana.id],
      )
    ).map((r) => r.t);
    const [lead] = await data.sql<{ id: string }>(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, listing_id, lang)
       values ('e2e-area-visit', 'Vera Visita', 'vera.visita@example.com', 'Quisiera verla', 'ana.movil@example.com', 'lead_agent', $1::bigint, $2::bigint, 'es') returning id::text as id`,
      [ana.id, listing!.id],
    );
    const [request] = await data.sql<{ id: string }>(
      `insert into internal.visit_requests (inquiry_id, listing_id, agent_id, recipient_email, mode, proposed, name, email, lang)
       values ($1::uuid, $2::bigint, $3::bigint, 'ana.movil@example.com', 'in_person', $4::timestamptz[], 'Vera Visita', 'vera.visita@example.com', 'es') returning id::text as id`,
      [lead!.id, listing!.id, ana.id, [open[2], open[3]]],
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
    expect(await data.sql('select 1 from internal.agent_visiting_hours where agent_id = $1::bigint', [ana.id])).toEqual(
      [],
    );
    await sunday.getByRole('button', { name: /^Quitar domingo de 11:00/ }).click();
    await hours.getByRole('button', { name: 'Guardar el horario' }).click();
    await expect(hours.getByText('Guardado: las nuevas solicitudes siguen este horario desde ahora.')).toBeVisible();
    await page.screenshot({ path: join(shots, 'hours-390.png'), fullPage: true });
    const times = (
      await data.sql<{ t: string }>("select to_json(t)#>>'{}' as t from public.visit_times($1::bigint, $2::bigint) t", [
        listing!.id,
        ana.id,
      ])
    ).map((r) => new Date(Date.parse(r.t) - 5 * 3_600_000));
    expect(times.length).toBeGreaterThan(0);
    for (const local of times) {
      expect(local.getUTCDay()).toBe(0);
      expect(local.toISOString().slice(11, 16) >= '10:00' && local.toISOString().slice(11, 16) <= '11:00').toBe(true);
    }

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'hours-320.png'), fullPage: true });
    await area.getByRole('tab', { name: 'Visitas', exact: true }).click();
    await expect(visit.getByText('Confirmada', { exact: true })).toBeVisible();
    await page.screenshot({ path: join(shots, 'visits-320.png'), fullPage: true });
    // (the refused hours' answer, a 400, is the one message the browser logs)
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });
});
