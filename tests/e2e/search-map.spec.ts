/**
 * The map in the search end to end against the real, seeded server: a phone's map shown on request,
 * the simplified map when the map cannot load, and 'Search this area'.
 */
import { ACTIVE, centred, expect, fmt, PLACE_TEXT, search, settled, test } from './fixtures.ts';

test.describe('the map in the search', () => {
  test('on a phone the map waits behind "Show the map": nothing of it is downloaded or asked for until the visitor asks; it then stays shown in the tab; wider, it is simply there', async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // what the page fetches of the map: its code, its pins (the light call's columns), its clusters
    const fetched: string[] = [];
    page.on('request', (r) => {
      const url = decodeURIComponent(r.url());
      if (/\/chunks\/(openlayers|ol-map)-/.test(url)) fetched.push('code');
      if (/select=id,lat,lng/.test(url)) fetched.push('pins');
      if (/rpc\/listing_clusters/.test(url)) fetched.push('clusters');
    });
    await page.goto(`${data.url}/search-properties?city=Ibarra`);
    const s = search(page);
    const toggle = s.el.locator('[part="map-toggle"]');
    await expect(s.cards.first()).toBeVisible();
    await expect(toggle).toHaveText('Show the map');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(s.el.locator('[part="map"]')).toBeHidden();
    // the page settled, its idle time passed: still nothing of the map
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 5000 })));
    expect(fetched).toEqual([]);
    await centred(toggle);
    await toggle.click();
    await expect(s.map).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
    await expect(toggle).toHaveText('Hide the map');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(() => [...new Set(fetched)].sort()).toEqual(['code', 'pins']);
    // the same tab remembers: the next page shows it at once, until the visitor hides it again
    await page.goto(`${data.url}/es/search-properties?city=Ibarra`);
    await expect(s.map).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
    await expect(toggle).toHaveText('Ocultar el mapa');
    await toggle.click();
    await expect(s.el.locator('[part="map"]')).toBeHidden();
    await expect(toggle).toHaveText('Ver el mapa');
    await page.reload();
    await expect(s.cards.first()).toBeVisible();
    // the tab's memory is read once the page is idle: past that, still folded
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 5000 })));
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(s.el.locator('[part="map"]')).toBeHidden();
    // a tablet and wider: the map is there without asking, and no button folds it
    await page.setViewportSize({ width: 768, height: 900 });
    await expect(s.map).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
    await expect(toggle).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test('falls back to the simplified map with a warning when it cannot load, and retries once', async ({
    page,
    data,
  }) => {
    let requests = 0;
    // the first load of the map fails once the results are there (on a busy machine they could
    // otherwise come after the retry, and the fallback would have nothing to list)
    let resultsShown = () => {};
    const results = new Promise<void>((r) => (resultsShown = r));
    // the retry asks for the chunk under a new URL (?retry=1): a browser may keep a failed module
    await page.route(/\/chunks\/ol-map-[\w-]+\.js(\?retry=\d+)?$/, async (route) => {
      requests++;
      if (requests > 1) return route.continue();
      await results;
      return route.abort('failed');
    });
    await page.goto(`${data.url}/search-properties?city=Salinas`);
    const el = page.locator('exp-property-search');
    await expect(el.locator('[part~="card"]').first()).toBeVisible();
    resultsShown();
    const fallback = el.locator('[part="map-fallback"]');
    await expect(fallback).toBeVisible();
    await expect(fallback.locator('li')).toHaveCount(6);
    await expect(el.locator('[part~="toast"]').filter({ hasText: 'Map Warning' })).toBeVisible();
    // the single retry, 2 s later, brings the real map
    await expect(el.locator('[part="map"] [data-status="ready"]')).toBeVisible({ timeout: 10_000 });
    await expect(fallback).toHaveCount(0);
    expect(requests).toBe(2);
  });

  test("'Search this area' narrows the search to the visible box, kept in the URL", async ({ page, data }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${data.url}/search-properties?city=Quito`);
    const s = search(page);
    await expect(s.map).toHaveAttribute('data-status', 'ready');
    await expect(s.heading).toHaveText(/^[\d,]+ properties$/);
    const before = await s.heading.textContent();
    // a resized window moves the map, but that is not the visitor searching somewhere else
    await page.setViewportSize({ width: 1180, height: 900 });
    await settled(page);
    await expect(page.getByRole('button', { name: 'Search this area' })).toHaveCount(0);
    // the page's hero is above the search: bring the map's middle into the window first
    await s.map.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = await s.map.boundingBox();
    if (!box) throw new Error('no map box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 3; i++) {
      await page.mouse.wheel(0, -400);
      // a visitor's pace: OpenLayers makes one zoom of the turns within 80 ms (a loaded machine only spaces them more)
      await page.waitForTimeout(250);
    }
    const button = page.getByRole('button', { name: 'Search this area' });
    await expect(button).toBeVisible();
    await button.click();
    await expect(page).toHaveURL(/bbox=/);
    const bbox = new URL(page.url()).searchParams.get('bbox')?.split(',').map(Number) as [
      number,
      number,
      number,
      number,
    ];
    const [row] = await data.sql<{ n: number }>(
      `select count(*) as n from internal.listings where ${ACTIVE} and ${PLACE_TEXT} like '%quito%' and lat between $1 and $2 and lng between $3 and $4`,
      [bbox[1], bbox[3], bbox[0], bbox[2]],
    );
    const n = Number(row?.n);
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    expect(`${fmt(n)} properties`).not.toBe(before);
    await page.getByRole('button', { name: 'Show the whole search' }).click();
    await expect(s.heading).toHaveText(before ?? '');
    expect(page.url()).not.toContain('bbox=');
  });
});
