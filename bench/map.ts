/**
 * Map benchmark in headless Chromium: 5,000 and 20,000 pins (the light call is capped at 5,000;
 * 20,000 shows the headroom), time to the first complete render and time per zoom step (each
 * step re-clusters and redraws). Target: at most 50 ms per zoom step at 5,000 pins.
 */
import { summarise } from './stats.ts';
import { withSite } from './site.ts';

const SIZES = [5000, 20000];
/** the widgets with the map's test hooks (vite.config.ts, mode test-widgets), which the bench drives the map through */
const ZOOM_STEPS = 7;

export async function benchMap(): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  await withSite({ seedListings: 200, testWidgetsAt: '/test-widgets/' }, async (page, url) => {
    await page.route(`${url}/bench-map`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        // tiles from our own server (a tiny image), so the network is not what is measured
        body: `<!doctype html><html lang="en"><body style="margin:0"><script type="module" src="/test-widgets/exp-widgets.js"></script><exp-property-map city="no such place" tile-url="${url}/favicon.svg?{z}/{x}/{y}" style="display:block;width:900px"></exp-property-map></body></html>`,
      }),
    );
    for (const size of SIZES) {
      await page.goto(`${url}/bench-map`);
      await page.waitForFunction(
        () =>
          document.querySelector('exp-property-map')?.shadowRoot?.querySelector('[part="map"] [data-status="ready"]'),
        null,
        {
          timeout: 30000,
        },
      );
      const run = await page.evaluate(
        async ({ n, steps }) => {
          type Handle = {
            setPins(p: unknown[], fit: boolean): Promise<boolean>;
            map: { once(t: string, f: () => void): void; getView(): { getZoom(): number; setZoom(z: number): void } };
            stats(): { clusters: number[]; singles: number };
          };
          const target = document
            .querySelector('exp-property-map')
            ?.shadowRoot?.querySelector('[part="map"] [data-status="ready"]') as unknown as {
            expMap: Handle;
          };
          const handle = target.expMap;
          // pins spread over Ecuador's mainland the way listings are: dense in cities, sparse between
          const cities = [
            [-0.18, -78.47, 0.35],
            [-2.17, -79.9, 0.3],
            [-2.9, -79.0, 0.15],
            [-0.97, -80.7, 0.08],
            [-2.21, -80.95, 0.05],
            [-1.25, -78.62, 0.04],
            [0.35, -78.12, 0.03],
          ];
          let seed = 7;
          const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
          const pins = Array.from({ length: n }, (_, i) => {
            let k = rnd();
            let c = cities[0]!;
            for (const city of cities) {
              k -= city[2]!;
              if (k <= 0) {
                c = city;
                break;
              }
            }
            const spread = rnd() < 0.15 ? 1.2 : 0.08;
            return {
              id: String(i + 1),
              lat: c[0]! + (rnd() - 0.5) * spread,
              lng: c[1]! + (rnd() - 0.5) * spread,
              price: 50000 + Math.floor(rnd() * 900000),
              approximate: rnd() < 0.02,
            };
          });
          const when = (type: string) =>
            new Promise<number>((resolve) => handle.map.once(type, () => resolve(performance.now())));
          const t0 = performance.now();
          // the pins are made a slice at a time; the first render follows the last slice
          await handle.setPins(pins, true);
          const first = (await when('rendercomplete')) - t0;
          const view = handle.map.getView();
          // a zoom step: the work until the first frame at the new zoom (re-clustering and drawing),
          // and until the map has settled (cluster animation done, tiles drawn)
          const frames: number[] = [];
          const settled: number[] = [];
          const start = view.getZoom();
          const step = async (z: number) => {
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
            const t = performance.now();
            const frame = when('postrender');
            const complete = when('rendercomplete');
            view.setZoom(z);
            frames.push((await frame) - t);
            settled.push((await complete) - t);
          };
          for (let i = 1; i <= steps; i++) await step(start + i);
          for (let i = steps - 1; i >= 0; i--) await step(start + i);
          return { first, frames, settled, clusters: handle.stats().clusters.length };
        },
        { n: size, steps: ZOOM_STEPS },
      );
      results[String(size)] = {
        pins: size,
        firstRenderMs: Math.round(run.first * 10) / 10,
        zoomStepMs: summarise(run.frames),
        zoomSettledMs: summarise(run.settled),
        clustersAtStart: run.clusters,
      };
      console.log(
        `[bench:map] ${size} pins: first render ${run.first.toFixed(1)} ms, zoom step p50 ${summarise(run.frames).p50} ms / max ${summarise(run.frames).max} ms, settled p50 ${summarise(run.settled).p50} ms`,
      );
    }
  });
  const rows = SIZES.map((n) => {
    const r = results[String(n)] as {
      firstRenderMs: number;
      zoomStepMs: { p50: number; max: number };
      zoomSettledMs: { p50: number };
    };
    return `| ${n.toLocaleString('en-US')} | ${r.firstRenderMs} ms | ${r.zoomStepMs.p50} ms | ${r.zoomStepMs.max} ms | ${r.zoomSettledMs.p50} ms |`;
  });
  const markdown = [
    '### Map (headless Chromium, 1280x900)',
    '',
    'A zoom step is the time from the zoom to the first frame drawn at the new zoom (re-clustering and drawing); "settled" also waits for the 350 ms cluster animation and the tiles.',
    '',
    '| pins | first render | zoom step p50 | zoom step max | settled p50 |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'Target: at most 50 ms per zoom step at 5,000 pins.',
  ].join('\n');
  return { ...results, markdown };
}
