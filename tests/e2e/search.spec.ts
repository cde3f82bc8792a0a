/**
 * The property search end to end against the real, seeded server: counts and orders compared with
 * SQL, the URL state, the detail dialog, Spanish, accessibility, and screenshots for a person to
 * look at (the map: search-map.spec.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { DATA_DEADLINE_MS } from '../../widgets/lib/data/client.ts';
import {
  ACTIVE,
  cardIds,
  centred,
  englishOnlyPhrases,
  expect,
  fmt,
  PLACE_TEXT,
  screenshotDir,
  search,
  seriousAxeViolations,
  settled,
  test,
  visibleText,
} from './fixtures.ts';

const shots = screenshotDir('');

/** Moves the page's clock (page.clock.install()) one data deadline at a time until `shown` is visible: the element has given up (and retried, where it does). */
async function pastDeadlinesUntil(page: Page, shown: Locator): Promise<void> {
  await expect
    .poll(async () => {
      await page.clock.runFor(DATA_DEADLINE_MS);
      return shown.isVisible();
    })
    .toBe(true);
}

test.describe('property search', () => {
  test('a search with every filter shows exactly the count SQL gives', async ({ page, data, consoleErrors }) => {
    await page.goto(`${data.url}/search-properties`);
    const s = search(page);
    await expect(s.heading).toHaveText(/properties$/);
    await page.getByLabel('Property type').selectOption('house');
    await page.getByLabel('Location').fill('Quito');
    await page.getByLabel('Beds').selectOption('3');
    await page.getByLabel('Baths').selectOption('2');
    await page.getByLabel('Minimum area').selectOption('150');
    await page.getByLabel('Price minimum').selectOption('100000');
    await page.getByLabel('Price maximum').selectOption('1000000');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/propertyType=house/);
    for (const p of ['city=Quito', 'beds=3', 'baths=2', 'minSqft=150', 'minPrice=100000', 'maxPrice=1000000'])
      expect(page.url()).toContain(p);
    const [row] = await data.sql<{ n: number }>(
      `select count(*) as n from internal.listings where ${ACTIVE} and property_type ilike '%house%' and ${PLACE_TEXT} like '%quito%' and bedrooms >= 3 and bathrooms >= 2 and square_feet >= 150 and price >= 100000 and price <= 1000000`,
    );
    const n = Number(row?.n);
    expect(n).toBeGreaterThan(24);
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    await expect(s.results).toContainText(`Showing 1 - 24 of ${fmt(n)}`);
    await expect(s.cards).toHaveCount(24);
    expect(consoleErrors).toEqual([]);
  });

  test('the last page shows the right Showing text', async ({ page, data }) => {
    const [row] = await data.sql<{ n: number }>(`select count(*) as n from internal.listings where ${ACTIVE}`);
    const total = Number(row?.n);
    const last = Math.ceil(total / 24);
    await page.goto(`${data.url}/search-properties?page=${last}`);
    const s = search(page);
    await expect(s.results).toContainText(`Showing ${fmt((last - 1) * 24 + 1)} - ${fmt(total)} of ${fmt(total)}`);
    await expect(s.cards).toHaveCount(total - (last - 1) * 24);
    await expect(page.getByRole('button', { name: `Page ${last}` })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('button', { name: 'Next', exact: true })).toBeDisabled();
    // a page past the end of an old link lands on the last page
    await page.goto(`${data.url}/search-properties?page=${last + 50}`);
    await expect(s.results).toContainText(`of ${fmt(total)}`);
    await expect(page).toHaveURL(new RegExp(`page=${last}$`));
  });

  test('each sort order is the order of the data', async ({ page, data }) => {
    const orders: Record<string, string> = {
      featured: 'created_at desc, id desc',
      newest: 'created_at desc, id desc',
      price_asc: 'price asc nulls last, id asc',
      price_desc: 'price desc nulls last, id desc',
    };
    for (const [sort, order] of Object.entries(orders)) {
      await page.goto(`${data.url}/search-properties?city=Cuenca${sort === 'featured' ? '' : `&sort=${sort}`}`);
      const expected = await data.sql<{ id: number }>(
        `select id from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%cuenca%' order by ${order} limit 24`,
      );
      await expect.poll(() => cardIds(page), { message: sort }).toEqual(expected.map((r) => Number(r.id)));
    }
    // the sort control changes the order and goes back to page 1
    await page.goto(`${data.url}/search-properties?city=Cuenca&page=2`);
    await page.getByLabel('Sort by').selectOption('price_desc');
    await expect(page).toHaveURL(/sort=price_desc/);
    expect(page.url()).not.toContain('page=');
    const expected = await data.sql<{ id: number }>(
      `select id from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%cuenca%' order by price desc nulls last, id desc limit 24`,
    );
    await expect.poll(() => cardIds(page)).toEqual(expected.map((r) => Number(r.id)));
  });

  test('a reload reproduces the search; back and forward restore it', async ({ page, data }) => {
    await page.goto(`${data.url}/search-properties`);
    const s = search(page);
    await page.getByLabel('Location').fill('cuenca');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/city=cuenca/);
    const [row] = await data.sql<{ n: number }>(
      `select count(*) as n from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%cuenca%'`,
    );
    await expect(s.heading).toHaveText(`${fmt(Number(row?.n))} properties`);
    await (await centred(page.getByRole('button', { name: 'Next', exact: true }))).click();
    await expect(page).toHaveURL(/page=2/);
    // page 2 of the default order, from the data: read from the cards it would race the page change
    const page2 = (
      await data.sql<{ id: number }>(
        `select id from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%cuenca%' order by created_at desc, id desc limit 24 offset 24`,
      )
    ).map((r) => Number(r.id));
    await expect.poll(() => cardIds(page)).toEqual(page2);
    await page.reload();
    await expect(page.getByLabel('Location')).toHaveValue('cuenca');
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect.poll(() => cardIds(page)).toEqual(page2);
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await page.goBack();
    await expect(page.getByLabel('Location')).toHaveValue('');
    await page.goForward();
    await expect(page.getByLabel('Location')).toHaveValue('cuenca');
  });

  test('the detail opens from a card, from the keyboard and from ?property=', async ({ page, data }) => {
    await page.goto(`${data.url}/search-properties?city=Manta`);
    const s = search(page);
    const first = s.cards.first();
    const title = (await first.locator('.exp-card-link').textContent()) ?? '';
    await first.locator('img').first().click();
    await expect(s.dialog.locator('h2')).toHaveText(title);
    // the dialog's address is the listing's own page
    const id = await first.getAttribute('data-property-id');
    await expect(page).toHaveURL(new RegExp(`/properties/${id}-[a-z0-9-]+$`));
    await page.keyboard.press('Escape');
    await expect(s.dialog).toHaveCount(0);
    await expect(page).toHaveURL(`${data.url}/search-properties?city=Manta`);
    // keyboard only
    await first.locator('.exp-card-link').focus();
    await page.keyboard.press('Enter');
    await expect(s.dialog.locator('h2')).toHaveText(title);
    await expect(s.dialog.getByRole('button', { name: 'Close' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(first.locator('.exp-card-link')).toBeFocused();
    // a shared link opens the property, even when it is not on the first page
    const [far] = await data.sql<{ id: number; title: string }>(
      `select id, title from internal.listings where ${ACTIVE} and city = 'Loja' order by id desc limit 1`,
    );
    await page.goto(`${data.url}/search-properties?property=${far?.id}`);
    await expect(s.dialog.locator('h2')).toHaveText(String(far?.title));
    // an inactive listing's link opens nothing
    const [gone] = await data.sql<{ id: number }>("select id from internal.listings where status <> '1' limit 1");
    await page.goto(`${data.url}/search-properties?property=${gone?.id}`);
    await expect(s.cards.first()).toBeVisible();
    await expect(s.dialog).toHaveCount(0);
  });

  test('in Spanish every visible string is Spanish', async ({ page, data }) => {
    await page.goto(`${data.url}/search-properties?lang=es&city=Cumbay%C3%A1`);
    const s = search(page);
    await expect(s.heading).toHaveText(/propiedades$/);
    await expect(s.map).toHaveAttribute('data-status', 'ready');
    const phrases = englishOnlyPhrases();
    expect(phrases.length).toBeGreaterThan(50);
    const check = async () => {
      const text = await visibleText(page);
      return phrases.filter((p) => text.includes(p));
    };
    expect(await check()).toEqual([]);
    await s.cards.first().locator('.exp-card-link').click();
    await expect(s.dialog).toBeVisible();
    // a label of the facts every listing has (a lot says no rooms: core/view/listing-facts.tsx)
    await expect(s.dialog).toContainText('Área');
    expect(await check()).toEqual([]);
  });

  test('has no serious or critical accessibility violations', async ({ page, data }) => {
    await page.goto(`${data.url}/search-properties?city=Ibarra`);
    const s = search(page);
    await expect(s.cards.first()).toBeVisible();
    await expect(s.map).toHaveAttribute('data-status', 'ready');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await s.cards.first().locator('.exp-card-link').click();
    await expect(s.dialog).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  for (const [w, h] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    test(`screenshots at ${w}x${h}`, async ({ page, data }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${data.url}/search-properties?city=Cumbay%C3%A1`);
      const s = search(page);
      await expect(s.cards.first()).toBeVisible();
      // a phone's map waits behind its button (pictured folded, then shown)
      if (w < 640) {
        await settled(page);
        await page.screenshot({ path: resolve(shots, `search-${w}-folded.png`), fullPage: true });
        await s.el.locator('[part="map-toggle"]').click();
      }
      await expect(s.map).toHaveAttribute('data-status', 'ready');
      await settled(page);
      await page.screenshot({ path: resolve(shots, `search-${w}.png`), fullPage: true });
      await s.cards.first().locator('.exp-card-link').click();
      await expect(s.dialog).toBeVisible();
      await settled(page);
      await page.screenshot({ path: resolve(shots, `detail-${w}.png`) });
    });
  }

  test('the cards scroll in a box of their own only beside the map; another page starts at its first card; the pages one row on a phone', async ({
    page,
    data,
  }) => {
    const s = search(page);
    const list = s.el.locator('[part="list"]');
    const boxed = () => list.evaluate((e) => e.scrollHeight > e.clientHeight + 1);
    const next = page.getByRole('button', { name: 'Next', exact: true });
    // a phone: the cards are the page's (a box in the page would hold a finger that means to scroll the page)
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/search-properties`);
    await expect(s.cards).toHaveCount(24);
    expect(await boxed()).toBe(false);
    await next.scrollIntoViewIfNeeded();
    await next.click();
    await expect(s.results).toContainText('Showing 25 - 48');
    // the heading back in view, under the site's header, the first card after it
    await expect
      .poll(() => s.heading.evaluate((h) => Math.round(h.getBoundingClientRect().top)), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(() => s.heading.evaluate((h) => h.getBoundingClientRect().top), { timeout: 10_000 })
      .toBeLessThan(200);
    // the pages one row of buttons on a phone, down to 320 px (the arrows named, their words shown where there is room)
    const rows = () =>
      s.el
        .locator('[part="pagination"]')
        .evaluate((nav) => new Set([...nav.querySelectorAll('button')].map((b) => b.getBoundingClientRect().top)).size);
    expect(await rows()).toBe(1);
    await page.setViewportSize({ width: 320, height: 700 });
    await expect.poll(rows).toBe(1);
    await expect(next.getByText('Next')).toBeHidden();
    // beside the map: the cards scroll in their own box, which another page sets back to its top
    await page.setViewportSize({ width: 1366, height: 800 });
    await expect(next.getByText('Next')).toBeVisible();
    await expect.poll(boxed, { timeout: 10_000 }).toBe(true);
    await list.evaluate((e) => e.scrollTo(0, e.scrollHeight));
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await expect(s.results).toContainText('Showing 1 - 24');
    expect(await list.evaluate((e) => e.scrollTop)).toBe(0);
  });

  test('an answer that never comes (a stalled phone network) is given up after the deadline: the error and Try Again, which then works', async ({
    page,
    data,
  }) => {
    // the deadline (widgets/lib/data/client.ts) and the one retry of a failed page, on the page's
    // clock: moved past the deadline while the requests stall, until the search gives up
    const s = search(page);
    await page.clock.install();
    await page.goto(`${data.url}/search-properties`);
    await expect(s.cards).toHaveCount(24);
    const stalled: string[] = [];
    await page.route('**/rest/v1/rpc/search_listings*', (route) => void stalled.push(route.request().url()));
    await page.getByLabel('Location').fill('olon');
    await page.keyboard.press('Enter');
    const again = s.results.getByRole('button', { name: 'Try Again' });
    // the count and the page's rows; nothing gives up before the deadline
    await expect.poll(() => stalled.length).toBe(2);
    await page.clock.runFor(DATA_DEADLINE_MS - 1000);
    await expect(s.results.locator('[part="list"]')).toHaveAttribute('aria-busy', 'true');
    await expect(again).toBeHidden();
    await pastDeadlinesUntil(page, again);
    // each asked again after it failed (widgets/lib/data/cache.ts) before the search gave up (a
    // routed request reaches the test when the route has it: waited for, not assumed there)
    const first = stalled.slice(0, 2);
    await expect.poll(() => first.map((url) => stalled.filter((u) => u === url).length >= 2)).toEqual([true, true]);
    await page.unroute('**/rest/v1/rpc/search_listings*');
    await again.click();
    const [row] = await data.sql<{ n: number }>(
      `select count(*) as n from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%olon%'`,
    );
    await expect(s.heading).toHaveText(`${fmt(Number(row?.n))} properties`);
    await expect(s.cards.first()).toBeVisible();
  });

  test('an answer that stops half-way (headers, then nothing) is given up at the same deadline', async ({
    page,
    data,
  }) => {
    // a partner's page and a data API on one origin (a page of a test's route would be a public
    // address to Chromium, which keeps it from a loopback one): the API answers its headers and the
    // start of a body, then never more
    let asked = 0;
    const stalling = createServer((req, res) => {
      if (req.url === '/page') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return void res.end(
          `<!doctype html><script type="module" src="${data.url}/widgets/exp-widgets.js"></script><exp-featured-listings api-url="http://${req.headers.host}"></exp-featured-listings>`,
        );
      }
      asked++;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[{"id":');
    });
    await new Promise<void>((r) => stalling.listen(0, '127.0.0.1', r));
    try {
      // on the page's clock, moved past the deadline while the answer stalls
      await page.clock.install();
      await page.goto(`http://127.0.0.1:${(stalling.address() as AddressInfo).port}/page`);
      const featured = page.locator('exp-featured-listings');
      await expect(featured.locator('[part="skeleton"]').first()).toBeVisible();
      await expect.poll(() => asked).toBe(1);
      await page.clock.runFor(DATA_DEADLINE_MS - 1000);
      await expect(featured.locator('[part="skeleton"]').first()).toBeVisible();
      await pastDeadlinesUntil(page, featured.getByRole('alert'));
      await expect(featured.getByRole('alert')).toHaveText('The featured properties could not be loaded.');
      expect(asked).toBeGreaterThanOrEqual(1);
    } finally {
      stalling.closeAllConnections();
      await new Promise((r) => stalling.close(r));
    }
  });

  test('a page with nothing but the script and the element shows a working search', async ({ page, data }) => {
    await page.route(`${data.url}/bare-page`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><script type="module" src="/widgets/exp-widgets.js"></script><exp-property-search></exp-property-search>',
      }),
    );
    await page.goto(`${data.url}/bare-page`);
    const s = search(page);
    await expect(s.cards).toHaveCount(24);
    await page.getByLabel('Location').fill('olon');
    await page.keyboard.press('Enter');
    const [row] = await data.sql<{ n: number }>(
      `select count(*) as n from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%olon%'`,
    );
    await expect(s.heading).toHaveText(`${fmt(Number(row?.n))} properties`);
  });
});
