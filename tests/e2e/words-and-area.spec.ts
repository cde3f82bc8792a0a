/**
 * Words and a drawn area (docs/decisions.md #27), end to end as a visitor: "piscina" in the
 * keywords finds the listings that say it (marked in the cards) and "-piscina" leaves them out; an
 * area drawn on the map over part of Cumbayá limits the results to it, the count equal to a count
 * made here, apart from the database (a point-in-polygon test over every listing's position); a
 * reload keeps it, and removing it brings the whole search back. On a phone the area is a lasso.
 */
import type { Page } from '@playwright/test';
import { decodePolygon, type LngLat } from '../../core/protocol/polygon.ts';
import {
  ACTIVE,
  cardIds,
  expect,
  fmt,
  openSearch,
  POOL,
  search,
  seriousAxeViolations,
  settled,
  test,
} from './fixtures.ts';

/** Whether a point lies in a polygon: a ray to the east crosses its edges an odd number of times. */
function inside([x, y]: LngLat, polygon: readonly LngLat[]): boolean {
  let odd = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i] as LngLat;
    const [xj, yj] = polygon[j] as LngLat;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

/** The map of the search, once ready, and a point of it as fractions of its width and height, in page pixels. */
async function mapReady(page: Page) {
  const target = search(page).el.locator('[part="map"] [data-status="ready"]');
  await expect(target).toBeVisible({ timeout: 20_000 });
  // the map has fitted the search's listings; all of it in the window
  await settled(page);
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  return async (fx: number, fy: number): Promise<[number, number]> => {
    const box = (await target.boundingBox())!;
    return [box.x + box.width * fx, box.y + box.height * fy];
  };
}

/** Opens "More filters" unless it is open. */
async function moreFilters(page: Page) {
  const button = search(page).el.locator('[part="more-filters"]');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}

