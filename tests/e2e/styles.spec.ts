/**
 * Styles compiled at build time (docs/decisions.md #19): every class the elements put on the page
 * has its rule in the compiled utilities, on every page and in the states that add classes (the
 * detail dialog, the share menu, the header's panel, a card hovered), and no CSS-in-JS runtime is
 * left: no <style> element or extra sheet appears in a shadow root while the elements work.
 */
import type { Page } from '@playwright/test';
import { expect, scrolledTo, test, unstyled } from './fixtures.ts';

/**
 * Classes used in our shadow roots that the utilities sheet (adopted last, one per shadow root, so
 * twind's order holds) has no rule for; ours (exp-) and OpenLayers' are not utilities.
 */
async function styleElements(page: Page): Promise<number> {
  return page.evaluate(() => {
    let n = 0;
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) {
          n += el.shadowRoot.querySelectorAll('style').length;
          walk(el.shadowRoot);
        }
      }
    };
    walk(document);
    return n;
  });
}

test('every class the elements show has its compiled rule, on every page and in every state', async ({
  page,
  data,
}) => {
  test.setTimeout(90_000);
  await page.goto(`${data.url}/`);
  // the featured listings, the footer and Recently viewed come as the visitor scrolls to them
  for (const tag of ['exp-featured-listings', 'exp-recently-viewed', 'exp-site-footer'])
    await scrolledTo(page.locator(tag));
  await expect(page.locator('exp-featured-listings [part~="card"]').first()).toBeVisible();
  expect(await unstyled(page), '/').toEqual([]);

  await page.goto(`${data.url}/search-properties`);
  await expect(page.locator('exp-property-search [part~="card"]').first()).toBeVisible();
  await page.locator('exp-property-search [part~="card"]').first().hover();
  expect(await unstyled(page), 'search').toEqual([]);
  await page.locator('exp-property-search [part~="card"] a.exp-card-link').first().click();
  const dialog = page.locator('exp-property-search dialog[open]');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Request Information' }).click();
  await expect(dialog.getByText('Please enter your name')).toBeVisible();
  expect(await unstyled(page), 'dialog with errors').toEqual([]);
  await page.keyboard.press('Escape');

  await page.goto(`${data.url}/findanagent`);
  await expect(page.locator('exp-agent-directory [part="agent-card"]').first()).toBeVisible();
  expect(await unstyled(page), 'directory').toEqual([]);
  await page.goto(`${data.url}/findanagent/1`);
  await expect(page.locator('exp-agent-profile [part="name"]')).toBeVisible();
  expect(await unstyled(page), 'profile').toEqual([]);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${data.url}/properties/1-x`);
  await expect(page.locator('exp-property-detail [part="detail-page"]')).toBeVisible();
  await page.locator('exp-property-detail').getByRole('button', { name: 'Share' }).click();
  await page.locator('exp-site-header [part="menu-button"]').click();
  await expect(page.locator('exp-site-header dialog[part="panel"]')).toBeVisible();
  expect(await unstyled(page), 'listing page, share menu and header panel').toEqual([]);
  expect(await styleElements(page)).toBe(0);
});
