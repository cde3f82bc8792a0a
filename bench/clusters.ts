/**
 * The map at 100,000 listings on PostgreSQL (docs/decisions.md #20):
 *  - the clusters call (public.listing_clusters through postgrest-js .rpc(), as the map sends it)
 *    for the whole-country view and a city view, with and without filters: p50/p95 and the answer's
 *    size gzip;
 *  - in Chromium with 4x CPU slowdown, the search page: how long after the fitted view's answer
 *    arrives its clusters are drawn, whether they add up to the exact count, and how long a pan or
 *    zoom takes until its cells are drawn (the 30 ms debounce included).
 * Targets: call p95 <= 30 ms, answer <= 30 KB gzip, drawn within 1 s, pan/zoom p95 <= 200 ms; at
 * 100,000 listings and at the default site's 1,800 (the search page draws the database's clusters
 * above 500 matches, so both sizes take that path).
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright';
import { openPostgres } from '../server/db/postgres.ts';
import { migrate, reseed } from '../server/db/setup.ts';
import {
  clusterArgs,
  getListingsCount,
  getMapClusters,
  type MapView,
  type SearchFilters,
} from '../widgets/lib/data/listings.ts';
import { launchOptions } from '../tests/support/chromium.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { startServerProcess } from '../tests/support/server-process.ts';
import { gzipSize, summarise, time } from './stats.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ITERATIONS = 200;
const WARMUP = 30;
const TEST_WIDGETS = resolve(import.meta.dirname, '../dist/test-widgets');
const MOVES = 40;

/** the views the map asks for: the country as a 1366 px page fits it, and Quito's centre */
const CASES: Array<{ name: string; view: MapView; filters: SearchFilters }> = [
  { name: 'country', view: { zoom: 7, bbox: [-81.5625, -5.6159, -75.9375, 1.4061] }, filters: {} },
  { name: 'city (Quito)', view: { zoom: 13, bbox: [-78.5742, -0.2197, -78.4424, -0.0879] }, filters: {} },
  {
    name: 'country, houses over $150,000',
    view: { zoom: 7, bbox: [-81.5625, -5.6159, -75.9375, 1.4061] },
    filters: { propertyType: 'house', minPrice: 150000 },
  },
  {
    name: 'country, city "quito"',
    view: { zoom: 7, bbox: [-81.5625, -5.6159, -75.9375, 1.4061] },
    filters: { city: 'quito' },
  },
];

/** The default site's size (the seed of `npm start`), measured beside the large one: the map must be as quick there. */
const DEFAULT_SEED = 1_800;

export async function benchClusters(): Promise<Record<string, unknown>> {
  if (!existsSync(join(TEST_WIDGETS, 'exp-widgets.js')))
    throw new Error(
      'dist/test-widgets is missing: run `node --import tsx scripts/build.ts --test-widgets` (npm test builds it)',
    );
  const postgres = await startPostgres();
  const results: Record<string, unknown> = { listings: LISTINGS, iterations: ITERATIONS };
  try {
    Object.assign(results, await atSize(postgres.url, LISTINGS));
    results.defaultSeed = await atSize(postgres.url, DEFAULT_SEED);
    results.markdown = markdown(results);
  } finally {
    await postgres.stop();
  }
  return results;
}

/** The calls and the browser with the database seeded with `listings` listings. */
async function atSize(databaseUrl: string, listings: number): Promise<Record<string, unknown>> {
  console.log(`[bench:clusters] PostgreSQL: seeding ${listings} listings...`);
  const db = await openPostgres(databaseUrl);
  await migrate(db);
  await reseed(db, listings);
  await db.close();
  const server = await startServerProcess({ DATABASE_URL: databaseUrl });
  try {
    const rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'bench' } });
    const calls: Record<string, unknown> = {};
    for (const c of CASES) {
      for (let i = 0; i < WARMUP; i++) await getMapClusters(rest, c.filters, c.view);
      const samples: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) samples.push(await time(() => getMapClusters(rest, c.filters, c.view)));
      const cells = await getMapClusters(rest, c.filters, c.view);
      const size = await gzipSize(
        `${server.url}/rest/v1/rpc/listing_clusters`,
        JSON.stringify(clusterArgs(c.filters, c.view)),
      );
      const raw = Buffer.byteLength(JSON.stringify(cells));
      calls[c.name] = {
        ...summarise(samples),
        cells: cells.length,
        listings: cells.reduce((n, x) => n + x.count, 0),
        bytes: raw,
        gzipBytes: size,
      };
      console.log(
        `[bench:clusters] ${listings} listings, ${c.name}: p50 ${summarise(samples).p50} ms, p95 ${summarise(samples).p95} ms, ${cells.length} cells, ${size} B gzip`,
      );
    }
    const total = await getListingsCount(rest, {});
    return { listings, calls, total, browser: await inBrowser(server.url, total) };
  } finally {
    await server.stop();
  }
}

