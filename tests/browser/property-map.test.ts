import { expect } from '@esm-bundle/chai';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import { BUNDLE_URL, cleanup, dataApiUrl, loadBundle, mount, shadow, shadowAll, waitFor } from './helpers.ts';

const API_URL = await dataApiUrl();

interface MapHandle {
  pixelOf(id: string): [number, number] | undefined;
  stats(): { clusters: number[]; singles: number };
}

async function apiCount(query: string): Promise<number> {
  // a search without an operation is of sales (docs/product.md "Rent and buy")
  const res = await fetch(`${API_URL}/rest/v1/listings?select=id&country_code=eq.EC&status=eq.1&operation=eq.sale&${query}`, {
    method: 'HEAD',
    headers: { Prefer: 'count=exact' },
  });
  return Number(res.headers.get('content-range')?.split('/')[1]);
}

async function apiRows(query: string): Promise<Array<Record<string, unknown>>> {
  return (await fetch(`${API_URL}/rest/v1/listings?${query}`)).json();
}

/** The map's target, once OpenLayers drew the pins. */
async function mapReady(el: Element, pins?: number): Promise<HTMLElement & { expMap: MapHandle }> {
  return waitFor(
    () => {
      const target = el.shadowRoot?.querySelector<HTMLElement & { expMap: MapHandle }>('[part="map"] [data-status="ready"]');
      return target && target.dataset.pins !== undefined && (pins === undefined || Number(target.dataset.pins) === pins) ? target : null;
    },
    20000,
    'map with pins',
  );
}

/**
 * Moves or clicks the real mouse at a pin (through web-test-runner's Playwright) until `done`
 * says it worked: the map may still be settling when the test first asks where the pin is.
 */
async function atPin(target: HTMLElement & { expMap: MapHandle }, id: string, type: 'move' | 'click', done: () => boolean) {
  for (let attempt = 0; attempt < 6; attempt++) {
    await new Promise((r) => setTimeout(r, 150));
    const px = await waitFor(() => target.expMap.pixelOf(id), 5000, `pin ${id}`);
    const rect = target.getBoundingClientRect();
    const position: [number, number] = [Math.round(rect.left + px[0]), Math.round(rect.top + px[1] - 14)];
    if (type === 'move') {
      // arrive from outside, as a pointer does
      await sendMouse({ type: 'move', position: [position[0] + 40, position[1] + 60] });
      await sendMouse({ type: 'move', position });
    } else await sendMouse({ type: 'click', position });
    const until = performance.now() + 800;
    while (performance.now() < until) {
      if (done()) return;
      await new Promise((r) => setTimeout(r, 40));
    }
  }
  throw new Error(`the ${type} at pin ${id} had no effect`);
}

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

