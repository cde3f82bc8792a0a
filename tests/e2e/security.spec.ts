/**
 * The pages under their security headers (docs/architecture.md "Security headers"), in Chromium:
 * every page, in both languages, and the embedding demos run under their Content-Security-Policy
 * without a single violation (the elements, the map, a listing's dialog), and the policy holds
 * what it must: the boot script by its hash, nothing inline besides, no framing by others.
 */
import { createHash } from 'node:crypto';
import { listingPath } from '../../core/routes.ts';
import { EVERY_PAGE, expect, search, settled, test } from './fixtures.ts';

declare global {
  interface Window {
    __cspViolations: string[];
  }
}

const DEMOS = ['/demo', '/demo/agent-website', '/demo/hostile-cms', '/demo/cross-origin'];

test.describe('security headers', () => {
  test('every page in both languages, and the demos, run under their Content-Security-Policy without a violation', async ({
    page,
    data,
  }) => {
    test.setTimeout(180_000);
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__cspViolations.push(
          `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
        ),
      );
    });
    const [listing] = await data.sql<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where status = '1' and country_code = 'EC' order by id limit 1",
    );
    const paths = [
      ...EVERY_PAGE.flatMap((r) => [r, r === '/' ? '/es' : `/es${r}`]),
      listingPath(String(listing?.id), listing?.title, 'en'),
      listingPath(String(listing?.id), listing?.title, 'es'),
      ...DEMOS,
    ];
    const found: string[] = [];
    for (const path of paths) {
      const res = await page.goto(`${data.url}${path}`);
      const policy = res?.headers()['content-security-policy'] ?? '';
      expect(policy, path).toContain("frame-ancestors 'self'");
      expect(policy, path).toContain("object-src 'none'");
      // every element placed, lazy ones included
      await page.waitForLoadState('load');
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await settled(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      found.push(...(await page.evaluate(() => window.__cspViolations)).map((v) => `${path}: ${v}`));
    }
    // a listing's dialog and the map, on the search
    await page.goto(`${data.url}/search-properties?city=Quito`);
    const s = search(page);
    await expect(s.cards.first()).toBeVisible();
    await s.cards.first().locator('.exp-card-link').click();
    await expect(s.dialog).toBeVisible();
    found.push(...(await page.evaluate(() => window.__cspViolations)).map((v) => `search dialog: ${v}`));
    expect(found).toEqual([]);
  });

  test("the policy: the page's own inline script by its hash, no inline script or style besides, and the same headers in Spanish", async ({
    request,
    data,
  }) => {
    for (const path of ['/', '/es/about']) {
      const res = await request.get(`${data.url}${path}`);
      const html = await res.text();
      const policy = res.headers()['content-security-policy'] ?? '';
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string);
      expect(inline.length, path).toBeGreaterThan(0);
      for (const script of inline)
        expect(policy).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
      const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1] ?? '';
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
      expect(/style-src ([^;]*)/.exec(policy)?.[1]).not.toContain("'unsafe-inline'");
      expect(res.headers()['x-content-type-options']).toBe('nosniff');
      expect(res.headers()['x-frame-options']).toBe('SAMEORIGIN');
    }
    // JSON answers are never sniffed either
    const api = await request.get(`${data.url}/rest/v1/listings?select=id&limit=1`);
    expect(api.headers()['x-content-type-options']).toBe('nosniff');
  });
});
