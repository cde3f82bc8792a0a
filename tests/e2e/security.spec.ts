/**
 * The pages' security headers (docs/architecture.md "Security headers"), read as a browser gets them:
 * every page, in both languages, and the embedding demos answer with their Content-Security-Policy,
 * and the policy holds what it must: the boot script by its hash, nothing inline besides, no
 * framing by others. That nothing a page does is refused by its policy is held in every test of
 * this suite, on every page it opens, at every width and in every state it reaches (the `pageFaults`
 * fixture, tests/e2e/fixtures.ts): every page in both languages at 320 and 390 px (narrow.spec.ts),
 * the site's pages on a desktop as a visitor scrolls them and switches their language
 * (site.spec.ts), the demos (demo.spec.ts), the map and a listing's dialog (search.spec.ts).
 */
import { createHash } from 'node:crypto';
import { listingPath } from '../../core/routes.ts';
import { EVERY_PAGE, expect, test } from './fixtures.ts';

const DEMOS = ['/demo', '/demo/agent-website', '/demo/hostile-cms', '/demo/cross-origin'];

test.describe('security headers', () => {
  test('every page in both languages, and the demos, answer with a policy that refuses plugins and framing by others', async ({
    request,
    data,
  }) => {
    const [listing] = await data.sql<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where status = '1' and country_code = 'EC' order by id limit 1",
    );
    const paths = [
      ...EVERY_PAGE.flatMap((r) => [r, r === '/' ? '/es' : `/es${r}`]),
      listingPath(String(listing?.id), listing?.title, 'en'),
      listingPath(String(listing?.id), listing?.title, 'es'),
      ...DEMOS,
    ];
    for (const path of paths) {
      const res = await request.get(`${data.url}${path}`, { maxRedirects: 0 });
      expect(res.status(), path).toBe(path.endsWith('/no-such-page') ? 404 : 200);
      const policy = res.headers()['content-security-policy'] ?? '';
      expect(policy, path).toContain("frame-ancestors 'self'");
      expect(policy, path).toContain("object-src 'none'");
    }
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