describe('the map', () => {
  before(async () => {
    await loadBundle();
  });
  afterEach(async () => {
    cleanup();
    for (const f of document.querySelectorAll('iframe')) f.remove();
    await sendMouse({ type: 'move', position: [0, 0] });
  });

  it('is not downloaded by a page without a map', async () => {
    const f = await frame(
      `<exp-language-switch></exp-language-switch><exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="loja"></exp-property-search>`,
    );
    const win = f.contentWindow as Window;
    const search = await waitFor(() => f.contentDocument?.querySelector('exp-property-search')?.shadowRoot?.querySelector('[part~="card"]'), 15000, 'cards');
    expect(search).to.not.equal(null);
    const scripts = loadedScripts(win);
    expect(scripts.some((s) => s.includes('/chunks/runtime-'))).to.equal(true);
    expect(scripts.some((s) => s.includes('ol-map'))).to.equal(false);
    const withMap = await frame(`<exp-property-map api-url="${API_URL}" city="olon"></exp-property-map>`);
    await waitFor(() => loadedScripts(withMap.contentWindow as Window).some((s) => s.includes('ol-map')), 15000, 'map chunk where there is a map');
  });

  it('draws every matching listing and clusters them when there are more than 10', async () => {
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="olon" property-type="house"></exp-property-map>`, 'exp-property-map');
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
    const clusterCalls = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/rest/v1/rpc/listing_clusters')).length;
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
              expMap: MapHandle & { map: { getView(): { getZoom(): number; setZoom(z: number): void; setCenter(c: number[]): void; getCenter(): number[] } } };
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
      // the whole world once (to fit every match), then the fitted view
      await new Promise((r) => setTimeout(r, 500));
      expect(clusterCalls()).to.equal(2);
      const points = performance.getEntriesByType('resource').filter((e) => e.name.includes('/rest/v1/listings?select=id%2Clat'));
      expect(points.length).to.equal(0);
    });

    it("keeps the fit when the view moves while the whole world's call is on its way (a first render, a resize)", async () => {
      const el = await mount(`<exp-property-map api-url="${API_URL}"></exp-property-map>`, 'exp-property-map');
      const target = await cellsDrawn(el);
      type View = { bbox: number[]; zoom: number };
      type Cell = { count: number; lat: number; lng: number; bounds: number[]; priceFrom: number; priceTo: number; id: null; approximate: boolean };
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
      await new Promise((r) => setTimeout(r, 150));
      handle.map.dispatchEvent('moveend');
      await new Promise((r) => setTimeout(r, 150));
      expect(calls.length).to.equal(1);
      expect(calls[0]!.signal.aborted).to.equal(false);
      release();
      await waitFor(() => drawn === 40, 5000, 'the fitted view drawn');
      // the fitted view's call covers Guayaquil, not the view before the fit
      expect(calls.length).to.equal(2);
      const [w, s, e, n] = calls[1]!.view.bbox as [number, number, number, number];
      expect(w <= -79.95 && s <= -2.2 && e >= -79.85 && n >= -2.1, `fitted bbox ${calls[1]!.view.bbox.join(',')}`).to.equal(true);
      expect(e - w).to.be.below(5);
    });

    it('follows the filters, zooms into a cluster on click, and asks again for the new view (debounced, cached)', async () => {
      const el = await mount(`<exp-property-map api-url="${API_URL}" city="quito"></exp-property-map>`, 'exp-property-map');
      const total = await apiCount('place_search=like.*quito*');
      expect(total).to.be.greaterThan(100);
      const target = await cellsDrawn(el, total);
      const view = target.expMap.map.getView();
      const before = view.getZoom();
      const center = view.getCenter();
      const cluster = await waitFor(() => target.expMap.stats().clusters.length > 0 && target.expMap.stats(), 5000, 'a cluster');
      expect(cluster.clusters.length).to.be.greaterThan(0);
      // click the biggest cluster: the view zooms into its listings and the cells of the new view come
      await new Promise((r) => setTimeout(r, 300));
      const sent = clusterCalls();
      const features = (
        target.expMap.map as unknown as {
          getLayers(): {
            getArray(): Array<{ getSource?(): { getFeatures?(): Array<{ get(k: string): unknown; getGeometry(): { getCoordinates(): number[] } }> } | null }>;
          };
        }
      )
        .getLayers()
        .getArray();
      const cells = features.flatMap((l) => l.getSource?.()?.getFeatures?.() ?? []).filter((f) => typeof f.get('count') === 'number');
      const biggest = cells.sort((a, b) => Number(b.get('count')) - Number(a.get('count')))[0]!;
      const px = (target.expMap.map as unknown as { getPixelFromCoordinate(c: number[]): number[] }).getPixelFromCoordinate(
        biggest.getGeometry().getCoordinates(),
      );
      const rect = target.getBoundingClientRect();
      await sendMouse({ type: 'click', position: [Math.round(rect.left + px[0]!), Math.round(rect.top + px[1]!)] });
      await waitFor(() => view.getZoom() > before, 5000, 'zoomed in');
      await waitFor(() => clusterCalls() > sent, 5000, 'cells of the new view');
      // back to the first view: answered from the cache, no request
      await new Promise((r) => setTimeout(r, 600));
      const afterZoom = clusterCalls();
      view.setCenter(center);
      view.setZoom(before);
      await new Promise((r) => setTimeout(r, 600));
      expect(clusterCalls()).to.equal(afterZoom);
      await cellsDrawn(el, total);
      // a new filter: a new fit over its matches only
      el.setAttribute('property-type', 'house');
      const houses = await apiCount('place_search=like.*quito*&property_type=ilike.*house*');
      await cellsDrawn(el, houses);
    });

    it("a rent search's cell of one rental says its month, as a rental's pin does", async () => {
      const el = await mount(`<exp-property-map api-url="${API_URL}" operation="rent"></exp-property-map>`, 'exp-property-map');
      const target = await cellsDrawn(el);
      // close in on a rental, where the cells hold one listing each
      const [rental] = await apiRows('select=lat,lng&country_code=eq.EC&status=eq.1&operation=eq.rent&lat=not.is.null&order=id&limit=1');
      const view = target.expMap.map.getView();
      const half = 20037508.342789244;
      const [lng, lat] = [Number(rental?.lng), Number(rental?.lat)];
      view.setCenter([(lng * half) / 180, (Math.log(Math.tan(((90 + lat) * Math.PI) / 360)) / (Math.PI / 180)) * (half / 180)]);
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
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`, 'exp-property-map');
    const few = await apiCount('place_search=like.*bahia*&property_type=ilike.*house*');
    expect(few).to.be.at.most(10);
    const target = await mapReady(el, few);
    expect(target.expMap.stats()).to.deep.equal({ clusters: [], singles: few });
    el.setAttribute('property-type', 'apartment');
    const apartments = await apiCount('place_search=like.*bahia*&property_type=ilike.*apartment*');
    await mapReady(el, apartments);
  });

  it('opens the property detail when a pin is clicked', async () => {
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`, 'exp-property-map');
    const [row] = await apiRows('select=id,title&country_code=eq.EC&place_search=like.*bahia*&property_type=ilike.*house*&order=id&limit=1');
    const target = await mapReady(el);
    const opened: string[] = [];
    el.addEventListener('exp-property-open', (e) => opened.push((e as CustomEvent<{ id: string }>).detail.id));
    await atPin(target, String(row?.id), 'click', () => opened.length > 0);
    expect(opened[0]).to.equal(String(row?.id));
    const dialog = await waitFor(() => el.shadowRoot?.querySelector('dialog[open] h2'), 8000, 'detail dialog');
    expect(dialog.textContent).to.equal(String(row?.title));
  });

  it('marks a fallback position as approximate in the popup', async () => {
    const [row] = await apiRows('select=id,title,geo_lat&title=eq.Casa%20en%20Cumbay%C3%A1%20sin%20coordenadas');
    expect(row?.geo_lat).to.equal(null);
    // few enough listings that none is clustered
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="cumbaya" property-type="house" beds="4" min-price="380000" max-price="390000"></exp-property-map>`,
      'exp-property-map',
    );
    const target = await mapReady(el);
    expect(Number(target.dataset.pins)).to.be.at.most(10);
    expect(Number(target.dataset.approximate)).to.be.at.least(1);
    await atPin(target, String(row?.id), 'move', () => Boolean(el.shadowRoot?.querySelector('[part="popup"]')));
    const popup = await waitFor(() => el.shadowRoot?.querySelector('[part="popup"]'), 8000, 'popup');
    await waitFor(() => popup.textContent?.includes('Casa en Cumbayá sin coordenadas'), 8000, 'popup title');
    expect(popup.textContent).to.contain('Approximate location');
    expect((popup as HTMLElement).getBoundingClientRect().width).to.equal(280);
    // "View details" is a real link to the listing's own page (middle-click, copy link, crawlers)
    const details = popup.querySelector('a') as HTMLAnchorElement;
    expect(new URL(details.href).pathname).to.equal(`/properties/${row?.id}-casa-en-cumbaya-sin-coordenadas`);
  });

  it('"Schedule a visit" in the popup opens the detail at its times (docs/visits.md)', async () => {
    const [row] = await apiRows('select=id,title&title=eq.Casa%20en%20Cumbay%C3%A1%20sin%20coordenadas');
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="cumbaya" property-type="house" beds="4" min-price="380000" max-price="390000"></exp-property-map>`,
      'exp-property-map',
    );
    const target = await mapReady(el);
    await atPin(target, String(row?.id), 'move', () => Boolean(el.shadowRoot?.querySelector('[part="popup-visit"]')));
    const link = await waitFor(() => el.shadowRoot?.querySelector<HTMLAnchorElement>('[part="popup-visit"]'), 8000, "the popup's visit link");
    expect(link.textContent).to.equal('Schedule a visit');
    // a real link to the listing's page at its times (a new tab, a crawler)
    expect(new URL(link.href).pathname).to.match(new RegExp(`^/properties/${row?.id}(-|$)`));
    expect(new URL(link.href).hash).to.equal('#visit');
    link.click();
    // the detail opens with the times asked for, not the "Choose times" button
    const times = await waitFor(() => el.shadowRoot?.querySelector('dialog[open] [part="visit-times"]'), 8000, 'the visit times in the detail');
    expect(times).to.exist;
    expect(el.shadowRoot?.querySelector('dialog[open] [part="visit-open"]')).to.equal(null);
  });

  it('sits in the search beside the list, heights by breakpoint', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="salinas"></exp-property-search>`,
      'exp-property-search',
      '[part="map"]',
    );
    const map = shadow(el, '[part="map"]');
    await mapReady(el);
    const box = el.getBoundingClientRect();
    const expected = box.width >= 1024 ? 800 : box.width >= 768 ? 600 : 400;
    expect(Math.round(map.getBoundingClientRect().height)).to.equal(expected);
  });

  it("shows 'Search this area' after the visitor's first drag, also when a fit just before left the view where it was", async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="salinas"></exp-property-search>`,
      'exp-property-search',
      '[part="map"]',
    );
    const target = await mapReady(el);
    const controller = target.expMap as unknown as {
      setPins(pins: Array<{ id: string; lat: number; lng: number; price: number; approximate: boolean }>, fit: boolean): Promise<boolean>;
    };
    const pins = [
      { id: 'a', lat: -2.2, lng: -80.95, price: 100000, approximate: false },
      { id: 'b', lat: -2.22, lng: -80.9, price: 200000, approximate: false },
      { id: 'c', lat: -2.18, lng: -80.92, price: 300000, approximate: false },
    ];
    // a fit that moves the view, then the same fit again: the second one ends no move at all
    await controller.setPins(pins, true);
    await new Promise((r) => setTimeout(r, 600));
    await controller.setPins(pins, true);
    await new Promise((r) => setTimeout(r, 300));
    expect(shadowAll(el, '[part="search-area"]').length).to.equal(0);
    target.scrollIntoView({ block: 'center' });
    const rect = target.getBoundingClientRect();
    const [x, y] = [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)];
    await sendMouse({ type: 'move', position: [x, y] });
    await sendMouse({ type: 'down' });
    for (let i = 1; i <= 8; i++) await sendMouse({ type: 'move', position: [x + i * 15, y + i * 8] });
    await sendMouse({ type: 'up' });
    await waitFor(() => shadowAll(el, '[part="search-area"]').length === 1, 4000, "'Search this area' after one drag");
  });

  it('loads its points once per search: a page or sort change in the search does not load them again', async () => {
    const calls: string[] = [];
    const realFetch = window.fetch;
    window.fetch = (...args: Parameters<typeof fetch>) => {
      const url = String(args[0] instanceof Request ? args[0].url : args[0]);
      if (url.includes('select=id%2Clat%2Clng') || url.includes('select=id,lat,lng')) calls.push(url);
      return realFetch(...args);
    };
    try {
      const el = await mount(
        `<exp-property-search api-url="${API_URL}" sync-url="false" city="quito" api-key="points-${Date.now()}"></exp-property-search>`,
        'exp-property-search',
        '[part="map"]',
      );
      await mapReady(el);
      await waitFor(() => shadowAll(el, '[part~="card"]').length === 24, 15000, 'first page');
      const first = calls.length;
      expect(first).to.be.greaterThan(0);
      const firstCard = () => shadow(el, '[part~="card"]').textContent;
      const before = firstCard();
      shadowAll<HTMLButtonElement>(el, '[part="pagination"] button')
        .find((b) => b.textContent?.trim() === 'Next')
        ?.click();
      await waitFor(() => firstCard() !== before, 15000, 'second page');
      const sort = shadow<HTMLSelectElement>(el, '[part="results"] select');
      sort.value = 'price_asc';
      sort.dispatchEvent(new Event('change', { bubbles: true }));
      await waitFor(() => shadow(el, '[part="results"]').textContent?.includes('Showing 1 - 24'), 15000, 'sorted first page');
      await new Promise((r) => setTimeout(r, 500));
      expect(calls.length, calls.join('\n')).to.equal(first);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('follows a language switch and a new tile-url with the map it already has', async () => {
    // any image the data server serves (with CORS) will do as a tile
    const tiles = `${API_URL}/media/listings/land-1.svg?tile={z}-{x}-{y}`;
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="bahia" property-type="house" lang="en"></exp-property-map>`, 'exp-property-map');
    await mapReady(el);
    const zoomIn = () => el.shadowRoot?.querySelector<HTMLButtonElement>('[part="map-zoom"] button')?.getAttribute('aria-label');
    expect(zoomIn()).to.equal('Zoom in');
    expect(el.shadowRoot?.querySelector('[part="map-credit"]')?.textContent).to.equal('© OpenStreetMap contributors');
    el.setAttribute('lang', 'es');
    await waitFor(() => zoomIn() === 'Acercar', 5000, 'Spanish zoom label');
    expect(el.shadowRoot?.querySelector('[part="map-credit"] a')?.getAttribute('href')).to.equal('https://www.openstreetmap.org/copyright');
    // the page's resource timing buffer (250 entries) fills up over a whole test file
    performance.clearResourceTimings();
    const tileRequests = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('land-1.svg?tile='));
    expect(tileRequests()).to.have.length(0);
    el.setAttribute('tile-url', tiles);
    await waitFor(() => tileRequests().length > 0, 8000, 'tiles from the new tile-url');
  });

  it("a tile provider's template and credit (tile-url, tile-attribution): its tiles, its credit with its links next in the tab order, whole inside the map at 320 px; other markup in a credit is shown as text, and a credit of no text is OpenStreetMap's", async () => {
    performance.clearResourceTimings();
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="bahia" property-type="house" lang="en" style="display:block;width:320px"></exp-property-map>`,
      'exp-property-map',
    );
    el.setAttribute('tile-url', `${API_URL}/media/listings/land-1.svg?provider={z}-{x}-{y}`);
    el.setAttribute(
      'tile-attribution',
      '&copy; <a href="https://tiles.example.com/terms">Example Tiles</a> &copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    );
    await mapReady(el);
    await waitFor(
      () => performance.getEntriesByType('resource').some((e) => e.name.includes('land-1.svg?provider=')),
      8000,
      "tiles from the provider's template",
    );
    expect(performance.getEntriesByType('resource').some((e) => e.name.includes('tile.openstreetmap.org'))).to.equal(false);
    const credit = shadow(el, '[part="map-credit"]');
    expect(credit.textContent).to.equal('© Example Tiles © OpenStreetMap contributors');
    const links = [...credit.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['https://tiles.example.com/terms', 'https://www.openstreetmap.org/copyright']);
    // the keyboard reaches the credit's links after the zoom buttons
    shadowAll<HTMLButtonElement>(el, '[part="map-zoom"] button')[1]?.focus();
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot?.activeElement).to.equal(links[0]);
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot?.activeElement).to.equal(links[1]);
    // at 320 px the credit wraps inside the map, none of it cut off
    const map = shadow(el, '[part="map"]').getBoundingClientRect();
    const box = credit.getBoundingClientRect();
    expect(map.width).to.be.at.most(320);
    expect(box.left).to.be.at.least(map.left);
    expect(box.right).to.be.at.most(map.right + 0.5);
    expect(box.bottom).to.be.at.most(map.bottom + 0.5);
    expect(credit.scrollWidth).to.be.at.most(credit.clientWidth);
    expect(parseFloat(getComputedStyle(credit).fontSize)).to.be.at.least(11);
    // markup other than links is never markup in the credit: its text alone
    el.setAttribute('tile-attribution', 'Example Tiles<img src="x" onerror="window.expPwned = 1">');
    await waitFor(() => credit.textContent === 'Example Tiles', 5000, 'the credit as text');
    expect(credit.querySelector('img')).to.equal(null);
    expect((window as unknown as { expPwned?: number }).expPwned).to.equal(undefined);
    // and a credit with no text to show is none: OpenStreetMap's is there instead
    el.setAttribute('tile-attribution', '<img src="x">');
    await waitFor(() => shadow(el, '[part="map-credit"]').textContent === '© OpenStreetMap contributors', 5000, "OpenStreetMap's credit");
  });

  it('never shows the previous listing in the popup while the next one loads', async () => {
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`, 'exp-property-map');
    const rows = await apiRows('select=id,title&country_code=eq.EC&status=eq.1&place_search=like.*bahia*&property_type=ilike.*house*&order=id&limit=2');
    const [a, b] = rows as [Record<string, unknown>, Record<string, unknown>];
    const target = await mapReady(el);
    const realFetch = window.fetch;
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const url = String(args[0] instanceof Request ? args[0].url : args[0]);
      // the second listing answers slowly
      if (url.includes(`id=eq.${String(b.id)}`)) await held;
      return realFetch(...args);
    };
    try {
      const popup = () => el.shadowRoot?.querySelector('[part="popup"]')?.textContent ?? '';
      await atPin(target, String(a.id), 'move', () => popup().includes(String(a.title)));
      await atPin(target, String(b.id), 'move', () => popup() !== '' && !popup().includes(String(a.title)));
      expect(popup()).to.not.contain(String(a.title));
      release();
      await waitFor(() => popup().includes(String(b.title)), 8000, 'the second listing in the popup');
    } finally {
      release();
      window.fetch = realFetch;
    }
  });
});
