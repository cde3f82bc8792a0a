/**
 * The language a visitor chose, in a real browser (docs/decisions.md #18, #24): the boot script
 * in every page's head takes them to the page's address in that language, the one the server
 * wrote as the page's twin, and nothing it is given sends them off the origin: the table of
 * hostile paths, in both languages, through the server's redirects and the boot script.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootScript } from '../../scripts/site-html.ts';
import { escapeHtml } from '../../core/fill.ts';
import { HOSTILE_PATHS } from '../support/hostile-paths.ts';
import { expect, routed, setClock, settled, test } from './fixtures.ts';

test.describe('language paths', () => {
  test('a visitor who chose a language lands on the address in that language, query and hash kept', async ({
    page,
    data,
  }) => {
    await page.addInitScript(() => localStorage.setItem('exp-lang', 'es'));
    await page.goto(`${data.url}/about?ref=whatsapp#story`);
    await expect(page).toHaveURL(`${data.url}/es/about?ref=whatsapp#story`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.goto(`${data.url}/search-properties/cumbaya?beds=2`);
    await expect(page).toHaveURL(`${data.url}/es/search-properties/cumbaya?beds=2`);

    const english = await page.context().newPage();
    await english.addInitScript(() => localStorage.setItem('exp-lang', 'en'));
    await english.goto(`${data.url}/es/join?x=1`);
    await expect(english).toHaveURL(`${data.url}/join?x=1`);
    await english.close();
  });

  test(`${HOSTILE_PATHS.length} hostile paths, with either language chosen: the browser never leaves the origin`, async ({
    browser,
    data,
  }) => {
    test.setTimeout(180_000);
    const origin = new URL(data.url).origin;
    const left: string[] = [];
    // one browser context per language chosen, side by side
    await Promise.all(
      (['en', 'es'] as const).map(async (lang) => {
        const context = await setClock(await browser.newContext());
        // in the site's documents (a new tab's about:blank has no storage to write)
        await context.addInitScript((l) => {
          if (location.protocol === 'http:') localStorage.setItem('exp-lang', l);
        }, lang);
        const page = await context.newPage();
        await page.route('**/*', async (route) => {
          const url = route.request().url();
          if (url.startsWith('data:')) return route.continue();
          if (new URL(url).origin !== origin) left.push(url);
          // only the documents matter here (the boot script is inline in each): the elements and media need not load
          else if (route.request().resourceType() === 'document') return route.continue();
          try {
            await route.abort();
          } finally {
            routed(route.request());
          }
        });
        for (const path of HOSTILE_PATHS) {
          await page.goto(`${data.url}${path}`, { waitUntil: 'domcontentloaded' }).catch(() => undefined);
          // the boot script runs first in the head: a replace() it does is a request of the page before it
          // has parsed, which settled() waits out (the route above records it if it leaves)
          await page.waitForLoadState('domcontentloaded');
          await settled(page);
          expect(new URL(page.url()).origin, `${path} (chose ${lang})`).toBe(origin);
        }
        await context.close();
      }),
    );
    expect(left).toEqual([]);
  });

  test('the boot script itself follows only a twin that is a path of this origin', async ({ page }) => {
    // a page of its own with the built boot script and whatever twin the test gives it
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/page') return void res.writeHead(404).end('elsewhere on this origin');
      const twin = url.searchParams.get('twin') ?? '';
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en" data-exp-twin="${escapeHtml(twin)}"><head><script>${bootScript()}</script></head><body><p>the page</p></body></html>`,
        );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const left: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === base) return route.continue();
      left.push(url);
      return route.abort();
    });
    try {
      await page.goto(`${base}/page`);
      await page.evaluate(() => localStorage.setItem('exp-lang', 'es'));
      for (const twin of [
        '//evil.com',
        '///evil.com',
        '/\\evil.com',
        '\\\\evil.com',
        'https://evil.com/',
        'http:evil.com',
        '/\t/evil.com',
        '\t//evil.com',
        ' //evil.com',
        'javascript:alert(1)',
        'data:text/html,x',
        '//evil.com/es/about',
        '',
      ]) {
        await page.goto(`${base}/page?twin=${encodeURIComponent(twin)}`);
        await settled(page);
        expect(new URL(page.url()).pathname, JSON.stringify(twin)).toBe('/page');
      }
      expect(left).toEqual([]);
      // the same page with a twin of ours is followed, its query and hash kept
      await page.goto(`${base}/page?twin=${encodeURIComponent('/es/about')}#x`);
      await expect(page).toHaveURL(`${base}/es/about?twin=${encodeURIComponent('/es/about')}#x`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
