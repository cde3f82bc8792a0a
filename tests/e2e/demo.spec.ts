/**
 * The embedding kit end to end: the three demo pages (an agent's website, a hostile CMS page, the
 * bundle from another origin) on the real server: every element renders and behaves, looks as on
 * our own site, its events reach the page, nothing leaks into the page, no console errors; and
 * what a partner's page downloads, against the budgets.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { pixelDifference } from '../support/pixels.ts';
import { pageWeight, WEIGHT_BUDGETS } from '../support/weight.ts';
import { ACTIVE, expect, fmt, PLACE_TEXT, screenshotDir, settled, test } from './fixtures.ts';

const shots = screenshotDir('demo');

/** the host page's own globals on the hostile demo (its React app and libraries) */
const HOST_GLOBALS = ['React', 'ReactDOM', 'i18next', 'HostApp'];

async function eventLog(page: Page): Promise<string> {
  return (await page.locator('#events').textContent()) ?? '';
}

/** A part of an element, at a fixed width, as PNG, once its images have loaded. */
async function partShot(page: Page, element: Locator, part: string, name: string): Promise<Buffer> {
  await element.evaluate((el: HTMLElement) => (el.style.width = '900px'));
  // no focus ring in the picture
  await page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    (active as HTMLElement | null)?.blur();
  });
  const target = element.locator(part).first();
  await target.scrollIntoViewIfNeeded();
  await expect
    .poll(() => target.evaluate((el) => [...el.querySelectorAll('img')].every((i) => i.complete && i.naturalWidth > 0)))
    .toBe(true);
  await settled(page);
  const png = await target.screenshot({ animations: 'disabled' });
  writeFileSync(resolve(shots, `${name}.png`), png);
  return png;
}

