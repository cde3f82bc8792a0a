/**
 * What the browser benchmarks share: our server over a throwaway PostgreSQL (the default seed, or
 * `seedListings`), headless Chromium and one 1280x900 page, closed when the run ends. With
 * `testWidgetsAt`, that path serves the test build (dist/test-widgets: the production code with the
 * map's test hooks), which a benchmark drives the map through.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright';
import { startTestServer, type TestServer } from '../tests/support/servers.ts';
import { launchOptions } from '../tests/support/chromium.ts';

const TEST_WIDGETS = resolve(import.meta.dirname, '../dist/test-widgets');

export async function withSite<T>(
  options: { seedListings?: number; testWidgetsAt?: string },
  run: (page: Page, url: string, server: TestServer) => Promise<T>,
): Promise<T> {
  if (options.testWidgetsAt && !existsSync(join(TEST_WIDGETS, 'exp-widgets.js')))
    throw new Error(
      'dist/test-widgets is missing: run `node --import tsx scripts/build.ts --test-widgets` (npm test builds it)',
    );
  const server = await startTestServer('postgres', options.seedListings ? { seedListings: options.seedListings } : {});
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // tsx keeps function names with a helper that page.evaluate's functions carry along
    await page.addInitScript('window.__name = (f) => f;');
    const at = options.testWidgetsAt;
    if (at) {
      await page.route(`${server.url}${at}**`, (route) => {
        const file = join(TEST_WIDGETS, new URL(route.request().url()).pathname.slice(at.length));
        if (!file.startsWith(TEST_WIDGETS) || !existsSync(file)) return route.fulfill({ status: 404 });
        return route.fulfill({
          contentType: extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream',
          body: readFileSync(file),
        });
      });
    }
    return await run(page, server.url, server);
  } finally {
    await browser.close();
    await server.close();
  }
}
