/**
 * <exp-property-map> draws every match (docs/decisions.md #20), in the test Chromium against the
 * seeded data server (tests/support/property-map.ts): its code is not downloaded by a page without
 * a map; ten pins or fewer drawn as they are, more clustered; with many matches the database's
 * counted cells that add up to the exact count, keeping their fit, following the filters and the
 * clicks on a cluster, a rental's cell saying its month.
 */
import { expect } from '@esm-bundle/chai';
import { sendMouse } from '@web/test-runner-commands';
import { API_URL, BUNDLE_URL, mount, quiet, waitFor } from './helpers.ts';

/** longer than the map waits for its view to rest before it asks for cells (widgets/lib/map/cell-loader.ts CELLS_DEBOUNCE, 30 ms) */
const CELLS_WAIT_PAST = 100;
import { apiCount, apiRows, mapReady, useMapPage, type MapHandle } from '../support/property-map.ts';

function loadedScripts(win: Window): string[] {
  return win.performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((n) => n.endsWith('.js'));
}

async function frame(html: string): Promise<HTMLIFrameElement> {
  const f = document.createElement('iframe');
  f.style.cssText = 'width:900px;height:700px;border:0';
  f.srcdoc = `<!doctype html><html lang="en"><head><script type="module" src="${BUNDLE_URL}"></script></head><body>${html}</body></html>`;
  document.body.append(f);
  await new Promise((r) => f.addEventListener('load', r, { once: true }));
  return f;
}

