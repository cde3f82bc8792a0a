/**
 * <exp-property-map>'s own marks (widgets/lib/map/marks-layer.ts), in the test Chromium against the
 * seeded data server: what the map says it drew is on its canvas where it says, and what the pointer
 * finds there is that mark. Two listings of Manta stand a few metres apart, so that even at the last
 * zooms they are one cluster: a click on it spreads them out around their spot (docs/product.md §9),
 * each pill drawn on its leg, and a click on one opens that listing.
 */
import { expect } from '@esm-bundle/chai';
import { sendMouse } from '@web/test-runner-commands';
import { API_URL, mount, nextFrame, waitFor } from './helpers.ts';
import { apiRows, mapReady, useMapPage, type MapHandle } from '../support/property-map.ts';

type Target = HTMLElement & {
  expMap: MapHandle & {
    spread(): Array<{ id: string; pixel: [number, number] }>;
    map: {
      getView(): { setCenter(c: number[]): void; setZoom(z: number): void };
      getCoordinateFromPixel(px: number[]): number[];
    };
  };
};

/** The colour drawn at a point of the map (CSS pixels) on its topmost canvas, where the marks are drawn (over the tiles, on their canvas). */
function drawnAt(target: HTMLElement, [x, y]: [number, number]): string {
  const canvases = target.querySelectorAll('canvas');
  const canvas = canvases[canvases.length - 1]!;
  const ratio = canvas.width / canvas.getBoundingClientRect().width;
  const data = canvas.getContext('2d')!.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
  return `rgba(${data[0]}, ${data[1]}, ${data[2]}, ${data[3]})`;
}

