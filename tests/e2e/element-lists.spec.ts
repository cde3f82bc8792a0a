/**
 * What the server writes inside an element from its first answer (server/pages/listed-pages.ts), in
 * a browser: without JavaScript a search page is its list, on a phone as on a desktop; with it, the
 * directory and the home page's featured block start from what their pages carry. (The search's own start from its answer is in
 * site-pages.spec.ts, with its structured data.)
 */
import { expect, sideways, test } from './fixtures.ts';

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
      expect(await sideways(page), String(width)).toBe(0);
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
      .locator('.agent-tiles .listing-tile__title')
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

  test("a card's next photo is fetched once the visitor comes to its carousel, not for every card as the page loads; the header is solid on a page that opens scrolled", async ({
    page,
    data,
  }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    const photos: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'image') photos.push(new URL(r.url()).pathname);
    });
    await page.goto(`${data.url}/search-properties`);
    const cards = page.locator('exp-property-search [part~="card"]');
    await expect(cards).toHaveCount(24);
    // the answer the page carries: each card's photos; a second photo that is no card's first is fetched only when warmed
    const rows = JSON.parse(
      (await page.locator('exp-property-search script[data-exp-search]').textContent()) ?? '{}',
    ) as { rows: Array<{ id: number; images: unknown }> };
    const path = (src: string) => new URL(src, data.url).pathname;
    const photosOf = rows.rows.map((r) => (Array.isArray(r.images) ? (r.images as string[]).map(path) : []));
    const firsts = new Set(photosOf.map((p) => p[0]));
    const card = photosOf.findIndex((p) => p.length > 1 && !firsts.has(p[1]));
    expect(card).toBeGreaterThanOrEqual(0);
    const seconds = photosOf.flatMap((p) => p.slice(1)).filter((p) => !firsts.has(p));
    await expect(cards.first().locator('img')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(photos.filter((p) => seconds.includes(p))).toEqual([]);
    const next = photosOf[card]![1]!;
    await cards.nth(card).locator('[part="carousel"]').hover();
    await expect.poll(() => photos.includes(next)).toBe(true);

    // a page reloaded below its hero (the browser restores where it was): the header is solid from the start
    const bar = page.locator('exp-site-header [part~="bar"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(bar).toHaveAttribute('data-state', 'top');
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect(bar).toHaveAttribute('data-state', 'scrolled');
    await page.reload();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(20);
    await expect(bar).toHaveAttribute('data-state', 'scrolled');
  });
});