test.describe('embedding demos', () => {
  test.use({ viewport: { width: 1600, height: 1000 } });

  test('/demo lists the three demos; no demo is indexed', async ({ page, data }) => {
    const answer = await page.goto(`${data.url}/demo`);
    expect(answer?.headers()['x-robots-tag']).toBe('noindex');
    for (const path of ['/demo/agent-website', '/demo/hostile-cms', '/demo/cross-origin']) {
      await expect(page.locator(`a[href="${path}"]`)).toHaveCount(1);
      expect((await page.request.get(`${data.url}${path}`)).headers()['x-robots-tag'], path).toBe('noindex');
    }
  });

  test("an agent's website: her profile and only her listings, in her colours and font, the URL left alone, events to the page", async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.goto(`${data.url}/demo/agent-website`);
    const [agent] = await data.sql<{ first_name: string; last_name: string }>(
      'select first_name, last_name from public.agents where id = 1',
    );
    const profile = page.locator('exp-agent-profile');
    await expect(profile.locator('[part="name"]')).toHaveText(`${agent?.first_name} ${agent?.last_name}`);
    const search = page.locator('exp-property-search');
    const [mine] = await data.sql<{ n: number }>(
      `select count(*) as n from public.listings where ${ACTIVE} and agent_id = 1`,
    );
    await expect(search.locator('[part="results-heading"]')).toHaveText(`${fmt(Number(mine?.n))} properties`);
    // her theme reaches inside the elements
    expect(
      await profile.locator('[part="contact-button"]').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(15, 94, 90)');
    expect(
      await search
        .locator('[part="search-button"]')
        .first()
        .evaluate((el) => getComputedStyle(el).fontFamily),
    ).toMatch(/Georgia/);
    // a search keeps to her listings and leaves her page's URL alone
    const url = page.url();
    await search.getByLabel('Location').fill('Quito');
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    const [inQuito] = await data.sql<{ n: number }>(
      `select count(*) as n from public.listings where ${ACTIVE} and agent_id = 1 and ${PLACE_TEXT} like '%quito%'`,
    );
    await expect(search.locator('[part="results-heading"]')).toHaveText(`${fmt(Number(inQuito?.n))} properties`);
    expect(page.url()).toBe(url);
    await expect.poll(() => eventLog(page)).toContain('exp-search {"filters":{"city":"Quito"}');
    await search.locator('[part~="card"] .exp-card-link').first().click();
    await expect(search.locator('dialog[open]')).toBeVisible();
    await expect.poll(() => eventLog(page)).toContain('exp-property-open');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: resolve(shots, 'agent-website.png') });
    expect(consoleErrors).toEqual([]);
  });

  test('a hostile CMS page: the elements work and look as on our site; the page keeps its globals, styles, React and i18next', async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.addInitScript(() => {
      (window as unknown as { __before: string[] }).__before = Object.getOwnPropertyNames(window);
    });
    await page.goto(`${data.url}/demo/hostile-cms`);
    const search = page.locator('exp-property-search');
    const directory = page.locator('exp-agent-directory');
    await expect(search.locator('[part="results-heading"]')).toHaveText(/^[\d,]+ properties$/);
    await expect(directory.locator('[part="agent-card"]').first()).toBeVisible();

    // they behave: a search counts what SQL counts; the directory finds by name
    await search.getByLabel('Location').fill('Cuenca');
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    const [cuenca] = await data.sql<{ n: number }>(
      `select count(*) as n from public.listings where ${ACTIVE} and ${PLACE_TEXT} like '%cuenca%'`,
    );
    await expect(search.locator('[part="results-heading"]')).toHaveText(`${fmt(Number(cuenca?.n))} properties`);
    await directory.getByRole('searchbox').fill('andrade');
    await directory.getByRole('searchbox').press('Enter');
    await expect(directory.locator('[part="agent-card"]')).toHaveCount(1);
    await directory.locator('[part="agent-card"]').first().click();
    await expect(directory.locator('dialog[open]')).toBeVisible();
    await page.keyboard.press('Escape');
    // their events reach the page
    await expect.poll(() => eventLog(page)).toContain('exp-search');
    await expect.poll(() => eventLog(page)).toContain('exp-agent-search {"query":"andrade"}');
    await expect.poll(() => eventLog(page)).toContain('exp-agent-open');

    // nothing leaks: no globals besides the page's own, no styles in the document
    const leaks = await page.evaluate((host) => {
      const before = new Set((window as unknown as { __before: string[] }).__before);
      return Object.getOwnPropertyNames(window).filter((k) => !before.has(k) && k !== '__before' && !host.includes(k));
    }, HOST_GLOBALS);
    expect(leaks).toEqual([]);
    expect(
      await page.evaluate(() => ({
        adopted: document.adoptedStyleSheets.length,
        sheets: document.styleSheets.length,
        styleElements: document.querySelectorAll('style, link[rel="stylesheet"]').length,
      })),
    ).toEqual({ adopted: 0, sheets: 1, styleElements: 1 });
    // each element is defined once although the script is included twice
    expect(
      await page.evaluate(
        () => performance.getEntriesByType('resource').filter((e) => /exp-widgets\.js/.test(e.name)).length,
      ),
    ).toBe(2);

    // the host's own React 18 app and i18next are untouched and still work
    expect(await page.evaluate(() => (window as unknown as { React: { version: string } }).React.version)).toBe(
      '18.3.1',
    );
    await page.locator('#host-counter').click();
    await page.locator('#host-counter').click();
    await expect(page.locator('#host-counter')).toHaveText('Bonjour · Clics : 2');
    expect(
      await page.evaluate(() => {
        const i18n = (window as unknown as { i18next: { language: string; t(k: string): string } }).i18next;
        return [i18n.language, i18n.t('greeting')];
      }),
    ).toEqual(['fr', 'Bonjour']);
    // neither instance sees the other: the host's knows none of our texts, and its change of language leaves our elements as they are
    expect(
      await page.evaluate(() =>
        (window as unknown as { i18next: { t(k: string): string } }).i18next.t('search.filters.heading'),
      ),
    ).toBe('search.filters.heading');
    await page.evaluate(() =>
      (window as unknown as { i18next: { changeLanguage(l: string): Promise<unknown> } }).i18next.changeLanguage('es'),
    );
    await settled(page);
    await expect(search.getByRole('button', { name: 'Search', exact: true })).toBeVisible();
    await expect(search.locator('[part="more-filters"]')).toContainText('More filters');
    await page.evaluate(() =>
      (window as unknown as { i18next: { changeLanguage(l: string): Promise<unknown> } }).i18next.changeLanguage('fr'),
    );

    // they look as on our own site (same width, same data): a few pixels of difference at most
    const hostileSearch = await partShot(page, search, '[part="filters"]', 'hostile-filters');
    await directory.getByRole('searchbox').fill('');
    await directory.getByRole('searchbox').press('Enter');
    await expect(directory.locator('[part="agent-card"]')).toHaveCount(46);
    const hostileCard = await partShot(page, directory, '[part="agent-card"]', 'hostile-agent-card');
    const hostileForm = await partShot(page, directory, '[part="search"]', 'hostile-agent-search');
    expect(consoleErrors).toEqual([]);

    await page.goto(`${data.url}/search-properties`);
    // (through the CSS object model: the page's Content-Security-Policy refuses an inline style tag)
    await page
      .locator('exp-site-header')
      .evaluate((el: HTMLElement) => el.style.setProperty('display', 'none', 'important'));
    const ours = page.locator('exp-property-search');
    await expect(ours.locator('[part="results-heading"]')).toHaveText(/^[\d,]+ properties$/);
    await ours.getByLabel('Location').fill('Cuenca');
    await ours.getByLabel('Location').blur();
    const ourSearch = await partShot(page, ours, '[part="filters"]', 'site-filters');
    await page.goto(`${data.url}/findanagent`);
    // (through the CSS object model: the page's Content-Security-Policy refuses an inline style tag)
    await page
      .locator('exp-site-header')
      .evaluate((el: HTMLElement) => el.style.setProperty('display', 'none', 'important'));
    const ourDirectory = page.locator('exp-agent-directory');
    await expect(ourDirectory.locator('[part="agent-card"]')).toHaveCount(46);
    const ourCard = await partShot(page, ourDirectory, '[part="agent-card"]', 'site-agent-card');
    const ourForm = await partShot(page, ourDirectory, '[part="search"]', 'site-agent-search');
    for (const [name, a, b] of [
      ['filter bar', hostileSearch, ourSearch],
      ['agent card', hostileCard, ourCard],
      ['agent search', hostileForm, ourForm],
    ] as const) {
      const d = pixelDifference(a, b);
      expect(
        d.share,
        `${name}: share of pixels that differ (${d.size.join('x')} and ${d.other.join('x')})`,
      ).toBeLessThan(0.01);
    }
  });

  test('the bundle from another origin: script, chunks and assets from there, data from here, an inquiry goes through', async ({
    page,
    data,
    consoleErrors,
  }) => {
    expect(data.bundleUrl).toBeTruthy();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script' && /\/widgets\//.test(r.url())) scripts.push(r.url());
    });
    await page.goto(`${data.url}/demo/cross-origin`);
    await expect(page.locator('#bundle-origin')).toHaveText(data.bundleUrl ?? '');
    const search = page.locator('exp-property-search');
    await expect(search.locator('[part="results-heading"]')).toHaveText(/^[\d,]+ properties$/);
    await expect(search.locator('[part="map"] [data-status="ready"]')).toBeVisible();
    expect(scripts.length).toBeGreaterThan(3);
    for (const url of scripts) expect(url.startsWith(`${data.bundleUrl}/widgets/`), url).toBe(true);
    expect(scripts.some((u) => /ol-map/.test(u))).toBe(true);

    const form = page.locator('exp-inquiry-form');
    await form.getByLabel('Name').fill('Lucía Cross');
    await form.getByLabel('E-mail', { exact: true }).fill('lucia@example.org');
    await form.getByRole('button', { name: 'Request Information' }).click();
    await expect(form.getByText('Request Sent!')).toBeVisible();
    await expect
      .poll(async () =>
        Number(
          (
            await data.sql<{ n: number }>(
              "select count(*) as n from public.inquiries where email = 'lucia@example.org'",
            )
          )[0]?.n,
        ),
      )
      .toBe(1);
    expect(consoleErrors).toEqual([]);
  });

  test(`what a partner page downloads: the entry ≤ ${WEIGHT_BUDGETS.entry / 1024} KB, a directory page ≤ ${WEIGHT_BUDGETS.directory / 1024} KB, a search page with its map ≤ ${WEIGHT_BUDGETS.search / 1024} KB, on a phone ≤ ${WEIGHT_BUDGETS.searchPhone / 1024} KB (gzip)`, async ({
    page,
    data,
  }) => {
    const directory = await pageWeight(page, data.url, 'directory');
    const search = await pageWeight(page, data.url, 'search');
    const phone = await pageWeight(page, data.url, 'searchPhone');
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB (${n} bytes)`;
    console.log(
      `[weight] entry ${kb(directory.entryGzip)}, directory page ${kb(directory.totalGzip)}, search page ${kb(search.totalGzip)}, on a phone ${kb(phone.totalGzip)}`,
    );
    expect(phone.totalGzip).toBeLessThanOrEqual(WEIGHT_BUDGETS.searchPhone);
    // a phone's map waits behind its button: none of its code comes
    expect(phone.files.map((f) => f.url).join(' ')).not.toMatch(/openlayers|ol-map/);
    expect(directory.entryGzip).toBeLessThanOrEqual(WEIGHT_BUDGETS.entry);
    expect(directory.totalGzip).toBeLessThanOrEqual(WEIGHT_BUDGETS.directory);
    expect(search.totalGzip).toBeLessThanOrEqual(WEIGHT_BUDGETS.search);
    // the directory page does not download the map or the search; neither downloads Spanish, the
    // detail dialog (until a listing is opened) or the browser's clustering (a broad search)
    expect(directory.files.map((f) => f.url).join(' ')).not.toMatch(/ol-map|property-search/);
    expect(search.files.map((f) => f.url).join(' ')).toMatch(/ol-map/);
    for (const page of [directory, search])
      expect(page.files.map((f) => f.url).join(' ')).not.toMatch(/\/(es|property-dialog|inquiry-form|ol-cluster)-/);
    // nor OpenLayers' vector stack, which only the browser's clusters and drawing an area need (vite.config.ts OPENLAYERS)
    expect(search.files.map((f) => f.url).join(' ')).not.toMatch(/\/(openlayers-vector|ol-draw)-/);
  });

  test(`what our own site's search page downloads: ≤ ${WEIGHT_BUDGETS.site / 1024} KB at 1366 px, ≤ ${WEIGHT_BUDGETS.sitePhone / 1024} KB on a phone (gzip)`, async ({
    page,
    data,
  }) => {
    const desktop = await pageWeight(page, data.url, 'site');
    const phone = await pageWeight(page, data.url, 'sitePhone');
    console.log(`[weight] the site's search page ${desktop.totalGzip} bytes, on a phone ${phone.totalGzip}`);
    expect(desktop.totalGzip).toBeLessThanOrEqual(WEIGHT_BUDGETS.site);
    expect(phone.totalGzip).toBeLessThanOrEqual(WEIGHT_BUDGETS.sitePhone);
    // the site's own script is among them, and neither the vector stack nor, on a phone, the map
    expect(desktop.files.map((f) => f.url).join(' ')).toMatch(/\/assets\/site-/);
    expect(desktop.files.map((f) => f.url).join(' ')).not.toMatch(/\/(openlayers-vector|ol-draw|ol-cluster)-/);
    expect(phone.files.map((f) => f.url).join(' ')).not.toMatch(/openlayers|ol-map/);
  });
});