describe("the map's own marks", () => {
  useMapPage();

  it('spreads out the pins that share one spot, draws each on the canvas where it says, and opens the one clicked', async () => {
    // the two listings of Manta nearest each other
    const rows = await apiRows(
      'select=id,lat,lng&country_code=eq.EC&status=eq.1&operation=eq.sale&city=eq.Manta&lat=not.is.null',
    );
    const metres = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      Math.hypot(Number(a.lat) - Number(b.lat), Number(a.lng) - Number(b.lng)) * 111_320;
    const pairs = rows.flatMap((a, i) => rows.slice(i + 1).map((b) => [a, b] as const));
    const [a, b] = pairs.sort((x, y) => metres(...x) - metres(...y))[0]!;
    expect(metres(a, b)).to.be.below(15);
    const ids = [String(a.id), String(b.id)];
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="manta"></exp-property-map>`,
      'exp-property-map',
    );
    const target = (await mapReady(el)) as Target;
    expect(Number(target.dataset.pins)).to.be.above(10);
    // close in on their spot: at the last zooms they are still one cluster, and nothing else is in it
    const [pa, pb] = ids.map((id) => target.expMap.pixelOf(id)!) as [[number, number], [number, number]];
    const view = target.expMap.map.getView();
    view.setCenter(target.expMap.map.getCoordinateFromPixel([(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2]));
    view.setZoom(18);
    const rect = target.getBoundingClientRect();
    const here = (): [number, number] => {
      const [x, y] = ids.map((id) => target.expMap.pixelOf(id)!) as [[number, number], [number, number]];
      return [(x[0] + y[0]) / 2, (x[1] + y[1]) / 2];
    };
    await waitFor(
      () => target.expMap.stats().clusters.includes(2) && Math.abs(here()[0] - rect.width / 2) < 2,
      8000,
      'the pair clustered in the middle',
    );
    // the real mouse on their badge (the map may still be settling the first time)
    for (let attempt = 0; attempt < 6 && !target.expMap.spread().length; attempt++) {
      const [x, y] = here();
      await sendMouse({ type: 'click', position: [Math.round(rect.left + x), Math.round(rect.top + y)] });
      await waitFor(() => target.expMap.spread().length > 0, 800, 'a spread').catch(() => undefined);
    }
    const spread = await waitFor(() => target.expMap.spread().length === 2 && target.expMap.spread(), 8000, 'spread');
    expect(spread.map((p) => p.id).sort()).to.deep.equal([...ids].sort());
    // each pill stands above its point (map-styles.ts pill: anchored at its tail's tip, 32 px high),
    // white above its price, where the map's background is not
    const white = 'rgba(255, 255, 255, 255)';
    // on the one canvas the tiles and the clusters draw on too: one canvas for the compositor, not one a layer
    expect(target.querySelectorAll('canvas').length).to.equal(1);
    expect(drawnAt(target, [2, 2])).to.not.equal(white);
    // the map says where it put them at once, and draws them at its next frame (later on a loaded machine)
    const pillTop = ({ pixel }: { pixel: [number, number] }): [number, number] => [pixel[0], pixel[1] - 28];
    await waitFor(() => spread.every((p) => drawnAt(target, pillTop(p)) === white), 8000, 'the spread drawn');
    for (const { pixel } of spread) {
      expect(Math.hypot(pixel[0] - here()[0], pixel[1] - here()[1])).to.be.above(30);
      expect(drawnAt(target, pillTop({ pixel }))).to.equal(white);
    }
    const opened: string[] = [];
    el.addEventListener('exp-property-open', (e) => opened.push((e as CustomEvent<{ id: string }>).detail.id));
    const [first] = spread;
    await sendMouse({
      type: 'click',
      position: [Math.round(rect.left + first!.pixel[0]), Math.round(rect.top + first!.pixel[1] - 14)],
    });
    await waitFor(() => opened.length > 0, 8000, 'a listing opened');
    expect(opened).to.deep.equal([first!.id]);
  });

  it("draws the database's cells' badges straight on the map until the browser is idle, then from images made then, alike", async () => {
    // the browser's idle time is the test's to give, and every canvas the page makes is counted
    const held: IdleRequestCallback[] = [];
    const idle = { request: window.requestIdleCallback, cancel: window.cancelIdleCallback };
    const create = document.createElement;
    const canvases: HTMLCanvasElement[] = [];
    window.requestIdleCallback = (callback) => held.push(callback);
    window.cancelIdleCallback = () => {};
    document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
      const made = create.call(this, tag, options);
      if (made instanceof HTMLCanvasElement) canvases.push(made);
      return made;
    } as typeof document.createElement;
    (globalThis as { expClustersAbove?: number }).expClustersAbove = 100;
    try {
      const el = await mount(`<exp-property-map api-url="${API_URL}"></exp-property-map>`, 'exp-property-map');
      const target = await waitFor(
        () =>
          el.shadowRoot?.querySelector<HTMLElement & { expMap: MapHandle & { map: { render(): void } } }>(
            '[part="map"] [data-mode="cells"][data-drawn]',
          ),
        20000,
        'cells drawn',
      );
      await nextFrame();
      await nextFrame();
      const cells = target.expMap.cells();
      const badges = cells.filter((c) => c.count > 1);
      const counts = new Set(badges.map((c) => c.count));
      expect(counts.size).to.be.above(3);
      // each badge 11 px above its centre, inside its disc and above its count (a badge's radius is
      // at least 16 px: map-styles.ts), where no other cell's mark reaches
      const rect = target.getBoundingClientRect();
      const alone = badges.filter(
        (c) =>
          c.pixel[0] > 40 &&
          c.pixel[1] > 40 &&
          c.pixel[0] < rect.width - 40 &&
          c.pixel[1] < rect.height - 40 &&
          cells.every((o) => o === c || Math.hypot(o.pixel[0] - c.pixel[0], o.pixel[1] - c.pixel[1]) > 80),
      );
      expect(alone.length).to.be.above(0);
      const disc = (c: { count: number }) => (c.count < 10 ? 'rgba(75, 85, 99, 255)' : 'rgba(17, 17, 17, 255)');
      const above = ({ pixel }: { pixel: [number, number] }): [number, number] => [pixel[0], pixel[1] - 11];
      for (const c of alone) expect(drawnAt(target, above(c)), `the badge of ${c.count}`).to.equal(disc(c));
      // the browser has not been idle: the badges above were drawn straight on the map
      const beforeIdle = canvases.length;
      while (held.length) held.shift()!({ didTimeout: false, timeRemaining: () => 50 });
      // one image for each count drawn as a badge, made once the browser was idle
      expect(canvases.length - beforeIdle).to.be.at.least(counts.size);
      // drawn from them at the next frame: the same badges
      target.expMap.map.render();
      await nextFrame();
      await nextFrame();
      for (const c of alone) expect(drawnAt(target, above(c)), `the badge of ${c.count}`).to.equal(disc(c));
    } finally {
      window.requestIdleCallback = idle.request;
      window.cancelIdleCallback = idle.cancel;
      document.createElement = create;
      delete (globalThis as { expClustersAbove?: number }).expClustersAbove;
    }
  });
});
