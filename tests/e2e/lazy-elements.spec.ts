/**
 * An element written loading="lazy" (docs/embedding.md "The script"): its code comes when it nears
 * the view, one screen ahead once the page has moved, not with the page. On our own site the footer,
 * "Recently viewed" and the home page's featured listings are written so; on a partner's page any
 * element may be. Measured by the requests the browser makes, on the real server and bundle.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** the chunks a page has asked for so far, by the element's name in their file name */
function chunksAsked(page: Page): () => string {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/widgets\/chunks\//.test(request.url())) asked.push(new URL(request.url()).pathname);
  });
  return () => asked.join(' ');
}

const defined = (page: Page, tag: string) => page.evaluate((t) => customElements.get(t) !== undefined, tag);

test.describe('elements below the fold', () => {
  // on a desktop the cards scroll in a box of their own beside the map: the footer ends up less than
  // one screen below the first, which counts only once the visitor scrolls
  for (const [screen, width, height] of [
    ['on a phone', 390, 844],
    ['on a 1366 px screen', 1366, 900],
  ] as const) {
    test(`the search page ${screen}: the footer and Recently viewed come when the visitor scrolls near them, not with the page`, async ({
      page,
      data,
      consoleErrors,
    }) => {
      await page.setViewportSize({ width, height });
      const asked = chunksAsked(page);
      await page.goto(`${data.url}/search-properties`);
      await expect(page.locator('exp-property-search [part~="card"]').first()).toBeVisible();
      // the header, which the same scan of the page loads, and the language switch it draws are here
      await expect(page.locator('exp-site-header [part="group"]')).toBeVisible();
      // the map and its tiles, the cards' photos: the page has settled
      await page.waitForLoadState('networkidle');
      // nor are they preloaded by the page's head
      await expect(page.locator('link[rel="modulepreload"][href*="site-footer.element"]')).toHaveCount(0);
      await expect(page.locator('link[rel="modulepreload"][href*="recently-viewed.element"]')).toHaveCount(0);
      expect(asked()).not.toMatch(/site-footer\.element|recently-viewed\.element/);
      expect(await defined(page, 'exp-site-footer')).toBe(false);
      expect(await defined(page, 'exp-recently-viewed')).toBe(false);

      // to the end of the page: both come, and the footer draws itself
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(page.locator('exp-site-footer [part="copyright"]')).toBeVisible();
      expect(asked()).toMatch(/site-footer\.element/);
      expect(asked()).toMatch(/recently-viewed\.element/);
      expect(consoleErrors).toEqual([]);
    });
  }

  test('the home page on a 1280 px screen: the featured listings, just below the first screen, wait while it is laid out and come with the first scroll, before they are in view', async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const asked = chunksAsked(page);
    await page.goto(`${data.url}/`);
    await expect(page.locator('exp-site-header [part="group"]')).toBeVisible();
    await page.waitForLoadState('networkidle');
    const featured = page.locator('exp-featured-listings');
    const top = () => featured.evaluate((el) => el.getBoundingClientRect().top / window.innerHeight);
    // within the screen ahead, not in view: a first report, which does not count
    expect(await top()).toBeGreaterThan(1);
    expect(await top()).toBeLessThan(2);
    expect(asked()).not.toMatch(/featured-listings\.element/);
    expect(await defined(page, 'exp-featured-listings')).toBe(false);

    await page.mouse.move(640, 400);
    await page.mouse.wheel(0, 60);
    await expect.poll(() => defined(page, 'exp-featured-listings')).toBe(true);
    expect(await top()).toBeGreaterThan(1);
    await expect(featured.locator('[part~="card"]').first()).toBeAttached();
    expect(consoleErrors).toEqual([]);
  });

  test('a partner\'s page: an element written loading="lazy" two screens down loads when scrolled near; one written without it loads at once', async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const url = `${data.url}/lazy-partner`;
    await page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="/widgets/exp-widgets.js"></script></head>
<body><exp-featured-listings></exp-featured-listings><div style="height: 2400px"></div>
<exp-agent-directory loading="lazy"></exp-agent-directory></body></html>`,
      }),
    );
    const asked = chunksAsked(page);
    await page.goto(url);
    // the one without: at once, although it too ends below the first screen
    await expect(page.locator('exp-featured-listings [part~="card"]').first()).toBeAttached();
    await page.waitForLoadState('networkidle');
    expect(asked()).toMatch(/featured-listings\.element/);
    expect(asked()).not.toMatch(/agent-directory\.element/);
    expect(await defined(page, 'exp-agent-directory')).toBe(false);

    // halfway: one screen above it, the directory comes before the visitor reaches it
    const top = await page.locator('exp-agent-directory').evaluate((el) => el.getBoundingClientRect().top);
    await page.evaluate((y) => window.scrollTo(0, y), top - 2 * 800 + 100);
    await expect.poll(() => defined(page, 'exp-agent-directory')).toBe(true);
    expect(asked()).toMatch(/agent-directory\.element/);
    await page.locator('exp-agent-directory').scrollIntoViewIfNeeded();
    await expect(page.locator('exp-agent-directory [part="agent-card"]').first()).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