describe('the map: its pins and clusters', () => {
  useMapPage();

  it('is not downloaded by a page without a map', async () => {
    const f = await frame(
      `<exp-language-switch></exp-language-switch><exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="loja"></exp-property-search>`,
    );
    const win = f.contentWindow as Window;
    const search = await waitFor(
      () => f.contentDocument?.querySelector('exp-property-search')?.shadowRoot?.querySelector('[part~="card"]'),
      15000,
      'cards',
    );
    expect(search).to.not.equal(null);
    const scripts = loadedScripts(win);
    expect(scripts.some((s) => s.includes('/chunks/runtime-'))).to.equal(true);
    expect(scripts.some((s) => s.includes('ol-map'))).to.equal(false);
    const withMap = await frame(`<exp-property-map api-url="${API_URL}" city="olon"></exp-property-map>`);
    await waitFor(
      () => loadedScripts(withMap.contentWindow as Window).some((s) => s.includes('ol-map')),
      15000,
      'map chunk where there is a map',
    );
  });

  it('draws every matching listing and clusters them when there are more than 10', async () => {
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="olon" property-type="house"></exp-property-map>`,
      'exp-property-map',
    );
    const expected = await apiCount('place_search=like.*olon*&property_type=ilike.*house*');
    expect(expected).to.be.greaterThan(10);
    const target = await mapReady(el, expected);
    const stats = await waitFor(
      () => {
        const s = target.expMap.stats();
        return s.clusters.length > 0 || s.singles > 0 ? s : null;
      },
      5000,
      'rendered clusters',
    );
    // every pin is in exactly one cluster or drawn on its own
    expect(stats.clusters.reduce((a, b) => a + b, 0) + stats.singles).to.equal(expected);
    expect(stats.clusters.length).to.be.greaterThan(0);
  });

  describe("with many matches: the database's clusters", () => {
    // the calls of the clusters, as the browser saw them go out
    const clusterCalls = () =>
      performance.getEntriesByType('resource').filter((e) => e.name.includes('/rest/v1/rpc/listing_clusters')).length;
    before(() => {
      (globalThis as { expClustersAbove?: number }).expClustersAbove = 100;
      performance.setResourceTimingBufferSize(5000);
    });
    beforeEach(() => performance.clearResourceTimings());
    after(() => {
      delete (globalThis as { expClustersAbove?: number }).expClustersAbove;
    });
    const cellsDrawn = (el: Element, count?: number) =>
      waitFor(
        () => {
          const target = el.shadowRoot?.querySelector<
            HTMLElement & {
              expMap: MapHandle & {
                map: {
                  getView(): {
                    getZoom(): number;
                    setZoom(z: number): void;
                    setCenter(c: number[]): void;
                    getCenter(): number[];
                  };
                };
              };
            }
          >('[part="map"] [data-mode="cells"][data-drawn]');
          return target && (count === undefined || Number(target.dataset.drawn) === count) ? target : null;
        },
        20000,
        'clusters drawn',
      );

    it('draws every match as counted cells that add up to the exact count, and never loads the points', async () => {
      const el = await mount(`<exp-property-map api-url="${API_URL}"></exp-property-map>`, 'exp-property-map');
      const total = await apiCount('');
      const target = await cellsDrawn(el, total);
      const stats = target.expMap.stats();
      expect(stats.clusters.reduce((a, b) => a + b, 0) + stats.singles).to.equal(total);
      // the whole world once (to fit every match), then the fitted view, and no more once the view rests
      await quiet(CELLS_WAIT_PAST);
      expect(clusterCalls()).to.equal(2);
      const points = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/rest/v1/listings?select=id%2Clat'));
      expect(points.length).to.equal(0);
    });

    it("keeps the fit when the view moves while the whole world's call is on its way (a first render, a resize)", async () => {
      const el = await mount(`<exp-property-map api-url="${API_URL}"></exp-property-map>`, 'exp-property-map');
      const target = await cellsDrawn(el);
      type View = { bbox: number[]; zoom: number };
      type Cell = {
        count: number;
        lat: number;
        lng: number;
        bounds: number[];
        priceFrom: number;
        priceTo: number;
        id: null;
        approximate: boolean;
      };
      const handle = target.expMap as unknown as {
        setCells(
          loader: (v: View, signal: AbortSignal) => Promise<Cell[]>,
          fit: boolean,
          events: { onDrawn(n: number): void; onError(e: unknown): void },
        ): void;
        map: { dispatchEvent(type: string): void; getView(): { calculateExtent(): number[] } };
      };
      // the world's answer waits until the test lets it go: cells around Guayaquil only
      const calls: Array<{ view: View; signal: AbortSignal }> = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const guayaquil: Cell = {
        count: 40,
        lat: -2.17,
        lng: -79.9,
        bounds: [-79.95, -2.2, -79.85, -2.1],
        priceFrom: 90000,
        priceTo: 300000,
        id: null,
        approximate: false,
      };
      let drawn = -1;
      handle.setCells(
        async (view, signal) => {
          calls.push({ view, signal });
          if (calls.length === 1) await held;
          return [guayaquil];
        },
        true,
        {
          onDrawn: (n) => (drawn = n),
          onError: (e) => {
            throw e;
          },
        },
      );
      // moves end while the world is still asked for
      handle.map.dispatchEvent('moveend');
      await quiet(CELLS_WAIT_PAST);
      handle.map.dispatchEvent('moveend');
      await quiet(CELLS_WAIT_PAST);
      expect(calls.length).to.equal(1);
      expect(calls[0]!.signal.aborted).to.equal(false);
      release();
      await waitFor(() => drawn === 40, 5000, 'the fitted view drawn');
      // the fitted view's call covers Guayaquil, not the view before the fit
      expect(calls.length).to.equal(2);
      const [w, s, e, n] = calls[1]!.view.bbox as [number, number, number, number];
      expect(
        w <= -79.95 && s <= -2.2 && e >= -79.85 && n >= -2.1,
        `fitted bbox ${calls[1]!.view.bbox.join(',')}`,
      ).to.equal(true);
      expect(e - w).to.be.below(5);
    });

    it('follows the filters, zooms into a cluster on click, and asks again for the new view (debounced, cached)', async () => {
      const el = await mount(
        `<exp-property-map api-url="${API_URL}" city="quito"></exp-property-map>`,
        'exp-property-map',
      );
      const total = await apiCount('place_search=like.*quito*');
      expect(total).to.be.greaterThan(100);
      const target = await cellsDrawn(el, total);
      const view = target.expMap.map.getView();
      const before = view.getZoom();
      const center = view.getCenter();
      const cluster = await waitFor(
        () => target.expMap.stats().clusters.length > 0 && target.expMap.stats(),
        5000,
        'a cluster',
      );
      expect(cluster.clusters.length).to.be.greaterThan(0);
      // click the biggest cluster: the view zooms into its listings and the cells of the new view come
      await quiet(CELLS_WAIT_PAST);
      const sent = clusterCalls();
      const px = target.expMap.cells().sort((a, b) => b.count - a.count)[0]!.pixel;
      const rect = target.getBoundingClientRect();
      await sendMouse({ type: 'click', position: [Math.round(rect.left + px[0]!), Math.round(rect.top + px[1]!)] });
      await waitFor(() => view.getZoom() > before, 5000, 'zoomed in');
      await waitFor(() => clusterCalls() > sent, 5000, 'cells of the new view');
      // back to the first view: answered from the cache, no request
      await quiet(CELLS_WAIT_PAST);
      const afterZoom = clusterCalls();
      view.setCenter(center);
      view.setZoom(before);
      await quiet(CELLS_WAIT_PAST);
      expect(clusterCalls()).to.equal(afterZoom);
      await cellsDrawn(el, total);
      // a new filter: a new fit over its matches only
      el.setAttribute('property-type', 'house');
      const houses = await apiCount('place_search=like.*quito*&property_type=ilike.*house*');
      await cellsDrawn(el, houses);
    });

    it("a rent search's cell of one rental says its month, as a rental's pin does", async () => {
      const el = await mount(
        `<exp-property-map api-url="${API_URL}" operation="rent"></exp-property-map>`,
        'exp-property-map',
      );
      const target = await cellsDrawn(el);
      // close in on a rental, where the cells hold one listing each
      const [rental] = await apiRows(
        'select=lat,lng&country_code=eq.EC&status=eq.1&operation=eq.rent&lat=not.is.null&order=id&limit=1',
      );
      const view = target.expMap.map.getView();
      const half = 20037508.342789244;
      const [lng, lat] = [Number(rental?.lng), Number(rental?.lat)];
      view.setCenter([
        (lng * half) / 180,
        (Math.log(Math.tan(((90 + lat) * Math.PI) / 360)) / (Math.PI / 180)) * (half / 180),
      ]);
      view.setZoom(18);
      const labels = await waitFor(
        () => {
          const drawn = (target.expMap as unknown as { singleLabels(): string[] }).singleLabels();
          return drawn.length ? drawn : null;
        },
        15000,
        'a cell of one rental',
      );
      expect(labels.length).to.be.greaterThan(0);
      for (const label of labels) expect(label).to.match(/^\$[\d.,]+[KM]?\/month$/);
    });
  });

  it('draws pins without clustering for 10 or fewer, and rebuilds them when the filters change', async () => {
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`,
      'exp-property-map',
    );
    const few = await apiCount('place_search=like.*bahia*&property_type=ilike.*house*');
    expect(few).to.be.at.most(10);
    const target = await mapReady(el, few);
    expect(target.expMap.stats()).to.deep.equal({ clusters: [], singles: few });
    el.setAttribute('property-type', 'apartment');
    const apartments = await apiCount('place_search=like.*bahia*&property_type=ilike.*apartment*');
    await mapReady(el, apartments);
  });
});