/** The search page at 4x CPU: the clusters drawn after the data arrives, and pans and zooms. */
async function inBrowser(url: string, total: number): Promise<Record<string, unknown>> {
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.addInitScript('window.__name = (f) => f;');
    // the production site with the test build of the widgets (the map's hooks); tiles never load
    await page.route(`${url}/widgets/**`, (route) => {
      const file = join(TEST_WIDGETS, new URL(route.request().url()).pathname.slice('/widgets/'.length));
      if (!file.startsWith(TEST_WIDGETS) || !existsSync(file)) return route.continue();
      return route.fulfill({
        contentType: extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream',
        body: readFileSync(file),
      });
    });
    await page.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 204 }));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const first: number[] = [];
    let drawnTotal = 0;
    for (let run = 0; run < 5; run++) {
      await page.goto(`${url}/search-properties?run=${run}`);
      // when each data-drawn is set, against the answers' arrival (resource timing)
      await page.evaluate(() => {
        const w = window as unknown as { drawnAt: number[] };
        w.drawnAt = [];
        const watch = () => {
          const target = document
            .querySelector('exp-property-search')
            ?.shadowRoot?.querySelector('[part="map"] [data-status]');
          if (!target) return void setTimeout(watch, 20);
          new MutationObserver(() => w.drawnAt.push(performance.now())).observe(target, {
            attributes: true,
            attributeFilter: ['data-drawn'],
          });
        };
        watch();
      });
      const target = page.locator('exp-property-search [part="map"] [data-drawn]');
      await target.waitFor({ state: 'attached', timeout: 60000 });
      const timing = await page.evaluate(() => {
        const calls = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/rpc/listing_clusters')) as PerformanceResourceTiming[];
        const drawn = (window as unknown as { drawnAt: number[] }).drawnAt;
        return { arrived: calls.at(-1)?.responseEnd ?? NaN, drawn: drawn[0] ?? NaN, calls: calls.length };
      });
      first.push(timing.drawn - timing.arrived);
      drawnTotal = Number(await target.getAttribute('data-drawn'));
    }
    // pans and zooms: from the view's change to its cells drawn
    const moves: number[] = [];
    await page.locator('exp-property-search [part="map"]').scrollIntoViewIfNeeded();
    for (let i = 0; i < MOVES; i++) {
      const ms = await page.evaluate(async (step) => {
        const target = document
          .querySelector('exp-property-search')
          ?.shadowRoot?.querySelector('[part="map"] [data-drawn]') as HTMLElement & {
          expMap: {
            map: {
              getView(): {
                getZoom(): number;
                setZoom(z: number): void;
                getCenter(): number[];
                setCenter(c: number[]): void;
                getResolution(): number;
              };
            };
          };
        };
        const view = target.expMap.map.getView();
        const w = window as unknown as { drawnAt: number[] };
        const before = w.drawnAt.length;
        const t0 = performance.now();
        // zoom in twice, pan, zoom out twice, pan back: every view new to the cache
        const kind = step % 4;
        if (kind === 0) view.setZoom(view.getZoom() + 1);
        else if (kind === 1)
          view.setCenter([
            view.getCenter()[0]! + 300 * view.getResolution(),
            view.getCenter()[1]! - 200 * view.getResolution(),
          ]);
        else if (kind === 2)
          view.setCenter([
            view.getCenter()[0]! - 250 * view.getResolution(),
            view.getCenter()[1]! + 260 * view.getResolution(),
          ]);
        else view.setZoom(view.getZoom() + 1);
        for (;;) {
          if (w.drawnAt.length > before) return (w.drawnAt[w.drawnAt.length - 1] ?? NaN) - t0;
          if (performance.now() - t0 > 10000) return NaN;
          await new Promise((r) => setTimeout(r, 5));
        }
      }, i);
      moves.push(ms);
      if (i % 8 === 7)
        await page.evaluate(() => {
          const target = document
            .querySelector('exp-property-search')
            ?.shadowRoot?.querySelector('[part="map"] [data-drawn]') as HTMLElement & {
            expMap: { map: { getView(): { setZoom(z: number): void } } };
          };
          target.expMap.map.getView().setZoom(8);
        });
      await page.waitForTimeout(300);
    }
    console.log(
      `[bench:clusters] browser: drawn ${summarise(first).p50} ms after the answer (p50), pan/zoom p95 ${summarise(moves.filter(Number.isFinite)).p95} ms, ${drawnTotal} of ${total}`,
    );
    return {
      cpuSlowdown: 4,
      drawnAfterData: summarise(first),
      drawnRuns: first.map((x) => Math.round(x)),
      panZoom: summarise(moves.filter(Number.isFinite)),
      drawnTotal,
      exactCount: total,
      addsUp: drawnTotal === total,
    };
  } finally {
    await browser.close();
  }
}