test.describe('words', () => {
  test('"piscina" finds the listings that say it, best match first, the word marked; "-piscina" leaves them out; the address keeps the words', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const s = await openSearch(page, data.url);
    await moreFilters(page);
    await s.el.getByLabel('Keywords').fill('piscina');
    await s.el.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/keywords=piscina/);
    expect(page.url()).toMatch(/sort=relevance/);
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and ${POOL}`,
    );
    expect(n).toBeGreaterThan(20);
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    await expect(s.el.getByLabel('Sort by')).toHaveValue('relevance');
    const ids = await cardIds(page);
    const rows = await data.sql<{ id: number; pool: boolean }>(
      `select id, ${POOL} as pool from internal.listings where id = any($1::bigint[])`,
      [ids],
    );
    expect(rows.every((r) => r.pool)).toBe(true);
    // the best matches say it in the title: marked there
    await expect(s.cards.first().locator('mark[part="match"]').first()).toHaveText(/^piscinas?$/i);
    await expect(s.el.locator('[part="chip"]', { hasText: '“piscina”' })).toBeVisible();

    await moreFilters(page);
    await s.el.getByLabel('Keywords').fill('-piscina');
    await s.el.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/keywords=-piscina/);
    const [{ m } = { m: 0 }] = await data.sql<{ m: number }>(
      `select count(*)::int as m from internal.listings where ${ACTIVE} and not ${POOL}`,
    );
    await expect(s.heading).toHaveText(`${fmt(m)} properties`);
    const others = await cardIds(page);
    const again = await data.sql<{ pool: boolean }>(
      `select ${POOL} as pool from internal.listings where id = any($1::bigint[])`,
      [others],
    );
    expect(again.some((r) => r.pool)).toBe(false);
    await expect(s.el.locator('mark')).toHaveCount(0);
    await page.reload();
    await expect(search(page).heading).toHaveText(`${fmt(m)} properties`);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('an area drawn on the map', () => {
  test('by clicks over part of Cumbayá: only the listings inside, the count equal to one made apart; a corner dragged changes it; a reload keeps it; removing it brings the whole search back', async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${data.url}/search-properties?place=cumbaya&placeName=Cumbay%C3%A1`);
    const s = search(page);
    const located = await data.sql<{ id: number; lat: number; lng: number }>(
      `select id, lat, lng from internal.listings where ${ACTIVE} and public.search_fold(city) = 'cumbaya' and lat is not null`,
    );
    const all = located.length;
    expect(all).toBeGreaterThan(30);
    const at = await mapReady(page);
    await s.el.locator('[part="draw-area"]').click();
    await expect(s.el.locator('[part="draw-hint"]')).toContainText('Click to add corners');
    // the left half of the map, which has fitted Cumbayá's listings; the first corner again ends it
    for (const [fx, fy] of [
      [0.15, 0.2],
      [0.5, 0.2],
      [0.5, 0.8],
      [0.15, 0.8],
      [0.15, 0.2],
    ] as const) {
      await page.mouse.click(...(await at(fx, fy)));
      // a visitor's pace: OpenLayers takes two clicks within 250 ms for a double click (a loaded machine only spaces them more)
      await page.waitForTimeout(300);
    }
    await expect(page).toHaveURL(/[?&]polygon=[A-Za-z0-9_-]+/);
    const polygon = decodePolygon(new URL(page.url()).searchParams.get('polygon'))!;
    expect(polygon).toHaveLength(4);
    const expected = located.filter((r) => inside([r.lng, r.lat], polygon)).map((r) => Number(r.id));
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(all);
    await expect(s.heading).toHaveText(`${fmt(expected.length)} properties`);
    const shown = await cardIds(page);
    expect(shown.every((id) => expected.includes(id))).toBe(true);
    await expect(s.el.locator('[part="chip"]', { hasText: 'Drawn area' })).toBeVisible();

    // a corner dragged further east: the area changes, and the search with it
    const drawn = new URL(page.url()).searchParams.get('polygon');
    await page.mouse.move(...(await at(0.5, 0.8)));
    await page.mouse.down();
    await page.mouse.move(...(await at(0.6, 0.85)), { steps: 8 });
    await page.mouse.move(...(await at(0.7, 0.9)), { steps: 8 });
    await page.mouse.up();
    await expect(page).not.toHaveURL(new RegExp(`polygon=${drawn}(&|$)`));
    const edited = decodePolygon(new URL(page.url()).searchParams.get('polygon'))!;
    expect(edited).toHaveLength(4);
    const inEdited = located.filter((r) => inside([r.lng, r.lat], edited)).length;
    expect(inEdited).toBeGreaterThanOrEqual(expected.length);
    await expect(s.heading).toHaveText(`${fmt(inEdited)} properties`);

    await page.reload();
    await expect(search(page).heading).toHaveText(`${fmt(inEdited)} properties`);
    await mapReady(page);
    await search(page).el.locator('[part="clear-drawn-area"]').click();
    await expect(page).not.toHaveURL(/polygon=/);
    await expect(search(page).heading).toHaveText(
      `${fmt(located.length + Number((await data.sql<{ n: number }>(`select count(*)::int as n from internal.listings where ${ACTIVE} and public.search_fold(city) = 'cumbaya' and lat is null`))[0]?.n ?? 0))} properties`,
    );
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('on a phone (390 px, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the filters open in a full-screen sheet that counts live before applying; a finger draws a lasso; axe finds nothing serious in either language', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const s = await openSearch(page, data.url);
    // the location box by touch: a suggestion tapped
    await s.box.tap();
    await page.keyboard.type('cumba', { delay: 30 });
    await s.list.getByRole('option', { name: /^Cumbayá City/ }).tap();
    await expect(page).toHaveURL(/place=cumbaya(&|$)/);
    const [{ c } = { c: 0 }] = await data.sql<{ c: number }>(
      `select count(*)::int as c from internal.listings where ${ACTIVE} and public.search_fold(city) = 'cumbaya'`,
    );
    await expect(s.heading).toHaveText(`${fmt(c)} properties`);
    await s.el.getByRole('button', { name: 'Clear all' }).tap();
    await s.el.locator('[part="more-filters"]').tap();
    const sheet = s.el.locator('dialog[part="filter-sheet"]');
    await expect(sheet).toBeVisible();
    // the whole screen, once it has slid in
    const screen = await page.evaluate(() => [0, 0, document.documentElement.clientWidth, window.innerHeight]);
    expect(screen[2]).toBe(390);
    await expect.poll(async () => Object.values((await sheet.boundingBox()) ?? {})).toEqual(screen);
    const apply = sheet.locator('[part="sheet-apply"]');
    const [{ all } = { all: 0 }] = await data.sql<{ all: number }>(
      `select count(*)::int as all from internal.listings where ${ACTIVE}`,
    );
    await expect(apply).toHaveText(`Show ${fmt(all)} properties`);
    await sheet.getByLabel('Pool').check();
    await sheet.getByLabel('Beds').selectOption('3');
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and 'pool' = any(features) and bedrooms >= 3`,
    );
    expect(n).toBeGreaterThan(0);
    await expect(apply).toHaveText(`Show ${fmt(n)} properties`);
    // nothing applied yet
    await expect(s.heading).toHaveText(`${fmt(all)} properties`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sheet.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await apply.tap();
    await expect(sheet).toBeHidden();
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    expect(page.url()).toMatch(/pool=true/);

    // a lasso with a finger around the middle of the map
    await s.el.getByRole('button', { name: 'Clear all' }).tap();
    await expect(s.heading).toHaveText(`${fmt(all)} properties`);
    // a phone's map waits behind its button
    await s.el.locator('[part="map-toggle"]').tap();
    const target = s.el.locator('[part="map"] [data-status="ready"]');
    await expect(target).toBeVisible({ timeout: 20_000 });
    await settled(page);
    await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await s.el.locator('[part="draw-area"]').tap();
    await expect(s.el.locator('[part="draw-hint"]')).toHaveText('Draw around the area with your finger.');
    const map = (await target.boundingBox())!;
    const [cx, cy, r] = [map.x + map.width / 2, map.y + map.height / 2, Math.min(map.width, map.height) * 0.3];
    const cdp = await page.context().newCDPSession(page);
    const point = (i: number) => ({
      x: cx + r * Math.cos((i / 40) * 2 * Math.PI),
      y: cy + r * Math.sin((i / 40) * 2 * Math.PI),
    });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point(0)] });
    for (let i = 1; i <= 40; i++)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point(i)] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(page).toHaveURL(/[?&]polygon=[A-Za-z0-9_-]+/);
    const polygon = decodePolygon(new URL(page.url()).searchParams.get('polygon'))!;
    expect(polygon.length).toBeGreaterThan(8);
    const located = await data.sql<{ lat: number; lng: number }>(
      `select lat, lng from internal.listings where ${ACTIVE} and lat is not null`,
    );
    const expected = located.filter((r) => inside([r.lng, r.lat], polygon)).length;
    await expect(s.heading).toHaveText(`${fmt(expected)} ${expected === 1 ? 'property' : 'properties'}`);
    expect(consoleErrors).toEqual([]);
  });

  test('in Spanish at 320 px, by keyboard only: the sheet fits, is Spanish, counts, applies with Enter and closes with Escape; axe finds nothing serious', async ({
    page,
    data,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${data.url}/es/search-properties`);
    const s = search(page);
    await expect(s.heading).toHaveText(/propiedades/);
    await s.el.locator('[part="more-filters"]').focus();
    await page.keyboard.press('Enter');
    const sheet = s.el.locator('dialog[part="filter-sheet"]');
    await expect(sheet.getByRole('heading', { name: 'Filtros' })).toBeVisible();
    await expect(sheet.locator('[part="sheet-apply"]')).toHaveText(/^Ver [\d,]+ propiedades$/);
    expect(await sheet.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    for (const field of await sheet.locator('input, select, button').all()) {
      const b = await field.boundingBox();
      if (b) expect(b.x + b.width, await field.evaluate((e) => e.outerHTML.slice(0, 80))).toBeLessThanOrEqual(320);
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    // the focus is in the sheet: Tab reaches the features, Space checks one, Enter in a field applies
    const pool = sheet.getByLabel('Piscina');
    for (
      let i = 0;
      i < 30 && !(await pool.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement));
      i++
    )
      await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(pool).toBeChecked();
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and 'pool' = any(features)`,
    );
    await expect(sheet.locator('[part="sheet-apply"]')).toHaveText(`Ver ${fmt(n)} propiedades`);
    await sheet.getByLabel('Palabras clave').focus();
    await page.keyboard.press('Enter');
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/pool=true/);
    await s.el.locator('[part="more-filters"]').focus();
    await page.keyboard.press('Enter');
    await expect(sheet).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
  });
});
