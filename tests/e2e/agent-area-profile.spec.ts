/**
 * The agents' area beyond her leads and calendar (docs/agent-area.md), as she and the team use it:
 * her profile in both languages with a place she serves and her photo, shown on her public page;
 * the team on a phone giving a lead to another agent, who finds it; her listings' weeks of views and
 * saves; and a tab whose code does not download, which says so and opens once the network is back.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, screenshotDir, seriousAxeViolations, sideways, test } from './fixtures.ts';
import { addAna, cleanUpAgentArea, signIn } from './agent-area-support.ts';
import { until } from '../support/until.ts';

const shots = screenshotDir('agent-area');

test.describe("the agents' area: her profile, the team, her listings' weeks", () => {
  test.afterEach(({ data }) => cleanUpAgentArea(data));

  test('her profile: she writes her about in both languages, picks a place she serves, uploads her photo, and the public page shows it', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const ana = { id: await addAna(data) };
    const [place] = await data.sql<{ path: string; name: string }>(
      "select path, name from internal.places where kind = 'sector' and name ~ '^[A-Za-z]{5,}$' order by listings desc limit 1",
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/agente`);
    await signIn(page, data, 'ana.movil@example.com');
    const area = page.locator('exp-agent-area');
    // new here: no lead yet, and where they will come from
    await expect(area.locator('[part="empty"]')).toHaveText(/^Aún no tienes contactos\. .*pestaña Tu web/);
    await area.getByRole('tab', { name: 'Perfil' }).click();
    const form = area.locator('form[part="profile"]');
    await form.getByLabel('Sobre ti, en español').fill('Vendo casas en Quito desde 2015.');
    await form.getByLabel('Sobre ti, en inglés').fill('I have sold homes in Quito since 2015.');
    await form.getByLabel('Idiomas que hablas').fill('Español, English');
    // a link on another site: refused with the reason, nothing saved
    await form.getByLabel(/^Facebook/).fill('https://evil.example/ana');
    await form.getByRole('button', { name: 'Guardar el perfil' }).click();
    await expect(form.getByText('Facebook debe ser una dirección https:// de facebook.com.')).toBeVisible();
    expect(
      (
        await data.sql<{ about_es: string | null }>('select about_es from public.agents where id = $1::bigint', [
          ana.id,
        ])
      )[0]?.about_es,
    ).toBeNull();
    await form.getByLabel(/^Facebook/).fill('https://www.facebook.com/ana.movil');
    // a place of ours, picked from the suggestions
    await form.getByLabel('Añadir un lugar').fill(place!.name.slice(0, 5));
    await form
      .getByRole('button', { name: new RegExp(`^${place!.name}`) })
      .first()
      .click();
    await expect(form.getByRole('button', { name: `Quitar ${place!.name}` })).toBeVisible();
    // her photo, from her phone
    const face = await sharp({
      create: { width: 480, height: 640, channels: 3, background: { r: 160, g: 110, b: 80 } },
    })
      .jpeg()
      .toBuffer();
    await form.getByLabel('Tu foto').setInputFiles({ name: 'ana.jpg', mimeType: 'image/jpeg', buffer: face });
    await expect(form.getByText('Tu foto está guardada.')).toBeVisible();
    await form.getByRole('button', { name: 'Guardar el perfil' }).click();
    await expect(form.getByText('Guardado: el público ya lo ve.')).toBeVisible();
    const [row] = await data.sql<{
      about_es: string;
      languages: string[];
      locations_served: string[];
      picture: string;
      facebook: string;
    }>('select about_es, languages, locations_served, picture, facebook from public.agents where id = $1::bigint', [
      ana.id,
    ]);
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
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'profile-320.png'), fullPage: true });
    // her site kit: the code for her website names her as the owner of its leads, in her colour
    await page.setViewportSize({ width: 390, height: 844 });
    await area.getByRole('tab', { name: 'Tu web' }).click();
    const kit = area.locator('[part="site-kit"]');
    await kit.getByLabel('Tu color (botones y enlaces)').fill('#7a1f5c');
    await expect(kit.getByLabel('El código para tu web')).toHaveValue(
      new RegExp(
        `<exp-property-search lead-agent-id="${ana.id}" lang="es" style="--exp-color-primary: #7a1f5c"></exp-property-search>`,
      ),
    );
    await expect(kit.locator('[part="kit-preview"] exp-property-search')).toHaveAttribute('lead-agent-id', ana.id);
    const plugin = await fetch(
      new URL(
        (await kit.getByRole('link', { name: 'Descargar el plugin de WordPress' }).getAttribute('href')) ?? '',
        data.url,
      ),
    );
    expect([plugin.status, plugin.headers.get('content-type')]).toEqual([200, 'application/zip']);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'kit-390.png'), fullPage: true });
    // her public page, as a crawler reads it: the Spanish about and her photo
    const html = await (await fetch(`${data.url}/es/findanagent/${ana.id}`)).text();
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
    await expect(lead.locator('[part="why"]')).toHaveText(
      'De: Ana Móvil · Tuyo: llegó desde tu web (su lead-agent-id).',
    );
    await lead.getByRole('button', { name: 'Actualizar: estado, seguimiento, nota' }).click();
    await lead.getByLabel('Dar este contacto a').selectOption({ label: 'Bruno Otro' });
    await lead.getByLabel(/^Motivo/).fill('Bruno atiende Samborondón');
    await lead.getByRole('button', { name: 'Dar el contacto' }).click();
    await expect(lead.getByText('Hecho: se ha avisado al agente.')).toBeVisible();
    await expect(lead.locator('[part="why"]')).toHaveText('De: Bruno Otro · Te lo asignó el equipo.');
    // (a morning mail of leads to follow up is an agent's: the team's member gets none to turn off)
    await expect(area.locator('[part="morning-mail"]')).toHaveCount(0);
    // whose: the database keeps to one agent's leads (Ana has none left), or the team's own
    const whose = area.getByLabel('De quién');
    await whose.selectOption({ label: 'Ana Móvil' });
    await expect(area.locator('[part="empty"]')).toHaveText('Ningún contacto con estos filtros.');
    await whose.selectOption({ label: 'Bruno Otro' });
    await expect(area.locator('[part="count"]')).toHaveText('1 contacto');
    await expect(lead).toBeVisible();
    await whose.selectOption({ label: 'De todos' });
    // the team's console: its agents (who is behind: a follow-up of Ana's whose day has gone by) and its routing
    await data.sql(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, lang, status, follow_up_on)
       values ('e2e-area-behind', 'Rita Recordar', 'rita@example.com', 'Llámeme', 'ana.movil@example.com', 'lead_agent', $1::bigint, 'es', 'contacted', '2026-06-15')`,
      [ana!.id],
    );
    await area.getByRole('tab', { name: 'Equipo' }).click();
    await area.getByLabel('Buscar un agente (nombre o correo)').fill('movil');
    await expect(area.getByRole('article', { name: 'Ana Móvil' }).locator('[part="to-follow-up"]')).toHaveText(
      '1 por seguir hoy',
    );
    await area.getByLabel('Buscar un agente (nombre o correo)').fill('bruno.otro');
    await expect(area.getByRole('article', { name: 'Bruno Otro' })).toContainText('1 contacto abierto');
    await expect(area.getByRole('article', { name: 'Bruno Otro' }).locator('[part="to-follow-up"]')).toHaveCount(0);
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
    expect(await sideways(page)).toBeLessThanOrEqual(0);

    // Bruno signs in on the same phone: the lead is his now, and says why
    await page.setViewportSize({ width: 390, height: 844 });
    await area.getByRole('button', { name: 'Salir' }).click();
    await expect(area.getByRole('heading', { name: 'Agentes: entrar' })).toBeVisible();
    await signIn(page, data, 'bruno.otro@example.com');
    await expect(area.getByRole('article', { name: 'Teresa Traspaso' }).locator('[part="why"]')).toHaveText(
      'Te lo asignó el equipo.',
    );
    expect(bruno!.id).toBeTruthy();
    expect(consoleErrors).toEqual([]);
  });
  test("her listings' weeks: a visitor opens her listing's page and saves it; she sees the view and the save in this week's figures", async ({
    page,
    data,
    consoleErrors,
  }) => {
    const ana = { id: await addAna(data) };
    const [listing] = await data.sql<{ id: string; title: string; before: string | null }>(
      `with one as (select id, agent_id from internal.listings where is_public and country_code = 'EC' and operation = 'sale' order by id desc offset 3 limit 1)
       update internal.listings l set agent_id = $1::bigint from one where l.id = one.id returning l.id::text as id, l.title, one.agent_id::text as before`,
      [ana.id],
    );
    // (its figures this test's own: the seed counted views on some listings, server/seed/listing-weeks.ts)
    await data.sql('delete from internal.listing_weeks where listing_id = $1::bigint', [listing!.id]);
    try {
      // a visitor: the listing's page, and its heart
      await page.setViewportSize({ width: 390, height: 844 });
      // the view's request ends: its answer is read (one left unread held the request open, and the page never idle)
      const viewCounted = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/functions/v1/listing-events'));
      await page.goto(`${data.url}/es/properties/${listing!.id}`);
      await viewCounted;
      const detail = page.locator('exp-property-detail');
      await detail.locator('[part~="save-button"]').first().click();
      await until(
        async () =>
          ((
            await data.sql<{ n: number }>(
              'select views + saves as n from internal.listing_weeks where listing_id = $1::bigint',
              [listing!.id],
            )
          )[0]?.n ?? 0) >= 2 || undefined,
      );
      // Ana
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${data.url}/es/agente`);
      await signIn(page, data, 'ana.movil@example.com');
      const area = page.locator('exp-agent-area');
      await area.getByRole('tab', { name: 'Inmuebles' }).click();
      const figures = area.getByRole('article', { name: listing!.title });
      await expect(figures).toContainText('vistas 1 · guardados 1');
      // the weeks one by one, when she opens them
      await expect(figures.getByRole('table')).toBeHidden();
      await figures.getByText('Semana a semana', { exact: true }).click();
      await expect(figures.getByRole('table')).toBeVisible();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, 'listings-390.png'), fullPage: true });
      await page.setViewportSize({ width: 320, height: 700 });
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      expect(consoleErrors).toEqual([]);
    } finally {
      await data.sql('update internal.listings set agent_id = $2::bigint where id = $1::bigint', [
        listing!.id,
        listing!.before,
      ]);
      await data.sql('delete from internal.listing_weeks where listing_id = $1::bigint', [listing!.id]);
    }
  });

  test('her leads, when the data API cannot answer, say so with "Try again" (not "Loading..." for ever), and show once it answers', async ({
    page,
    data,
  }) => {
    await addAna(data);
    // the database away: the data API answers her leads as PostgREST does then
    let away = true;
    await page.route(/\/rest\/v1\/rpc\/my_leads/, (route) =>
      away
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              code: 'PGRST002',
              details: null,
              hint: null,
              message: 'Could not query the database',
            }),
          })
        : route.continue(),
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/agente`);
    await signIn(page, data, 'ana.movil@example.com');
    const area = page.locator('exp-agent-area');
    const count = area.locator('[part="count"]');
    await expect(count).toHaveAttribute('role', 'alert');
    await expect(count).toContainText('Inténtalo de nuevo en un momento');
    // (her alert subscriptions come in the same answer: not said to be none)
    await expect(area.locator('[part="subscriptions"]')).toHaveCount(0);
    await page.screenshot({ path: join(shots, 'leads-failed-390.png') });
    for (const width of [1366, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: join(shots, `leads-failed-${width}.png`) });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    away = false;
    await count.getByRole('button', { name: 'Intentar de nuevo' }).click();
    await expect(count).toHaveAttribute('role', 'status');
    await expect(count).toHaveText(/^\d+ contactos?$/);
    await expect(area.locator('[part="subscriptions"]')).toBeVisible();
  });

  test('a tab whose code does not download says so, and opens on "Try again" once the network is back', async ({
    page,
    data,
  }) => {
    await addAna(data);
    // the network drops the calendar's code (the tabs other than her leads are their own chunks: docs/agent-area.md "Speed")
    let offline = true;
    await page.route(/\/chunks\/visits-[^/]*\.js/, (route) =>
      offline ? route.abort('internetdisconnected') : route.continue(),
    );
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