type SizeResult = {
  listings: number;
  total: number;
  calls: Record<string, { p50: number; p95: number; cells: number; listings: number; gzipBytes: number }>;
  browser: {
    drawnAfterData: { p50: number; max: number };
    drawnRuns: number[];
    panZoom: { p50: number; p95: number; max: number };
    drawnTotal: number;
    exactCount: number;
    addsUp: boolean;
  };
};

function markdown(r: Record<string, unknown>): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const sizes = [r as unknown as SizeResult, r.defaultSeed as SizeResult].filter(Boolean);
  const miss: string[] = [];
  const lines = [`### Map clusters (PostgreSQL; ${new Date().toISOString().slice(0, 10)})`, ''];
  for (const size of sizes) {
    const { calls, browser: b } = size;
    const at = `at ${fmt(size.listings)} listings`;
    for (const name of ['country', 'city (Quito)'])
      if ((calls[name]?.p95 ?? Infinity) > 30) miss.push(`${name} call p95 ${at}`);
    if (Object.values(calls).some((c) => c.gzipBytes > 30 * 1024)) miss.push(`answer size ${at}`);
    if (b.drawnAfterData.max > 1000) miss.push(`drawn within 1 s ${at}`);
    if (b.panZoom.p95 > 200) miss.push(`pan/zoom p95 ${at}`);
    if (!b.addsUp) miss.push(`counts add up ${at}`);
    lines.push(
      `**${fmt(size.total)} active listings of ${fmt(size.listings)}.** The clusters call as the map sends it (postgrest-js \`.rpc()\` through our server), 200 times each after 30 untimed:`,
      '',
      '| view | p50 | p95 | cells | listings in them | answer (gzip) |',
      '|---|---|---|---|---|---|',
      ...Object.entries(calls).map(
        ([name, c]) =>
          `| ${name} | ${c.p50} ms | ${c.p95} ms | ${c.cells} | ${fmt(c.listings)} | ${(c.gzipBytes / 1024).toFixed(1)} KB |`,
      ),
      '',
      `The search page in Chromium at 4x CPU slowdown (1366x900): the fitted view's clusters drawn ${b.drawnRuns.join(', ')} ms after its answer arrived (5 loads); they add up to ${fmt(b.drawnTotal)} of the exact count ${fmt(b.exactCount)}. A pan or zoom until its cells are drawn (30 ms debounce included): p50 ${b.panZoom.p50} ms, p95 ${b.panZoom.p95} ms, max ${b.panZoom.max} ms.`,
      '',
    );
  }
  lines.push(
    `Targets: call p95 ≤ 30 ms (country and city), answer ≤ 30 KB gzip, drawn within 1 s, pan/zoom p95 ≤ 200 ms, counts add up; at both sizes. ${miss.length ? `Missed: ${miss.join(', ')}.` : 'Met.'}`,
  );
  return lines.join('\n');
}
