/**
 * What a partner's page downloads: the JavaScript actually fetched by a page that holds only the
 * given elements and our one script tag, each file's size after gzip (level 9, as the build's size
 * table). Used by the weight test (budgets) and by the benchmark (docs/benchmarks.md).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright';

export interface PageWeight {
  files: Array<{ url: string; bytes: number; gzip: number }>;
  totalGzip: number;
  entryGzip: number;
}

/**
 * What i18next costs (gzip, level 9): the library alone, minified, is 15.7 KB
 * (scripts/weight-budgets.test.ts measures it); in our runtime chunk it adds 14.9 KB. The page
 * budgets rise by that and no more (docs/decisions.md #25).
 */
export const I18NEXT_GZIP = 16 * 1024;

export const WEIGHT_BUDGETS = {
  /** the one script every partner page pays for */
  entry: 10 * 1024,
  /** a page with only <exp-agent-directory> */
  directory: 105 * 1024 + I18NEXT_GZIP,
  /**
   * a page with <exp-property-search> and its map; 1 KB more since issues 43-44 (docs/decisions.md
   * #22): the picked place's median (its loader; the figure's code comes only with a place), an
   * unknown place said instead of an empty map, and the location box shared with the valuation;
   * 1 KB more since issue 45: each card's next open house (its times read and written in Ecuador's
   * time), "Open house this week" with its chip, and the popup's "Schedule a visit"; 0.5 KB more
   * since issue 46: Buy / Rent first in the bar, a rent's price steps and "/month" on cards and
   * pins, after "More filters" and the chips went to chunks of their own (loaded when opened, and
   * once a search has a filter); 0.1 KB more since issue 57: the one clock the cards' days on the
   * market, price cuts and open houses read (core/clock.ts, docs/decisions.md #33, 86 bytes in the
   * runtime chunk); 0.4 KB more since issue 58: the map's credit names the deployment's tile
   * provider (`tile-attribution`, read as text and links), and the valuation's small map shows it
   * too, so the map's controls no longer share one chunk with main-thread.ts; 0.125 KB more since
   * issue 59: the entry's line that loads <exp-agent-area> where it is (its code, auth-js with it,
   * is a chunk of its own that only the agents' page downloads); 0.25 KB more since its second
   * part: the Spanish address said in Spanish (/es/agente, core/routes.ts SPANISH_PATHS, which
   * every link and the language switch read) and a profile's about in the page's language; 0.5 KB
   * more since issue 60: every form that takes personal data (the detail's inquiry, the alert
   * dialog) says what happens to it and links the privacy notice on our site (docs/privacy.md), and
   * the shared chunks moved when the agents' area started its first calls from the API's settings
   * (measured: the runtime +147 bytes of linkage, visits' intent a chunk of its own, 160); 0.25 KB
   * more since its consents and issue 61: the optional boxes in the detail's inquiry form
   * (docs/privacy.md "Consents"), and the search's address, place name, last page and types each a
   * hook of their own (use-url-sync.ts, search-hooks.ts); 1.6 KB less since issue 64: nine pieces
   * smaller than a chunk's own cost (the lazy loader, the main-thread yield, the site's links and
   * routes, the visit intent, four icons) went into the runtime chunk (measured: the search page
   * 225,362 -> 223,441 bytes, the directory page 108,708 -> 109,495); 1.5 KB less again: the pieces
   * of a listing every listing's view draws (the photos' carousel and placeholder, the heart and the
   * saved store, the badges, the listing's reading) one chunk instead of seven (vite.config.ts
   * LISTING_UI; the search page 221,733 bytes in 15 files); 0.125 KB more since "What's nearby" in
   * the listing's detail (docs/projects.md "What is near"): none of its code, texts or utilities is
   * on the first screen (they come with the detail, loaded when a listing opens; utilities the detail
   * already had), but every chunk's name changed with it, and names' hashes compress differently
   * (measured: +15 bytes over 15 files, 222,196 -> 222,211, past a budget that had 12 left); 0.25 KB
   * more since issue 64's `loading="lazy"` (docs/embedding.md "The script"): the entry watches such
   * an element with two intersection observers (the entry 959 -> 1,126 bytes), which takes the
   * footer and "Recently viewed" off our own site's pages (its search page 9.1 KB lighter); 0.0625 KB
   * more since the outline under the tiles is drawn only while it can be seen (map-base.ts
   * `underlay`) and tiles come without fading in (measured: the page 222,549 -> 222,618
   * bytes); 0.25 KB more since a search page's HTML carries its first answer (docs/product.md "In the
   * page's HTML"): the element starts from it instead of asking (the answer's reading, in the runtime
   * with the directory's, the featured block's and a listing's: widgets/lib/page-answer.ts), and the
   * search's address rules moved to core/protocol/search-state.ts for the server to read too
   * (measured: 222,630 -> 222,856 bytes); 0.375 KB more since the search stopped redoing at load
   * what its page had done (the served JSON-LD kept as it came, the store made at the address's
   * search, the tiles waiting for the view's first place, a card's next photo fetched when the visitor
   * comes to it; measured: 222,856 -> 223,161 bytes, for a main thread 13% less busy as the page
   * loads, docs/benchmarks.md "Measured apart"); 0.375 KB more since a phone's map waits behind "Show the map"
   * (the button, its icon and the tab's memory of it in the map panel's chunk; measured: 223,161 ->
   * 223,621 bytes), for a phone's page 80 KB lighter (`searchPhone`); 0.125 KB more since a hover
   * draws only what it changes (the hovered listing a signal the map and each card read: a card's
   * wrapper in the search's chunk, the map's subscription; measured: 223,621 -> 223,718 bytes, for
   * "open the detail" p75 276 -> 216 ms in the INP benchmark, docs/benchmarks.md "A hover"). Measured
   * since 2026-12-05 with the chunks' hashes as stand-ins (`contentGzip`): the tree of 337ef1a then
   * 223,802 bytes, with its own hashes 223,798 and, rebuilt with one server-side change, 223,822;
   * 0.0625 KB more since the elements' Spanish comes element by element (scripts/widget-texts.ts:
   * each element's and part's texts say where their Spanish is, and the runtime keeps which it has;
   * measured: 223,799 -> 223,839 bytes), for a Spanish page that no longer downloads every element's
   * Spanish texts, nor them twice on our site (the search's in Spanish: 135 KB of texts -> 50 KB, raw);
   * 0.5 KB less since the finished code leaves out the minifier's `@__PURE__` marks
   * (scripts/finished-code.ts; measured: 223,876 -> 223,324 bytes, with a listing's view count that
   * reads its answer to the end). Issue 64 takes the page to 200 KB.
   */
  search: 201 * 1024 + 704 + 384 + 384 + 128 + 64 - 512 + I18NEXT_GZIP,
  /**
   * the same page on a phone (390 px): no map is shown until the visitor asks, so neither
   * OpenLayers nor the map's code is downloaded (measured: 142,856 bytes; 142,631 without the
   * minifier's marks, scripts/finished-code.ts)
   */
  searchPhone: 139.5 * 1024,
} as const;

