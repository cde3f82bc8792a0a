/**
 * Takes screenshots of pages for a person to look at:
 *   npx tsx scripts/screenshot.ts <url> <out.png> [width=1280] [height=800] [--full] [--wait=ms] [--click=selector] [--scroll=px]
 */
import { chromium } from 'playwright';
import { launchOptions } from '../tests/support/chromium.ts';

const [url, out, w = '1280', h = '800'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const full = flags.includes('--full');
const wait = Number(flags.find((f) => f.startsWith('--wait='))?.slice(7) ?? 800);
const scroll = Number(flags.find((f) => f.startsWith('--scroll='))?.slice(9) ?? 0);
const clicks = flags.filter((f) => f.startsWith('--click=')).map((f) => f.slice(8));
if (!url || !out) {
  console.error('usage: screenshot <url> <out.png> [width] [height] [--full] [--wait=ms] [--click=selector]');
  process.exit(2);
}
const browser = await chromium.launch(launchOptions);
const page = await browser.newPage({
  viewport: { width: Number(w), height: Number(h) },
  deviceScaleFactor: 1,
  isMobile: Number(w) < 500,
  hasTouch: Number(w) < 500,
});
page.on('console', (m) => console.log(`[console.${m.type()}] ${m.text()}`));
page.on('pageerror', (e) => console.log(`[pageerror] ${e.message}`));
// a page whose map asks tiles of a host this machine cannot reach never goes idle: then its load and the wait
await page.goto(url, { waitUntil: 'networkidle', timeout: 15_000 }).catch(() => page.goto(url, { waitUntil: 'load' }));
for (const c of clicks) {
  await page.locator(c).first().click();
  await page.waitForTimeout(400);
}
if (scroll) await page.evaluate((y) => window.scrollTo(0, y), scroll);
await page.waitForTimeout(wait);
await page.screenshot({ path: out, fullPage: full });
await browser.close();
console.log(out);
