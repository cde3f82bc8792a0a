/**
 * New developments (docs/projects.md), as a buyer in Quito would meet them: "Proyectos" beside
 * Comprar and Arrendar shows projects only, as many as SQL written apart counts; "Entrega hasta 2027"
 * and "2+ habitaciones" narrow it; a project's card opens its page, whose unit table and payment
 * plan answer the unit picked, and whose inquiry and show-flat visit reach the project's agent; its units for
 * sale found by the search for sale, marked with their project; on phones too, with
 * axe.
 */
import { expect, fmt, search, seriousAxeViolations, sideways, test } from './fixtures.ts';

/** the projects the public sees, apart from the search: active, selling a type; `where` on p */
const PROJECTS = (where = 'true') => `select count(*)::int as n from internal.projects p where p.status = 'active'
  and exists (select 1 from internal.project_unit_types t where t.project_id = p.id) and (${where})`;

test.describe('new developments', () => {
  test("Proyectos in Quito at 1366 px: projects only, counted as SQL counts; delivery by 2027 and 2+ bedrooms narrow it; a project's plan, its inquiry and a visit to its show flat, both to its agent", async ({
    page,
    data,
    consoleErrors,
  }) => {
    const count = async (where: string) => Number((await data.sql<{ n: number }>(PROJECTS(where)))[0]?.n);
    const heading = (n: number) => `${fmt(n)} ${n === 1 ? 'proyecto' : 'proyectos'}`;
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${data.url}/es/search-properties`);
    const s = search(page);
    await expect(s.heading).toHaveText(/propiedades$/);
    await s.el.locator('[part="operation"] label', { hasText: 'Proyectos' }).click();
    await expect(s.el.getByRole('radio', { name: 'Proyectos' })).toBeChecked();
    await expect(page).toHaveURL(/operation=project/);
    await expect(s.heading).toHaveText(heading(await count('true')));
    await expect(page.locator('h1')).toHaveText('Proyectos nuevos en Ecuador');
    await expect(page.locator('[data-hero-subtitle]')).toHaveText(/^Viviendas nuevas en preventa/);

    await s.box.fill('Quito');
    await s.list.getByRole('option', { name: /^Quito Ciudad/ }).click();
    await expect(page).toHaveURL(/place=quito(&|$)/);
    const quito = await count("lower(p.city) = 'quito'");
    expect(quito).toBeGreaterThanOrEqual(3);
    await expect(s.heading).toHaveText(heading(quito));
    await expect(s.el.locator('[part~="project-card"]')).toHaveCount(quito);
    await expect(s.cards).toHaveCount(quito);
    for (const price of await s.el.locator('[part="card-price"] p:first-child').allTextContents())
      expect(price).toMatch(/^Desde \$[\d,]+$/);
    await expect(s.el.locator('[part="chips"]')).toContainText('Proyectos');

    // delivered by the end of 2027 (those delivered already too), then two bedrooms or more
    await s.el.locator('[part="more-filters"]').click();
    await s.el.getByLabel('Entrega hasta').selectOption('2027');
    await s.el.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page).toHaveURL(/deliveryBy=2027/);
    const by2027 = await count("lower(p.city) = 'quito' and (p.stage = 'delivered' or p.delivery < date '2028-01-01')");
    expect(by2027).toBeGreaterThan(0);
    expect(by2027).toBeLessThan(quito);
    await expect(s.heading).toHaveText(heading(by2027));
    await expect(s.el.locator('[part="chips"]')).toContainText('con entrega hasta 2027');
    await s.el.getByLabel('Habitaciones').selectOption('2');
    await s.el.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page).toHaveURL(/beds=2/);
    const twoBeds = await count(
      "lower(p.city) = 'quito' and (p.stage = 'delivered' or p.delivery < date '2028-01-01') and exists (select 1 from internal.project_unit_types t where t.project_id = p.id and t.bedrooms >= 2)",
    );
    expect(twoBeds).toBeGreaterThan(0);
    await expect(s.heading).toHaveText(heading(twoBeds));
    await expect(s.el.locator('[part="project-facts"]').first()).toContainText(/Dormitorios: \d/);
    // (the list is dimmed while a search loads: axe reads it once it is done)
    await expect(s.el.locator('[part~="project-card"]')).toHaveCount(twoBeds);
    await expect(s.el.locator('[part="list"]')).toHaveAttribute('aria-busy', 'false');
    await expect
      .poll(() =>
        s.el
          .locator('[part="list"] ul')
          .first()
          .evaluate((e) => getComputedStyle(e).opacity),
      )
      .toBe('1');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // a reload keeps the search
    await page.reload();
    await expect(s.heading).toHaveText(heading(twoBeds));
    // the resale median of the place is no project's figure (its page compares them): a sale's search of Quito shows it
    await expect(s.el.locator('[part~="project-card"]')).toHaveCount(twoBeds);
    await expect(s.el.locator('[part="place-median"]')).toHaveCount(0);

    // the first card's project: its page, its unit table and a unit's plan
    const card = s.el.locator('[part~="project-card"]').first();
    const name = (await card.locator('h3').textContent())?.trim() ?? '';
    const [project] = await data.sql<{ slug: string; agent_id: string; types: number }>(
      `select p.slug, p.agent_id::text as agent_id, (select count(*)::int from internal.project_unit_types t where t.project_id = p.id) as types
         from internal.projects p where p.name = $1`,
      [name],
    );
    expect(project).toBeDefined();
    await card.getByRole('link', { name: `Ver el proyecto ${name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/es/proyectos/${project?.slug}$`));
    await expect(page.locator('h1')).toHaveText(name);
    await expect(page.locator('table.project__units tr[data-unit]')).toHaveCount(project?.types ?? 0);
    const unit = page.locator('select[name="unit"]');
    const second = await unit
      .locator('option')
      .nth(Math.min(1, (project?.types ?? 1) - 1))
      .getAttribute('value');
    await unit.selectOption(second ?? '');
    await page.getByRole('button', { name: 'Ver el plan' }).click();
    await expect(page).toHaveURL(new RegExp(`unit=${second}`));
    await expect(page.locator('table[data-plan]')).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // "Ask about this project": to its agent
    const email = `comprador-${Date.now().toString(36)}@example.org`;
    const form = page.locator('exp-inquiry-form');
    await expect(form.getByRole('heading', { name: `Pregunta por ${name}` })).toBeVisible();
    await form.getByLabel('Nombre').fill('Comprador Proyecto');
    await form.getByLabel('Correo electrónico', { exact: true }).fill(email);
    await form.getByRole('button', { name: 'Solicitar información' }).click();
    await expect(form.getByText('¡Solicitud enviada!')).toBeVisible();
    // the lead names the project (its listing) and is its agent's
    await expect
      .poll(async () => {
        const [row] = await data.sql<{ agent_id: string | null; project: string | null }>(
          `select i.agent_id::text as agent_id, p.slug as project from public.inquiries i
             left join internal.listings l on l.id = i.listing_id left join internal.projects p on p.id = l.project_id where i.email = $1`,
          [email],
        );
        return row ? `${row.agent_id} ${row.project}` : null;
      })
      .toBe(`${project?.agent_id} ${project?.slug}`);

    // "Visit the show flat": the times of the project's agent, the request theirs
    const visit = page.locator('exp-inquiry-form [part="visit"]');
    await expect(visit.getByRole('heading', { name: 'Visita el departamento modelo' })).toBeVisible();
    await visit.getByRole('button', { name: 'Elegir horarios' }).click();
    const time = visit.locator('[part~="visit-time"]').first();
    await time.click();
    await expect(time).toHaveAttribute('aria-pressed', 'true');
    const visitor = `visita-${Date.now().toString(36)}@example.org`;
    await visit.getByLabel('Nombre').fill('Visita Modelo');
    await visit.getByLabel('Correo electrónico', { exact: true }).fill(visitor);
    await visit.getByRole('button', { name: 'Solicitar la visita' }).click();
    await expect(visit.getByRole('heading', { name: 'Visita solicitada' })).toBeVisible();
    const [request] = await data.sql<{ agent_id: string | null; project: string | null }>(
      `select v.agent_id::text as agent_id, p.slug as project from internal.visit_requests v
         join internal.listings l on l.id = v.listing_id join internal.projects p on p.id = l.project_id where v.email = $1`,
      [visitor],
    );
    expect(request).toEqual({ agent_id: project?.agent_id, project: project?.slug });
    expect(consoleErrors).toEqual([]);
  });

  test('New homes on a phone at 390 px, in English: the projects as cards that fit, the head says new developments, the stage in the sheet narrows them; axe finds nothing serious', async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/search-properties?operation=project`);
    const s = search(page);
    const all = Number((await data.sql<{ n: number }>(PROJECTS()))[0]?.n);
    await expect(s.heading).toHaveText(`${fmt(all)} new developments`);
    await expect(s.el.getByRole('radio', { name: 'New homes' })).toBeChecked();
    await expect(s.el.locator('[part~="project-card"]')).toHaveCount(all);
    const first = s.el.locator('[part~="project-card"]').first();
    await expect(first.locator('[part="card-price"]')).toContainText(/^From \$[\d,]+/);
    await expect(first.locator('[part="project-stage"]')).toHaveText(
      /^(Delivery 20\d\d( · \d+% built)?|Ready to move in)$/,
    );
    const box = await first.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // the title is shown on a list of new developments and its head says so
    await expect(page).toHaveTitle(/New developments for sale in Ecuador/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // the phone's sheet: the stage, counted live before it applies
    await s.el.locator('[part="more-filters"]').click();
    const sheet = s.el.locator('dialog[part="filter-sheet"]');
    await expect(sheet).toBeVisible();
    await expect(sheet.locator('[part="sheet-apply"]')).toHaveText(`Show ${fmt(all)} new developments`);
    await sheet.getByLabel('Stage').selectOption('delivered');
    const ready = Number((await data.sql<{ n: number }>(PROJECTS("p.stage = 'delivered'")))[0]?.n);
    expect(ready).toBeGreaterThan(0);
    expect(ready).toBeLessThan(all);
    await expect(sheet.locator('[part="sheet-apply"]')).toHaveText(
      `Show ${fmt(ready)} new development${ready === 1 ? '' : 's'}`,
    );
    await sheet.locator('[part="sheet-apply"]').click();
    await expect(page).toHaveURL(/stage=delivered/);
    await expect(s.heading).toHaveText(`${fmt(ready)} new development${ready === 1 ? '' : 's'}`);
    await expect(s.el.locator('[part="chips"]')).toContainText('Ready to move in');
    for (const badge of await s.el.locator('[part="project-stage"]').allTextContents())
      expect(badge).toBe('Ready to move in');
    expect(consoleErrors).toEqual([]);
  });

  test("A project's units for sale on a 320 px phone, in Spanish: found by the search for sale as any listing, each card marked with its project; the detail names its model and leads to the project", async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 320, height: 720 });
    const units = await data.sql<{ id: string; model: string }>(
      `select l.id::text as id, t.model from internal.listings l join internal.project_unit_types t on t.id = l.unit_type_id
         join internal.projects p on p.id = t.project_id where p.slug = 'altos-de-la-carolina' and l.is_public order by l.id`,
    );
    expect(units.length).toBeGreaterThan(0);
    await page.goto(`${data.url}/es/search-properties?keywords=${encodeURIComponent('"Altos de La Carolina"')}`);
    const s = search(page);
    const badges = s.el.locator('[part="unit-of-badge"]');
    await expect(badges).toHaveCount(units.length);
    for (const badge of await badges.allTextContents()) expect(badge).toBe('Obra nueva · Altos de La Carolina');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // its detail: the model of its project, and the way to the project's page
    const first = s.el.locator(`[data-property-id="${units[0]?.id}"]`);
    await first.locator('.exp-card-link').click();
    const line = s.dialog.locator('[part="unit-of"]');
    await expect(line).toContainText(`Obra nueva: ${units[0]?.model} de Altos de La Carolina`);
    await line.getByRole('link').click();
    await expect(page).toHaveURL(/\/es\/proyectos\/altos-de-la-carolina$/);
    await expect(page.locator(`[data-unit-listing="${units[0]?.id}"]`)).toBeVisible();
    // its photos at 320 px: a row to swipe through (the second one showing at the edge), not a column
    const gallery = page.locator('.project__gallery');
    const photos = await gallery.locator('li').evaluateAll((lis) => lis.map((li) => li.getBoundingClientRect()));
    expect(photos.length).toBeGreaterThan(1);
    expect(photos[1]!.top).toBe(photos[0]!.top);
    expect(photos[1]!.left).toBeLessThan(320);
    expect(await gallery.evaluate((ul) => ul.scrollWidth > ul.clientWidth)).toBe(true);
    // its unit types at 320 px: five columns do not fit, so each type is a block, its name across it
    // and each figure under its column's name
    const heads = await page.locator('.project__units thead th').allTextContents();
    const rows = await page.locator('.project__units tbody tr').all();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const [box, name] = await Promise.all([row.boundingBox(), row.locator('th').boundingBox()]);
      expect(name!.width).toBeGreaterThan(box!.width * 0.9);
      const labels = await row
        .locator('td')
        .evaluateAll((tds) =>
          tds.map((td) => (getComputedStyle(td, '::before').content === 'none' ? '' : td.getAttribute('data-label'))),
        );
      expect(labels).toEqual(heads.slice(1));
    }
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(consoleErrors).toEqual([]);
  });
});
