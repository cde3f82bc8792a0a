/**
 * What the browser tests of <exp-property-map> share (tests/browser/property-map-*.test.ts), run
 * in the test Chromium by web-test-runner: the data server's address and what it counts and
 * answers, the map once OpenLayers drew its pins, the real mouse moved or clicked at a pin, and the
 * bundle loaded and the page left clean around the tests.
 */
import { sendMouse } from '@web/test-runner-commands';
import { API_URL, cleanup, loadBundle, waitFor } from '../browser/helpers.ts';

export interface MapHandle {
  pixelOf(id: string): [number, number] | undefined;
  stats(): { clusters: number[]; singles: number };
  cells(): Array<{ count: number; pixel: [number, number] }>;
  outlineShown(): boolean;
  tileErrors(): number;
  viewTiles(): { z: number; x: [number, number]; y: [number, number] };
  highlighted(): string | null;
}

export async function apiCount(query: string): Promise<number> {
  // a search without an operation is of sales (docs/product.md "Rent and buy")
  const res = await fetch(
    `${API_URL}/rest/v1/listings?select=id&country_code=eq.EC&status=eq.1&operation=eq.sale&${query}`,
    {
      method: 'HEAD',
      headers: { Prefer: 'count=exact' },
    },
  );
  return Number(res.headers.get('content-range')?.split('/')[1]);
}

export async function apiRows(query: string): Promise<Array<Record<string, unknown>>> {
  return (await fetch(`${API_URL}/rest/v1/listings?${query}`)).json();
}

/** The map's target, once OpenLayers drew the pins. */
export async function mapReady(el: Element, pins?: number): Promise<HTMLElement & { expMap: MapHandle }> {
  return waitFor(
    () => {
      const target = el.shadowRoot?.querySelector<HTMLElement & { expMap: MapHandle }>(
        '[part="map"] [data-status="ready"]',
      );
      return target && target.dataset.pins !== undefined && (pins === undefined || Number(target.dataset.pins) === pins)
        ? target
        : null;
    },
    20000,
    'map with pins',
  );
}

/**
 * Moves or clicks the real mouse at a pin (through web-test-runner's Playwright) until `done`
 * says it worked: the map may still be settling when the test first asks where the pin is.
 */
export async function atPin(
  target: HTMLElement & { expMap: MapHandle },
  id: string,
  type: 'move' | 'click',
  done: () => boolean,
) {
  for (let attempt = 0; attempt < 6; attempt++) {
    await new Promise((r) => setTimeout(r, 150));
    const px = await waitFor(() => target.expMap.pixelOf(id), 5000, `pin ${id}`);
    const rect = target.getBoundingClientRect();
    const position: [number, number] = [Math.round(rect.left + px[0]), Math.round(rect.top + px[1] - 14)];
    if (type === 'move') {
      // arrive from outside the map, as a pointer does: from beside the pin, the previous pin's
      // popup could lie over both (it keeps the pointer's events from the map), so that the map saw
      // neither move and that popup stayed ('the move at pin 1309 had no effect', twice in eight runs)
      const outside: [number, number] = [
        Math.round(rect.left + 12),
        Math.round(rect.bottom + 12 < innerHeight ? rect.bottom + 12 : Math.max(0, rect.top - 12)),
      ];
      await sendMouse({ type: 'move', position: outside });
      await sendMouse({ type: 'move', position });
    } else await sendMouse({ type: 'click', position });
    // (three times what it takes alone: on a loaded machine the popup's answer came after 800 ms)
    const until = performance.now() + 2400;
    while (performance.now() < until) {
      if (done()) return;
      await new Promise((r) => setTimeout(r, 40));
    }
  }
  throw new Error(`the ${type} at pin ${id} had no effect`);
}

/**
 * Called in a describe block: the bundle loaded before its first test, and after each test its
 * elements and frames gone and the mouse back in the corner.
 */
export function useMapPage(): void {
  before(async () => {
    await loadBundle();
  });
  afterEach(async () => {
    cleanup();
    for (const f of document.querySelectorAll('iframe')) f.remove();
    await sendMouse({ type: 'move', position: [0, 0] });
  });
}
