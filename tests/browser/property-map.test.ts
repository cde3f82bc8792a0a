import { expect } from '@esm-bundle/chai';
import { sendMouse } from '@web/test-runner-commands';
import { BUNDLE_URL, cleanup, dataApiUrl, loadBundle, mount, shadow, waitFor } from './helpers.ts';

const API_URL = await dataApiUrl();

interface MapHandle {
  pixelOf(id: string): [number, number] | undefined;
  stats(): { clusters: number[]; singles: number };
}

async function apiCount(query: string): Promise<number> {
  const res = await fetch(`${API_URL}/rest/v1/listings?select=id&country_code=eq.EC&status=eq.1&${query}`, { method: 'HEAD', headers: { Prefer: 'count=exact' } });
  return Number(res.headers.get('content-range')?.split('/')[1]);
}

async function apiRows(query: string): Promise<Array<Record<string, unknown>>> {
  return (await fetch(`${API_URL}/rest/v1/listings?${query}`)).json();
}

/** The map's target, once OpenLayers drew the pins. */
async function mapReady(el: Element, pins?: number): Promise<HTMLElement & { expMap: MapHandle }> {
  return waitFor(() => {
    const target = el.shadowRoot?.querySelector<HTMLElement & { expMap: MapHandle }>('[part="map"] [data-status="ready"]');
    return target && target.dataset.pins !== undefined && (pins === undefined || Number(target.dataset.pins) === pins) ? target : null;
  }, 20000, 'map with pins');
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
  return win.performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.js'));
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
    const f = await frame(`<exp-language-switch></exp-language-switch><exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="loja"></exp-property-search>`);
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
    const expected = await apiCount('city_search=like.*olon*&property_type=ilike.*house*');
    expect(expected).to.be.greaterThan(10);
    const target = await mapReady(el, expected);
    const stats = await waitFor(() => {
      const s = target.expMap.stats();
      return s.clusters.length > 0 || s.singles > 0 ? s : null;
    }, 5000, 'rendered clusters');
    // every pin is in exactly one cluster or drawn on its own
    expect(stats.clusters.reduce((a, b) => a + b, 0) + stats.singles).to.equal(expected);
    expect(stats.clusters.length).to.be.greaterThan(0);
    // the element keeps the drawn clusters in data-clusters once a render completes
    await waitFor(() => target.dataset.clusters === target.expMap.stats().clusters.join(','), 5000, 'data-clusters');
  });

  it('draws pins without clustering for 10 or fewer, and rebuilds them when the filters change', async () => {
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`, 'exp-property-map');
    const few = await apiCount('city_search=like.*bahia*&property_type=ilike.*house*');
    expect(few).to.be.at.most(10);
    const target = await mapReady(el, few);
    expect(target.expMap.stats()).to.deep.equal({ clusters: [], singles: few });
    el.setAttribute('property-type', 'apartment');
    const apartments = await apiCount('city_search=like.*bahia*&property_type=ilike.*apartment*');
    await mapReady(el, apartments);
  });

  it('opens the property detail when a pin is clicked', async () => {
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`, 'exp-property-map');
    const [row] = await apiRows('select=id,title&country_code=eq.EC&city_search=like.*bahia*&property_type=ilike.*house*&order=id&limit=1');
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
    const el = await mount(`<exp-property-map api-url="${API_URL}" city="cumbaya" property-type="house" beds="4" min-price="380000" max-price="390000"></exp-property-map>`, 'exp-property-map');
    const target = await mapReady(el);
    expect(Number(target.dataset.pins)).to.be.at.most(10);
    expect(Number(target.dataset.approximate)).to.be.at.least(1);
    await atPin(target, String(row?.id), 'move', () => Boolean(el.shadowRoot?.querySelector('[part="popup"]')));
    const popup = await waitFor(() => el.shadowRoot?.querySelector('[part="popup"]'), 8000, 'popup');
    await waitFor(() => popup.textContent?.includes('Casa en Cumbayá sin coordenadas'), 8000, 'popup title');
    expect(popup.textContent).to.contain('Approximate location');
    expect((popup as HTMLElement).getBoundingClientRect().width).to.equal(280);
  });

  it('sits in the search beside the list, heights by breakpoint', async () => {
    const el = await mount(`<exp-property-search api-url="${API_URL}" sync-url="false" city="salinas"></exp-property-search>`, 'exp-property-search', '[part="map"]');
    const map = shadow(el, '[part="map"]');
    await mapReady(el);
    const box = el.getBoundingClientRect();
    const expected = box.width >= 1024 ? 800 : box.width >= 768 ? 600 : 400;
    expect(Math.round(map.getBoundingClientRect().height)).to.equal(expected);
  });
});
