import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

test.describe('foundation', () => {
  test('the home page shows a working language switch that persists the choice', async ({ page }) => {
    await page.goto('/');
    const group = page.getByRole('group', { name: 'Language' }).first();
    await expect(group).toBeVisible();
    await group.getByRole('button', { name: /Español/ }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page).toHaveURL(/\/es$/);
    // a page opened later is taken to its Spanish address
    await page.goto('/');
    await expect(page).toHaveURL(/\/es$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('group', { name: 'Idioma' }).first()).toBeVisible();
  });

  test('the bundle is served with CORS, a short cache on the entry and immutable chunks', async ({ request }) => {
    const entry = await request.get('/widgets/exp-widgets.js');
    expect(entry.status()).toBe(200);
    expect(entry.headers()['access-control-allow-origin']).toBe('*');
    expect(entry.headers()['cache-control']).toContain('max-age=300');
    const text = await entry.text();
    const chunk = /\.\/(chunks\/[\w.-]+\.js)/.exec(text)?.[1];
    expect(chunk).toBeTruthy();
    const chunkResponse = await request.get(`/widgets/${chunk}`);
    expect(chunkResponse.status()).toBe(200);
    expect(chunkResponse.headers()['cache-control']).toContain('immutable');
  });

  test('the bundle works on a page of another origin, included twice', async ({ page, baseURL }) => {
    // a partner's page served by another server (another origin); module scripts always need CORS
    const bundle = `${baseURL}/widgets/exp-widgets.js`;
    const partner = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><script type="module" src="${bundle}"></script><script type="module" src="${bundle}?again"></script></head><body><h1>Partner page</h1><exp-language-switch></exp-language-switch></body></html>`,
      );
    });
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(`http://127.0.0.1:${(partner.address() as AddressInfo).port}/`);
      await page.getByRole('button', { name: /Español/ }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      expect(errors).toEqual([]);
    } finally {
      partner.close();
    }
  });

  test('an unknown path answers the 404 page with status 404', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
  });
});
