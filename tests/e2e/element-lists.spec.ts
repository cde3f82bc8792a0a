/**
 * What the server writes inside an element from its first answer (server/pages/listed-pages.ts), in
 * a browser: without JavaScript a search page is its list, on a phone as on a desktop; with it, the
 * directory and the home page's featured block start from what their pages carry. (The search's own start from its answer is in
 * site-pages.spec.ts, with its structured data.)
 */
import { expect, test } from './fixtures.ts';

test.describe("the elements' first answers in their pages", () => {
  test('without JavaScript, a search page is its list: the listings, the count and the way on, on a phone as on a desktop', async ({
    browser,
    data,
  }) => {
    for (const width of [320, 390, 1366]) {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${data.url}/es/search-properties/quito`);
      const list = page.locator('exp-property-search .search-list');
      await expect(list.getByRole('heading', { level: 2 })).toHaveText(/^\d[\d,]* propiedades$/);
      await expect(list.locator('.listing-tile')).toHaveCount(24);
      await list.locator('.listing-tile').first().scrollIntoViewIfNeeded();
      await expect(list.locator('.listing-tile').first()).toBeVisible();
      const next = list.getByRole('link', { name: 'Siguiente' });
      await next.scrollIntoViewIfNeeded();
      await expect(next).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), String(width)).toBe(
        0,
      );
      await next.click();
      await expect(page).toHaveURL(`${data.url}/es/search-properties/quito?city=Quito&page=2`);
      await expect(page.locator('exp-property-search .search-list__showing')).toHaveText(/^Mostrando 25 - 48 de /);
      await context.close();
    }
  });

  test("the directory starts from the agents its page carries: no call at load, the server's list hidden once it has drawn, and a search asks", async ({
    page,
    data,
  }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/rest/v1/agents')) asked.push(r.url());
    });
    await page.goto(`${data.url}/findanagent`);
    const directory = page.locator('exp-agent-directory');
    await expect(directory.locator('[part="agent-card"]').first()).toBeVisible();
    await expect(directory.locator('.agent-list')).toBeHidden();
    const listed = await directory
      .locator('.agent-tiles a')
      .evaluateAll((els) => els.map((a) => a.textContent?.trim()));
    const cards = await directory
      .locator('[part="agent-card"]')
      .evaluateAll((els) => els.map((b) => b.textContent?.trim()));
    expect(cards).toEqual(listed);
    expect(asked).toEqual([]);
    await directory.getByRole('searchbox').fill('andrade');
    await directory.getByRole('searchbox').press('Enter');
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    await expect(directory.locator('[part="agent-card"]').first()).toContainText('Andrade');
  });

  test("the home page's featured block starts from the listings its page carries: no call when it loads, its cards the server's tiles", async ({
    page,
    data,
  }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/rpc/search_listings')) asked.push(r.url());
    });
    await page.goto(`${data.url}/`);
    const block = page.locator('exp-featured-listings');
    await block.scrollIntoViewIfNeeded();
    await expect(block.locator('[part~="card"]')).toHaveCount(8);
    await expect(block.locator('.featured-list')).toBeHidden();
    const tiles = await block
      .locator('.listing-tiles a')
      .evaluateAll((els) => els.map((a) => /\/properties\/(\d+)-/.exec(a.getAttribute('href') ?? '')?.[1]));
    const cards = await block
      .locator('[part~="card"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-property-id')));
    expect(cards).toEqual(tiles);
    expect(asked).toEqual([]);
  });
});
