/**
 * <exp-property-map> in the search and under a deployment's tiles, in the test Chromium against
 * the seeded data server (tests/support/property-map.ts): beside the list at each breakpoint's
 * height, 'Search this area' after the visitor's first drag, its points loaded once per search; a
 * language switch and a new tile-url followed by the map it has; a tile provider's template and
 * credit (tile-url, tile-attribution), reachable by keyboard and whole at 320 px, any other markup
 * in a credit shown as text.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import { API_URL, mount, quiet, shadow, shadowAll, waitFor } from './helpers.ts';
import { mapReady, useMapPage } from '../support/property-map.ts';

describe('the map: in the search, and its tiles', () => {
  useMapPage();

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
      setPins(
        pins: Array<{ id: string; lat: number; lng: number; price: number; approximate: boolean }>,
        fit: boolean,
      ): Promise<boolean>;
    };
    const pins = [
      { id: 'a', lat: -2.2, lng: -80.95, price: 100000, approximate: false },
      { id: 'b', lat: -2.22, lng: -80.9, price: 200000, approximate: false },
      { id: 'c', lat: -2.18, lng: -80.92, price: 300000, approximate: false },
    ];
    const map = (target.expMap as unknown as { map: { once(type: string, fn: () => void): void; render(): void } }).map;
    const once = (type: string) => new Promise<void>((r) => map.once(type, () => r()));
    // a fit that moves the view, then the same fit again: the second one ends no move at all
    const moved = once('moveend');
    await controller.setPins(pins, true);
    await moved;
    // the map counts its own move as ended in the task after its moveend (ol-moves.ts asProgram)
    await new Promise((r) => setTimeout(r, 0));
    await controller.setPins(pins, true);
    // a frame drawn after it: a move it had started would have ended in it
    const drawn = once('postrender');
    map.render();
    await drawn;
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
      await waitFor(
        () => shadow(el, '[part="results"]').textContent?.includes('Showing 1 - 24'),
        15000,
        'sorted first page',
      );
      await quiet();
      expect(calls.length, calls.join('\n')).to.equal(first);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('follows a language switch and a new tile-url with the map it already has', async () => {
    // any image the data server serves (with CORS) will do as a tile
    const tiles = `${API_URL}/media/listings/land-1.svg?tile={z}-{x}-{y}`;
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="bahia" property-type="house" lang="en"></exp-property-map>`,
      'exp-property-map',
    );
    await mapReady(el);
    const zoomIn = () =>
      el.shadowRoot?.querySelector<HTMLButtonElement>('[part="map-zoom"] button')?.getAttribute('aria-label');
    expect(zoomIn()).to.equal('Zoom in');
    expect(el.shadowRoot?.querySelector('[part="map-credit"]')?.textContent).to.equal('© OpenStreetMap contributors');
    el.setAttribute('lang', 'es');
    await waitFor(() => zoomIn() === 'Acercar', 5000, 'Spanish zoom label');
    expect(el.shadowRoot?.querySelector('[part="map-credit"] a')?.getAttribute('href')).to.equal(
      'https://www.openstreetmap.org/copyright',
    );
    // the page's resource timing buffer (250 entries) fills up over a whole test file
    performance.clearResourceTimings();
    const tileRequests = () =>
      performance.getEntriesByType('resource').filter((e) => e.name.includes('land-1.svg?tile='));
    expect(tileRequests()).to.have.length(0);
    el.setAttribute('tile-url', tiles);
    await waitFor(() => tileRequests().length > 0, 8000, 'tiles from the new tile-url');
  });

  it('asks for the tiles of where its matches are, never for those of where it opened (Quito) before it has fitted them', async () => {
    performance.clearResourceTimings();
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="cuenca" tile-url="${API_URL}/media/listings/land-1.svg?first={z}-{x}-{y}"></exp-property-map>`,
      'exp-property-map',
    );
    const target = await mapReady(el);
    const asked = () =>
      performance
        .getEntriesByType('resource')
        .map((e) => /[?&]first=(\d+)-(\d+)-(\d+)/.exec(e.name)?.slice(1).map(Number))
        .filter((t): t is number[] => Boolean(t));
    await waitFor(() => asked().length > 0, 8000, 'tiles asked for');
    const view = target.expMap.viewTiles();
    expect(view.z).to.not.equal(12);
    // the view's tiles, and their neighbours a pan would show first
    const outside = asked().filter(
      ([z, x, y]) =>
        z !== view.z || x! < view.x[0] - 1 || x! > view.x[1] + 1 || y! < view.y[0] - 1 || y! > view.y[1] + 1,
    );
    expect(outside, JSON.stringify(view)).to.deep.equal([]);
  });

  it("draws Ecuador's outline under the tiles only while it can be seen: until the first tile comes, and again from the first that fails", async () => {
    const failing = `${API_URL}/no-such-tiles/{z}/{x}/{y}.png`;
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="bahia" property-type="house" tile-url="${failing}"></exp-property-map>`,
      'exp-property-map',
    );
    const target = await mapReady(el);
    performance.clearResourceTimings();
    const requested = (part: string) => performance.getEntriesByType('resource').filter((e) => e.name.includes(part));
    // tiles that cannot load: the outline stays, so the pins do not float on white
    const failed = target.expMap.tileErrors();
    el.setAttribute('tile-url', `${failing}?again`);
    await waitFor(() => target.expMap.tileErrors() > failed, 8000, 'a failing tile heard by the map');
    expect(requested('no-such-tiles').length).to.be.greaterThan(0);
    expect(target.expMap.outlineShown()).to.equal(true);
    // a provider whose tiles come: they hide it, and it is drawn no more
    el.setAttribute('tile-url', `${API_URL}/media/listings/land-1.svg?outline={z}-{x}-{y}`);
    await waitFor(() => !target.expMap.outlineShown(), 8000, 'the outline hidden by the tiles');
    expect(requested('land-1.svg?outline=').length).to.be.greaterThan(0);
    // back to one that fails: shown again
    el.setAttribute('tile-url', failing);
    await waitFor(() => target.expMap.outlineShown(), 8000, 'the outline shown again');
  });

  it("fetches Ecuador's outline once for all the maps of a page", async () => {
    performance.clearResourceTimings();
    // two maps at once (this page's earlier maps may have fetched it already)
    const [bahia, manta] = await Promise.all(
      ['bahia', 'manta'].map((city) =>
        mount(`<exp-property-map api-url="${API_URL}" city="${city}"></exp-property-map>`, 'exp-property-map'),
      ),
    );
    await Promise.all([mapReady(bahia!), mapReady(manta!)]);
    const outlines = performance.getEntriesByType('resource').filter((e) => e.name.includes('ecuador-outline'));
    expect(outlines.length).to.be.at.most(1);
  });

  it("a tile provider's template and credit (tile-url, tile-attribution): its tiles, its credit with its links next in the tab order, whole inside the map at 320 px; other markup in a credit is shown as text, and a credit of no text is OpenStreetMap's", async () => {
    performance.clearResourceTimings();
    // the requests from here on: a map of an earlier test may still finish loading one of its tiles
    const from = performance.now();
    // the provider from the start (a map made before the attribute came would rightly fetch OpenStreetMap's)
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="bahia" property-type="house" lang="en" tile-url="${API_URL}/media/listings/land-1.svg?provider={z}-{x}-{y}" style="display:block;width:320px"></exp-property-map>`,
      'exp-property-map',
    );
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
    expect(
      performance
        .getEntriesByType('resource')
        .some((e) => e.startTime >= from && e.name.includes('tile.openstreetmap.org')),
    ).to.equal(false);
    const credit = shadow(el, '[part="map-credit"]');
    expect(credit.textContent).to.equal('© Example Tiles © OpenStreetMap contributors');
    const links = [...credit.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal([
      'https://tiles.example.com/terms',
      'https://www.openstreetmap.org/copyright',
    ]);
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
    await waitFor(
      () => shadow(el, '[part="map-credit"]').textContent === '© OpenStreetMap contributors',
      5000,
      "OpenStreetMap's credit",
    );
  });
});