export const WEIGHT_PAGES = {
  directory: {
    body: '<exp-agent-directory></exp-agent-directory>',
    ready: 'exp-agent-directory >> [part="agent-card"]',
  },
  search: {
    body: '<exp-property-search sync-url="false"></exp-property-search>',
    ready: 'exp-property-search >> [part="map"] [data-status="ready"]',
  },
  /** the same page on a phone, where the map waits behind "Show the map" (docs/product.md §2) */
  searchPhone: {
    body: '<exp-property-search sync-url="false"></exp-property-search>',
    ready: 'exp-property-search >> [part~="card"]',
    viewport: { width: 390, height: 844 },
  },
} as const satisfies Record<string, { body: string; ready: string; viewport?: { width: number; height: number } }>;

/**
 * A file's size after gzip, its chunks' names' hashes (`runtime-D67yuHub.js`) first replaced by
 * stand-ins as long, as random and as often repeated: a change anywhere gives every chunk new hashes,
 * and random names compress a few bytes better or worse, which moved a page's weight by up to 30 bytes
 * with no byte of code changed (docs/benchmarks.md "Weight"). The raw size is the file's own.
 */
function contentGzip(body: Buffer): number {
  const standIns = new Map<string, string>();
  const text = body.toString('utf8').replace(/-([\w-]{8})\.(js|json|css)\b/g, (_, hash: string, ext: string) => {
    if (!standIns.has(hash))
      standIns.set(hash, createHash('sha256').update(String(standIns.size)).digest('base64url').slice(0, 8));
    return `-${standIns.get(hash)}.${ext}`;
  });
  return gzipSync(text, { level: 9 }).length;
}

export async function pageWeight(page: Page, origin: string, which: keyof typeof WEIGHT_PAGES): Promise<PageWeight> {
  const spec = WEIGHT_PAGES[which];
  const url = `${origin}/weight-${which}`;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="/widgets/exp-widgets.js"></script></head><body>${spec.body}</body></html>`,
    }),
  );
  const pending: Array<Promise<PageWeight['files'][number] | undefined>> = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response
        .body()
        .then((body) => ({ url: response.url(), bytes: body.length, gzip: contentGzip(body) }))
        .catch(() => undefined),
    );
  };
  page.on('response', onResponse);
  const viewport = page.viewportSize();
  try {
    if ('viewport' in spec) await page.setViewportSize(spec.viewport);
    await page.goto(url);
    await page.locator(spec.ready).first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    // what the page fetches once idle (the map's code is fetched then where a map is shown)
    await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 5000 })));
    await page.waitForLoadState('networkidle');
  } finally {
    if (viewport) await page.setViewportSize(viewport);
    page.off('response', onResponse);
    await page.unroute(url);
  }
  const files = (await Promise.all(pending)).filter((f): f is PageWeight['files'][number] => Boolean(f));
  const entry = files.find((f) => /\/widgets\/exp-widgets\.js$/.test(new URL(f.url).pathname));
  return { files, totalGzip: files.reduce((n, f) => n + f.gzip, 0), entryGzip: entry?.gzip ?? NaN };
}
