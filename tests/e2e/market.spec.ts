/**
 * <exp-market-report> on a page of its own (an agent's site, a partner's CMS page; docs/market.md):
 * from the data API alone it shows last month's figure the index holds, ranks the places within,
 * tells the host page what it shows (exp-market-loaded), and switches language with the page; axe
 * finds nothing serious. "Follow this market" asks for the place's monthly report: the request
 * waits for its confirmation, with the element's lead owner.
 */
import { expect, fmt, seriousAxeViolations, test } from './fixtures.ts';

test('the element on a bare page: the figure and count the index holds, the ranking, its event, in both languages; axe clean; follow the market', async ({
  page,
  data,
}) => {
  const [agent] = await data.sql<{ id: string }>('select id::text as id from public.agents order by id limit 1');
  await page.route(`${data.url}/market-page`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><title>An agent page</title><script type="module" src="/widgets/exp-widgets.js"></script><script>window.loaded=[];addEventListener("exp-market-loaded",(e)=>loaded.push(e.detail))</script><exp-market-report place="quito" type-group="apartment" lead-agent-id="${agent?.id}"></exp-market-report></html>`,
    }),
  );
  await page.goto(`${data.url}/market-page`);
  const [row] = await data.sql<{ median: string; listings: number }>(
    "select median::text, listings from internal.market_index where path = 'quito' and type_group = 'apartment' and month = (internal.this_month() - interval '1 month')::date",
  );
  const figure = page.locator('exp-market-report [part="figure"]');
  await expect(figure).toHaveText(`$${fmt(Math.round(Number(row?.median)))}/m²`);
  await expect(page.locator('exp-market-report')).toContainText(`From ${fmt(Number(row?.listings))} listings`);
  // Quito's sectors, ranked, each a link to its report on the site
  const [top] = await data.sql<{ path: string; name: string }>(
    "select path, name from internal.market_index where parent = 'quito' and type_group = 'apartment' and month = (internal.this_month() - interval '1 month')::date and listings >= internal.market_minimum() order by median desc, path limit 1",
  );
  await expect(
    page.locator('exp-market-report').getByRole('link', { name: String(top?.name), exact: true }),
  ).toHaveAttribute('href', new RegExp(`/market/${top?.path}$`));
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { loaded: Array<{ place: string; median: number }> }).loaded[0]?.place),
    )
    .toBe('quito');
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'es'));
  await expect(page.locator('exp-market-report')).toContainText(`De ${fmt(Number(row?.listings))} anuncios`);
  await expect(page.locator('exp-market-report').getByRole('heading', { level: 2 }).first()).toHaveText(
    'Precios de inmuebles en Quito',
  );

  // follow this market: the place's report each month, confirmed by e-mail first
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
  const report = page.locator('exp-market-report');
  await report.getByRole('button', { name: 'Follow this market: the report of Quito by e-mail each month' }).click();
  const dialog = report.locator('dialog[open]');
  await expect(dialog.getByRole('heading', { name: 'Follow this market' })).toBeVisible();
  await expect(dialog).toContainText('The market report of Quito (Apartments)');
  await expect(dialog).toContainText('Once a month, early in the month');
  const email = `follow.${Date.now()}@example.org`;
  await dialog.getByLabel('E-mail', { exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Follow this market' }).click();
  await expect(dialog.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await data.sql<Record<string, unknown>>(
            'select status, frequency, market, lead_agent_id::text as agent from internal.saved_searches where email = $1',
            [email],
          )
        )[0],
    )
    .toEqual({
      status: 'pending',
      frequency: 'monthly',
      market: { place: 'quito', type_group: 'apartment', name: 'Quito' },
      agent: agent?.id,
    });
});

test('the national map names its largest cities without one name over another (Quito and Cumbayá, Guayaquil and Samborondón sit a few pixels apart), on a phone and a desktop', async ({
  page,
  data,
}) => {
  for (const width of [320, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${data.url}/market`);
    // (the element's map: the page's own, written by the server for crawlers, is hidden under it)
    const names = page
      .locator('exp-market-report svg[aria-labelledby="market-map-title"]')
      .locator('visible=true')
      .first()
      .locator('text');
    await expect(names.first()).toBeVisible();
    // the boxes the browser draws the names in (its own fonts): none meets another
    const boxes = await names.evaluateAll((els) =>
      els.map(
        (e) =>
          ({ name: e.textContent ?? '', ...e.getBoundingClientRect().toJSON() }) as {
            name: string;
            left: number;
            right: number;
            top: number;
            bottom: number;
          },
      ),
    );
    expect(boxes.map((b) => b.name)).toEqual(expect.arrayContaining(['Quito', 'Guayaquil', 'Cuenca']));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(
          a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom,
          `${a.name} and ${b.name} at ${width} px`,
        ).toBe(false);
  }
});
