/**
 * "Recently viewed" (docs/product.md §2): the listings a visitor opened last, on the home page, the
 * search page and a tab of /saved, kept in the browser. On the two pages it is written
 * loading="lazy" (docs/embedding.md "The script"), so it comes as the visitor scrolls to it.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { formatPrice } from '../../core/protocol/format.ts';
import { listingPath } from '../../core/routes.ts';
import { expect, seriousAxeViolations, test, unstyled, screenshotDir, scrolledTo } from './fixtures.ts';

const shots = screenshotDir('decide');

type Row = { id: string; title: string; price: string };

const detail = (page: Page) => page.locator('exp-property-detail');

test.describe('recently viewed', () => {
  test('the listings opened last, newest first, on the home page, the search page and a tab of /saved; kept across a reload, followed by another tab, cleared', async ({
    page,
    context,
    data,
    consoleErrors,
  }) => {
    const rows = await data.sql<Row>(
      "select id::text as id, title, price::text as price from public.listings where status = '1' and country_code = 'EC' and operation = 'sale' and price > 0 order by id desc limit 3",
    );
    const [a, b, c] = rows as [Row, Row, Row];
    await page.goto(`${data.url}/`);
    // nothing viewed yet: nothing shown (it loads as the visitor scrolls to it: loading="lazy")
    await scrolledTo(page.locator('exp-featured-listings'));
    await expect(page.locator('exp-featured-listings [part~="card"]').first()).toBeVisible();
    await scrolledTo(page.locator('exp-recently-viewed'));
    await expect(page.locator('exp-recently-viewed [part="recent"]')).toHaveCount(0);
    for (const r of [a, b]) {
      await page.goto(`${data.url}${listingPath(r.id, r.title, 'en')}`);
      await expect(detail(page).locator('[part="facts"]')).toBeVisible();
    }
    await page.goto(`${data.url}/`);
    await scrolledTo(page.locator('exp-recently-viewed'));
    const recent = page.locator('exp-recently-viewed [part="recent-listing"]');
    await expect(recent).toHaveCount(2);
    expect(await recent.nth(0).getAttribute('href')).toContain(listingPath(b.id, b.title, 'en'));
    expect(await recent.nth(1).getAttribute('href')).toContain(listingPath(a.id, a.title, 'en'));
    await expect(recent.nth(0)).toContainText(formatPrice(Number(b.price)));
    await page.reload();
    await scrolledTo(page.locator('exp-recently-viewed'));
    await expect(recent).toHaveCount(2);

    // the search page too, and /saved as a tab, by keyboard
    await page.goto(`${data.url}/search-properties`);
    await scrolledTo(page.locator('exp-recently-viewed'));
    await expect(page.locator('exp-recently-viewed [part="recent-listing"]')).toHaveCount(2);
    const saved = await context.newPage();
    await saved.goto(`${data.url}/saved`);
    const tabs = saved.locator('exp-saved-listings [role="tab"]');
    await expect(tabs).toHaveText(['Saved properties (0)', 'Recently viewed (2)']);
    await tabs.first().focus();
    await saved.keyboard.press('ArrowRight');
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(tabs.nth(1)).toBeFocused();
    const grid = saved.locator('exp-saved-listings [role="tabpanel"] [part="recent-listing"]');
    await expect(grid).toHaveCount(2);
    expect(await seriousAxeViolations(saved)).toEqual([]);
    expect(await unstyled(saved)).toEqual([]);
    await saved.screenshot({ path: resolve(shots, 'saved-recent-1366.png'), fullPage: true });

    // another tab opens a listing: this one follows
    await page.goto(`${data.url}${listingPath(c.id, c.title, 'en')}`);
    await expect(detail(page).locator('[part="facts"]')).toBeVisible();
    await expect(grid).toHaveCount(3);
    expect(await grid.first().getAttribute('href')).toContain(listingPath(c.id, c.title, 'en'));

    // cleared: gone everywhere
    await saved.locator('exp-saved-listings [part="clear"]').click();
    await expect(saved.locator('exp-saved-listings [role="tab"]')).toHaveCount(0);
    await page.goto(`${data.url}/`);
    await scrolledTo(page.locator('exp-featured-listings'));
    await expect(page.locator('exp-featured-listings [part~="card"]').first()).toBeVisible();
    await scrolledTo(page.locator('exp-recently-viewed'));
    await expect(page.locator('exp-recently-viewed [part="recent"]')).toHaveCount(0);
    await saved.close();
    expect(consoleErrors).toEqual([]);
  });
});
