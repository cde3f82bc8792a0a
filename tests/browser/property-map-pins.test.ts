/**
 * <exp-property-map>'s pins under the real mouse, in the test Chromium against the seeded data
 * server (tests/support/property-map.ts): a click opens the listing's detail; the popup marks a
 * fallback position as approximate, names the project of a new development's unit, links to the
 * listing's page, offers "Schedule a visit" (docs/visits.md), and never shows the previous listing
 * while the next one loads.
 */
import { expect } from '@esm-bundle/chai';
import { API_URL, mount, waitFor } from './helpers.ts';
import { apiRows, atPin, mapReady, useMapPage } from '../support/property-map.ts';

describe('the map: its pins and their popup', () => {
  useMapPage();

  it('opens the property detail when a pin is clicked', async () => {
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`,
      'exp-property-map',
    );
    const [row] = await apiRows(
      'select=id,title&country_code=eq.EC&place_search=like.*bahia*&property_type=ilike.*house*&order=id&limit=1',
    );
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

  it("names the project a unit for sale belongs to, as its card does (docs/projects.md 'Its units')", async () => {
    const [unit] = await apiRows(
      'select=id,title,price,city,unit_of&country_code=eq.EC&operation=eq.sale&unit_type_id=not.is.null&order=id&limit=1',
    );
    const name = (unit?.unit_of as { name?: string } | null)?.name;
    expect(name).to.be.a('string');
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="${String(unit?.city)}" min-price="${Number(unit?.price)}" max-price="${Number(unit?.price)}"></exp-property-map>`,
      'exp-property-map',
    );
    const target = await mapReady(el);
    expect(Number(target.dataset.pins)).to.be.at.most(10);
    await atPin(target, String(unit?.id), 'move', () =>
      Boolean(el.shadowRoot?.querySelector('[part="popup-unit-of"]')),
    );
    const line = await waitFor(
      () => el.shadowRoot?.querySelector('[part="popup-unit-of"]'),
      8000,
      "the popup's project line",
    );
    expect(line.textContent).to.equal(`New construction · ${name}`);
  });

  it('"Schedule a visit" in the popup opens the detail at its times (docs/visits.md)', async () => {
    const [row] = await apiRows('select=id,title&title=eq.Casa%20en%20Cumbay%C3%A1%20sin%20coordenadas');
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="cumbaya" property-type="house" beds="4" min-price="380000" max-price="390000"></exp-property-map>`,
      'exp-property-map',
    );
    const target = await mapReady(el);
    await atPin(target, String(row?.id), 'move', () => Boolean(el.shadowRoot?.querySelector('[part="popup-visit"]')));
    const link = await waitFor(
      () => el.shadowRoot?.querySelector<HTMLAnchorElement>('[part="popup-visit"]'),
      8000,
      "the popup's visit link",
    );
    expect(link.textContent).to.equal('Schedule a visit');
    // a real link to the listing's page at its times (a new tab, a crawler)
    expect(new URL(link.href).pathname).to.match(new RegExp(`^/properties/${row?.id}(-|$)`));
    expect(new URL(link.href).hash).to.equal('#visit');
    link.click();
    // the detail opens with the times asked for, not the "Choose times" button
    const times = await waitFor(
      () => el.shadowRoot?.querySelector('dialog[open] [part="visit-times"]'),
      8000,
      'the visit times in the detail',
    );
    expect(times).to.exist;
    expect(el.shadowRoot?.querySelector('dialog[open] [part="visit-open"]')).to.equal(null);
  });

  it('never shows the previous listing in the popup while the next one loads', async () => {
    const el = await mount(
      `<exp-property-map api-url="${API_URL}" city="bahia" property-type="house"></exp-property-map>`,
      'exp-property-map',
    );
    const rows = await apiRows(
      'select=id,title&country_code=eq.EC&status=eq.1&place_search=like.*bahia*&property_type=ilike.*house*&order=id&limit=2',
    );
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
