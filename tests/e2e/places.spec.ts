/**
 * Searching the way visitors think (docs/decisions.md #26), end to end: the location box by
 * keyboard only (a WAI-ARIA combobox, axe-checked in both languages), a sector picked and searched
 * exactly, free text over cities, sectors and addresses, and the spec's other filters behind
 * "More filters"; every count compared with SQL written apart from the migrations.
 */
import {
  ACTIVE,
  cardIds,
  expect,
  fmt,
  openSearch,
  PLACE_TEXT,
  search,
  seriousAxeViolations,
  settled,
  test,
  timersPast,
} from './fixtures.ts';

test.describe('the location box', () => {
  test("a search opened by a place's path alone (a market report's link) names the place in the box and shows its median per m²; a path that is no place says so", async ({
    page,
    data,
  }) => {
    await page.goto(`${data.url}/search-properties?place=quito%2Finaquito`);
    const s = search(page);
    await expect(s.box).toHaveValue('Iñaquito, Quito');
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and city = 'Quito' and sector = 'Iñaquito'`,
    );
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    // beside the count: the place's median per m² of last month, as the market index holds it, and the way to its report
    const [row] = await data.sql<{ median: string; name: string; path: string }>(
      "select i.median::text, i.name, i.path from internal.market_index i where i.path in ('quito/inaquito', 'quito') and i.type_group = 'all' and i.month = (internal.this_month() - interval '1 month')::date and i.listings >= internal.market_minimum() order by i.path = 'quito/inaquito' desc limit 1",
    );
    const median = page.locator('exp-property-search [part="place-median"]');
    await expect(median).toHaveText(
      `Median asking price in ${row?.name} last month: $${fmt(Math.round(Number(row?.median)))}/m². Market report`,
    );
    await expect(median.getByRole('link', { name: 'Market report' })).toHaveAttribute(
      'href',
      new RegExp(`/market/${row?.path}$`),
    );
    await page.goto(`${data.url}/search-properties?place=quito%2Fatlantis`);
    await expect(
      page.locator('exp-property-search').getByText('We know no place called “quito/atlantis”'),
    ).toBeVisible();
    await expect(search(page).box).toHaveValue('quito/atlantis');
    // said instead of the map's "no properties with valid coordinates", not beside it
    await expect(search(page).heading).toHaveText('0 properties');
    await settled(page);
    await expect(page.locator('exp-property-search').getByText('No Properties Found', { exact: true })).toHaveCount(0);
    await expect(page.locator('exp-property-search [part="map-message"]')).toHaveCount(0);
  });

  test("from the home page's search: a sector's name and Rent lead to the rentals of that sector, named in the box; Spanish stays Spanish", async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.goto(`${data.url}/`);
    const form = page.getByRole('search', { name: 'Search properties' });
    await expect(form).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.getByRole('radio', { name: 'Rent' }).check();
    await form.getByRole('searchbox', { name: 'Search properties' }).fill('iñaquito');
    await form.getByRole('searchbox').press('Enter');
    await expect(page).toHaveURL(/\/search-properties\?operation=rent&place=quito%2Finaquito$/);
    const s = search(page);
    await expect(s.box).toHaveValue('Iñaquito, Quito');
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from public.listings where operation = 'rent' and city = 'Quito' and sector = 'Iñaquito'`,
    );
    expect(n).toBeGreaterThan(0);
    await expect(s.heading).toHaveText(`${fmt(n)} ${n === 1 ? 'property' : 'properties'}`);
    // the Spanish home: the same search, and the page of the result in Spanish
    await page.goto(`${data.url}/es`);
    const buscar = page.getByRole('search', { name: 'Buscar propiedades' });
    await buscar.getByRole('searchbox').fill('Iñaquito');
    await buscar.getByRole('button', { name: 'Buscar' }).click();
    await expect(page).toHaveURL(/\/es\/search-properties\?place=quito%2Finaquito$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    expect(consoleErrors).toEqual([]);
  });

  test('by keyboard only: "inaq" suggests Iñaquito with its count; picking it searches exactly that sector, names it in the hero and the address, and a reload keeps it', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const s = await openSearch(page, data.url);
    await s.box.focus();
    await page.keyboard.type('inaq', { delay: 40 });
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and city = 'Quito' and sector = 'Iñaquito'`,
    );
    expect(n).toBeGreaterThan(10);
    const first = s.list.getByRole('option').first();
    await expect(first).toContainText('Iñaquito');
    await expect(first).toContainText('Sector · Quito · Pichincha');
    await expect(first).toContainText(`${fmt(n)} properties`);
    await expect(s.box).toHaveAttribute('aria-expanded', 'true');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await expect(s.box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id')) ?? 'none');
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]place=quito%2Finaquito/);
    await expect(s.box).toHaveValue('Iñaquito, Quito');
    await expect(s.box).toHaveAttribute('aria-expanded', 'false');
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    const ids = await data.sql<{ id: number }>(
      `select id from internal.listings where ${ACTIVE} and city = 'Quito' and sector = 'Iñaquito' order by created_at desc, id desc limit 24`,
    );
    await expect.poll(() => cardIds(page)).toEqual(ids.map((r) => Number(r.id)));
    await expect(page.locator('[data-hero-title]')).toHaveText('Properties for sale in Iñaquito, Quito');
    await page.reload();
    await expect(search(page).box).toHaveValue('Iñaquito, Quito');
    await expect(search(page).heading).toHaveText(`${fmt(n)} properties`);
    await expect(page.locator('[data-hero-title]')).toHaveText('Properties for sale in Iñaquito, Quito');
    expect(consoleErrors).toEqual([]);
  });

  test('Escape closes the list, then clears the text; Tab leaves it; free text that names a sector ("La Carolina") still finds its listings', async ({
    page,
    data,
  }) => {
    await page.goto(`${data.url}/search-properties`);
    const s = search(page);
    await s.box.focus();
    await page.keyboard.type('la caro', { delay: 30 });
    await expect(s.list.getByRole('option').first()).toContainText('La Carolina');
    await page.keyboard.press('Escape');
    await expect(s.list).toBeHidden();
    await expect(s.box).toHaveValue('la caro');
    await page.keyboard.press('Escape');
    await expect(s.box).toHaveValue('');
    await page.keyboard.type('La Carolina', { delay: 20 });
    await expect(s.list.getByRole('option').first()).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(s.list).toBeHidden();
    // an answer that comes after the visitor left the field does not open the list again
    await s.box.focus();
    await page.keyboard.type('x');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Tab');
    // past the box's wait before it asks (widgets/lib/location-box WAIT_MS, 150 ms), and its answer come
    await timersPast(page, 1000);
    await settled(page);
    await expect(s.list).toBeHidden();
    await s.el.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/city=La\+Carolina/);
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%la carolina%'`,
    );
    expect(n).toBeGreaterThan(0);
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
  });

  test('in Spanish: the suggestions, their counts and the field are Spanish, and axe finds nothing serious', async ({
    page,
    data,
  }) => {
    await page.goto(`${data.url}/es/search-properties`);
    const s = search(page);
    await expect(s.el.getByLabel('Ubicación')).toBeVisible();
    await s.box.focus();
    await page.keyboard.type('cumba', { delay: 30 });
    const option = s.list.getByRole('option', { name: /^Cumbayá Ciudad/ });
    await expect(option).toContainText(/\d+ propiedades/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await option.click();
    await expect(page).toHaveURL(/place=cumbaya(&|$)/);
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and public.search_fold(city) = 'cumbaya'`,
    );
    await expect(s.heading).toHaveText(`${fmt(n)} propiedades`);
  });
});

test.describe('more filters', () => {
  test('a pool, built from 2010 and a lot of at least 300 m²: the count is the SQL count, the address carries the spec names, the button counts them', async ({
    page,
    data,
  }) => {
    await page.goto(`${data.url}/search-properties`);
    const s = search(page);
    await s.el.locator('[part="more-filters"]').click();
    await s.el.getByLabel('Pool').check();
    await s.el.getByLabel('Built from').fill('2010');
    await s.el.getByLabel('Minimum lot (m²)').fill('300');
    await s.el.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/pool=true/);
    expect(page.url()).toMatch(/yearBuiltFrom=2010/);
    expect(page.url()).toMatch(/minLotSize=300/);
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and 'pool' = any(features) and year_built >= 2010 and lot_size >= 300`,
    );
    expect(n).toBeGreaterThan(0);
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    await expect(s.el.locator('[part="more-filters"]')).toContainText('3');
    // each applies as a chip that removes it; "Clear all" removes them all
    const chips = s.el.locator('[part="chip"]');
    await expect(chips).toHaveText(['built from 2010×', 'lot from 300 m²×', 'Pool×']);
    await s.el.getByRole('button', { name: 'Remove filter: Pool' }).click();
    await expect(page).not.toHaveURL(/pool=true/);
    const [{ m } = { m: 0 }] = await data.sql<{ m: number }>(
      `select count(*)::int as m from internal.listings where ${ACTIVE} and year_built >= 2010 and lot_size >= 300`,
    );
    await expect(s.heading).toHaveText(`${fmt(m)} properties`);
    await s.el.getByRole('button', { name: 'Clear all' }).click();
    await expect(chips).toHaveCount(0);
    expect(page.url()).not.toMatch(/yearBuiltFrom|minLotSize/);
    const [{ total } = { total: 0 }] = await data.sql<{ total: number }>(
      `select count(*)::int as total from internal.listings where ${ACTIVE}`,
    );
    await expect(s.heading).toHaveText(`${fmt(total)} properties`);
  });
});
