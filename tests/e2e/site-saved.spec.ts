/**
 * The host site's visitor's own things, end to end: a heart on the search counted in the header and
 * listed on /saved (in Spanish too), an alert request waiting for its confirmation, the pages the
 * alert mails link to (without a script, in their language, not indexed, at 1366, 390 and 320 px),
 * and robots.txt and the sitemaps.
 */
import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { expect, screenshotDir, seriousAxeViolations, settled, sideways, test } from './fixtures.ts';

const shots = screenshotDir('site');

test.describe("the host site: saved listings, the alert mails' pages, robots and sitemaps", () => {
  test('a heart on the search counts in the header and lists on /saved (in Spanish too); an alert request waits for its confirmation', async ({
    page,
    data,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${data.url}/search-properties?city=Loja`);
    const search = page.locator('exp-property-search');
    const card = search.locator('[part~="card"]').first();
    await expect(card).toBeVisible();
    const id = await card.getAttribute('data-property-id');
    const title = (await card.locator('a.exp-card-link').textContent())?.trim() ?? '';
    const savedLink = page.locator('exp-site-header [part="saved-link"]');
    await expect(savedLink).toHaveCount(0);
    await card.locator('[part~="save-button"]').click();
    await expect(card.locator('[part~="save-button"]')).toHaveAttribute('aria-pressed', 'true');
    await expect(savedLink).toHaveAttribute('aria-label', 'Saved properties: 1');
    await savedLink.click();
    await expect(page).toHaveURL(`${data.url}/saved`);
    const saved = page.locator('exp-saved-listings');
    await expect(saved.locator('[part~="card"]')).toHaveCount(1);
    await expect(saved.locator(`[data-property-id="${id}"]`)).toContainText(title);
    await expect(page.locator('h1')).toHaveText('Saved properties');
    await page.goto(`${data.url}/es/saved`);
    await expect(page.locator('h1')).toHaveText('Propiedades guardadas');
    await expect(saved.locator('[part="count"]')).toContainText('1 propiedad guardada');
    await expect(page.locator('exp-site-header [part="saved-link"]')).toHaveAttribute(
      'aria-label',
      'Propiedades guardadas: 1',
    );

    // on phones the bar still fits: side by side, nothing overlapping, all on screen; where the
    // heart has no room (320 px) the menu button carries the count
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      const header = page.locator('exp-site-header');
      const parts = ['[part~="link"]', '[part="saved-link"]', '[part="group"]', '[part="menu-button"]'];
      const boxes = (
        await Promise.all(
          parts.map(async (sel) =>
            (await header.locator(sel).first().isVisible()) ? header.locator(sel).first().boundingBox() : null,
          ),
        )
      ).filter((b) => b !== null);
      expect(boxes.length, `${width} px`).toBe(width < 384 ? 3 : 4);
      for (const [i, box] of boxes.entries()) {
        expect(box.x, `${parts[i]} at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${parts[i]} at ${width} px`).toBeLessThanOrEqual(width);
        const next = boxes[i + 1];
        if (next)
          expect(box.x + box.width, `${width} px: item ${i} overlaps the next`).toBeLessThanOrEqual(next.x + 0.5);
      }
      const menuCount = header.locator('[part="menu-button"] [aria-hidden="true"]').filter({ hasText: /\d/ });
      if (width < 384) await expect(menuCount).toHaveText('1');
      else await expect(menuCount).toBeHidden();
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // alerts for a search: the form sends, the search waits for its confirmation
    await page.goto(`${data.url}/search-properties?city=Loja&beds=2`);
    await search.locator('[part="alerts-button"]').click();
    const dialog = search.locator('dialog[open]');
    await expect(dialog).toContainText('Properties in Loja · 2+ bedrooms');
    const email = `e2e.${Date.now()}@example.org`;
    await dialog.getByLabel('E-mail', { exact: true }).fill(email);
    await dialog.getByLabel('Once a week').check();
    await dialog.getByRole('button', { name: 'Create alert' }).click();
    await expect(dialog.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await expect
      .poll(
        async () =>
          (
            await data.sql<{ status: string; frequency: string; filters: unknown }>(
              'select status, frequency, filters from internal.saved_searches where email = $1',
              [email],
            )
          )[0],
      )
      .toEqual({ status: 'pending', frequency: 'weekly', filters: { city: 'Loja', beds_min: 2 } });
    expect(consoleErrors).toEqual([]);
  });

  test('the pages of the alert mails: readable without a script, in their language, not indexed, axe clean, nothing cut off at 1366, 390 and 320 px', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const email = `pages.${Date.now()}@example.org`;
    const [search] = await data.sql<{ id: string }>(
      `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, confirmed_at, sent_through, next_run_at, idempotency_key, client_hash)
       values ($1, $1, '{"city":"Cumbayá","property_type":"house","price_min":250000}', $1, 'daily', 'es', 'active', internal.now(), internal.now(), internal.now(), internal.now() + interval '1 day', $1, 'e2e')
       returning id::text as id`,
      [email],
    );
    const token = (purpose: string) => {
      const text = randomBytes(32).toString('base64url');
      return data
        .sql(
          "insert into internal.saved_search_tokens (token_hash, search_id, purpose, expires_at) values ($1, $2, $3, internal.now() + interval '1 day')",
          [createHash('sha256').update(text).digest('hex'), search?.id, purpose],
        )
        .then(() => text);
    };
    const pages = [
      {
        path: `/alerts/manage?token=${await token('manage')}`,
        status: 200,
        heading: 'Your alert',
        text: 'House in Cumbayá · from $250,000',
      },
      {
        path: `/es/alerts/unsubscribe?token=${await token('unsubscribe')}`,
        status: 200,
        heading: '¿Darte de baja de esta alerta?',
        text: 'Casa en Cumbayá · desde $250,000',
      },
      {
        path: `/alerts/confirm?token=${'x'.repeat(43)}`,
        status: 404,
        heading: 'This link is not valid',
        text: 'Go to the property search',
      },
    ];
    for (const p of pages) {
      // as a crawler or a mail scanner reads it: the HTML alone, and nothing changed by reading it
      const raw = await page.request.get(`${data.url}${p.path}`);
      expect(raw.status(), p.path).toBe(p.status);
      const html = await raw.text();
      expect(html).toContain(p.heading);
      expect(html).toContain('<meta name="robots" content="noindex"');
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${data.url}${p.path}`);
      await expect(page.locator('h1')).toHaveText(p.heading);
      await expect(page.locator('main')).toContainText(p.text);
      await page.evaluate(() => Promise.all(document.body.getAnimations().map((a) => a.finished)));
      expect(await seriousAxeViolations(page), p.path).toEqual([]);
      for (const w of [1366, 390, 320]) {
        await page.setViewportSize({ width: w, height: 800 });
        await settled(page);
        await page.screenshot({
          path: resolve(shots, `alerts-${p.path.split('?')[0]?.replace(/\W+/g, '-')}-${w}.png`),
          fullPage: true,
        });
        expect(await sideways(page), `${p.path} at ${w} px`).toBeLessThanOrEqual(0);
      }
    }
    // reading the pages changed nothing: the alert is still on
    expect(
      (await data.sql<{ status: string }>('select status from internal.saved_searches where id = $1', [search?.id]))[0]
        ?.status,
    ).toBe('active');
    // the browser reports the bad link's page itself (status 404), nothing else
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
  });

  test('robots.txt and sitemap.xml describe the site', async ({ request, data }) => {
    const robots = await (await request.get(`${data.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${data.url}/sitemap.xml`);
    const index = await (await request.get(`${data.url}/sitemap.xml`)).text();
    const pagesFile = /<loc>([^<]*\/sitemaps\/pages\.xml)<\/loc>/.exec(index)?.[1];
    expect(pagesFile).toBeTruthy();
    const sitemap = await (await request.get(String(pagesFile))).text();
    for (const path of ['/', '/search-properties', '/findanagent', '/join', '/about'])
      expect(sitemap).toContain(`<loc>${new URL(path, data.url).href}</loc>`);
    expect(sitemap).toContain('hreflang="es"');
  });
});
