import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import {
  API_URL,
  cleanup,
  expectAccessible,
  loadBundle,
  mount,
  oneEvent,
  shadow,
  shadowAll,
  waitFor,
  withLoggedErrors,
} from './helpers.ts';

/** The search opened from a shared link to a listing (`?property=`); the address is put back after. */
async function openedFromLink(id: unknown, attributes: string, test: (el: HTMLElement) => Promise<void>) {
  history.replaceState(null, '', `?property=${String(id)}`);
  try {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" ${attributes}></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    await test(el);
  } finally {
    history.replaceState(null, '', location.pathname);
  }
}

/** The exact count the data API gives for a PostgREST query string. */
async function apiCount(query: string, anyOperation = false): Promise<number> {
  // a search without an operation is of sales (docs/product.md "Rent and buy")
  const res = await fetch(
    `${API_URL}/rest/v1/listings?select=id&country_code=eq.EC&status=eq.1${anyOperation ? '' : '&operation=eq.sale'}${query ? `&${query}` : ''}`,
    {
      method: 'HEAD',
      headers: { Prefer: 'count=exact' },
    },
  );
  return Number(res.headers.get('content-range')?.split('/')[1]);
}

async function apiFirst(query: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${API_URL}/rest/v1/listings?select=*&${query}&limit=1`);
  return ((await res.json()) as Record<string, unknown>[])[0] as Record<string, unknown>;
}

// '' until the results have rendered (an element may show its attribute errors first)
const heading = (el: Element) => el.shadowRoot?.querySelector('[part="results-heading"]')?.textContent ?? '';
const cards = (el: Element) => shadowAll(el, '[part~="card"]');
const ready = (el: Element, what = 'results') =>
  waitFor(() => !heading(el).includes('Searching') && cards(el).length > 0 && el, 15000, what);

/** The search of one property type mounted, and its cards' listings as the data API reads them (`columns`). */
async function cardsOfType<R>(type: string, columns: string): Promise<{ el: HTMLElement; rows: R[] }> {
  const el = await mount(
    `<exp-property-search api-url="${API_URL}" sync-url="false" property-type="${type}"></exp-property-search>`,
    'exp-property-search',
    '[part="results-heading"]',
  );
  await ready(el);
  const ids = cards(el).map((c) => c.getAttribute('data-property-id'));
  const res = await fetch(`${API_URL}/rest/v1/listings?select=id,${columns}&id=in.(${ids.join(',')})`);
  return { el, rows: (await res.json()) as R[] };
}

describe('<exp-property-search>', () => {
  before(async () => {
    await loadBundle();
  });
  afterEach(cleanup);

  it('shows the first page of the exact count, 24 cards, and the Showing text', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    await ready(el);
    const total = await apiCount('');
    expect(heading(el)).to.equal(`${total.toLocaleString('en-US')} properties`);
    expect(cards(el)).to.have.length(24);
    expect(shadow(el, '[part="results"]').textContent).to.contain(`Showing 1 - 24 of ${total.toLocaleString('en-US')}`);
  });

  it('a card says the alícuota a month beside the price when the listing has one, and nothing when not', async () => {
    const { el, rows } = await cardsOfType<{ id: number; hoa_fee: number | null }>('apartment', 'hoa_fee');
    const fees = new Map(rows.map((r) => [String(r.id), r.hoa_fee]));
    expect([...fees.values()].filter((f) => f).length).to.be.greaterThan(5);
    for (const card of cards(el)) {
      const fee = fees.get(String(card.getAttribute('data-property-id')));
      const price = (card.querySelector('[part="card-price"]')?.textContent ?? '').replace(/\s+/g, ' ');
      if (fee) expect(price).to.contain(`+ $${fee.toLocaleString('en-US')}/month alícuota`);
      else expect(price).to.not.contain('alícuota');
    }
  });

  it('a card of a lot says its area, and no "0 beds" or "0 baths"; a home says its rooms', async () => {
    const { el, rows } = await cardsOfType<{ id: number; bedrooms: number; bathrooms: number }>(
      'land',
      'bedrooms,bathrooms',
    );
    expect(rows.filter((r) => !r.bedrooms && !r.bathrooms).length).to.be.greaterThan(0);
    const rooms = new Map(rows.map((r) => [String(r.id), r]));
    for (const card of cards(el)) {
      const row = rooms.get(String(card.getAttribute('data-property-id')));
      expect(Boolean(card.querySelector('[part="card-beds"]')), `beds of ${row?.id}`).to.equal(Boolean(row?.bedrooms));
      expect(Boolean(card.querySelector('[part="card-baths"]')), `baths of ${row?.id}`).to.equal(
        Boolean(row?.bathrooms),
      );
      expect(card.textContent).to.not.match(/\b0 (beds|baths)\b/);
    }
  });

  it('gives every control a visible label that is its accessible name', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false"></exp-property-search>`,
      'exp-property-search',
      'form',
    );
    // "More filters" loads its fields when first opened
    shadow<HTMLButtonElement>(el, '[part="more-filters"]').click();
    await waitFor(() => shadowAll(el, '[part="more"] input').length > 0, 5000, 'the other filters');
    const controls = shadowAll<HTMLInputElement | HTMLSelectElement>(
      el,
      '[part="filters"] select, [part="filters"] input',
    );
    expect(controls.map((c) => c.name)).to.deep.equal([
      // Buy, Rent or New homes, first
      'operation',
      'operation',
      'operation',
      'city',
      'propertyType',
      'beds',
      'baths',
      'minSqft',
      'minPrice',
      'maxPrice',
      // behind "More filters"
      'keywords',
      'yearBuiltFrom',
      'yearBuiltTo',
      'minLotSize',
      'maxLotSize',
      'maxHoaFee',
      'parking',
      'pool',
      'view',
      'waterfront',
      'garage',
      'newConstruction',
      'airConditioning',
      // pets only for rentals
      'storage',
      'furnished',
      'openHouse',
    ]);
    for (const c of controls) {
      const label = el.shadowRoot?.querySelector(`label[for="${CSS.escape(c.id)}"]`);
      expect(label?.textContent?.trim(), c.name).to.not.equal('');
      expect(c.labels?.[0]).to.equal(label);
    }
    const beds = controls.find((c) => c.name === 'beds') as HTMLSelectElement;
    expect([...beds.options].map((o) => o.text)).to.deep.equal(['Any', '1+', '2+', '3+', '4+', '5+']);
    const maxPrice = controls.find((c) => c.name === 'maxPrice') as HTMLSelectElement;
    expect([...maxPrice.options].map((o) => o.text)).to.deep.equal(['Any', '$500K', '$1M', '$2M', '$5M', '$10M+']);
    const area = controls.find((c) => c.name === 'minSqft') as HTMLSelectElement;
    expect([...area.options].map((o) => o.text)).to.deep.equal([
      'Any',
      '50+ m²',
      '100+ m²',
      '150+ m²',
      '200+ m²',
      '300+ m²',
    ]);
    const parking = controls.find((c) => c.name === 'parking') as HTMLSelectElement;
    expect([...parking.options].map((o) => o.text)).to.deep.equal(['Any', '1+', '2+', '3+']);
    // Rent: a month's price steps, and pets allowed among the other filters
    shadow<HTMLInputElement>(el, 'input[name="operation"][value="rent"]').click();
    await waitFor(() => shadowAll(el, 'input[name="pets"]').length === 1, 8000, 'the rentals');
    expect([...shadow<HTMLSelectElement>(el, 'select[name="maxPrice"]').options].map((o) => o.text)).to.deep.equal([
      'Any',
      '$300',
      '$500',
      '$800',
      '$1.2K',
      '$2K',
    ]);
    const rentals = await apiCount('operation=eq.rent', true);
    await waitFor(
      () => heading(el) === `${rentals.toLocaleString('en-US')} properties`,
      8000,
      'the count of the rentals',
    );
    for (const card of cards(el))
      expect(card.querySelector('[part="card-price"]')?.textContent).to.match(/^\$[\d,]+\/month/);
  });

  it('applies the preset attributes and fires exp-search with the submitted filters', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="cuenca" beds="2"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    await ready(el);
    const total = await apiCount('place_search=like.*cuenca*&bedrooms=gte.2');
    expect(heading(el)).to.equal(`${total} properties`);
    for (const card of cards(el)) expect(card.textContent).to.contain('Cuenca');
    const form = shadow<HTMLFormElement>(el, 'form');
    const type = shadow<HTMLSelectElement>(el, 'select[name="propertyType"]');
    await waitFor(() => type.options.length > 2, 5000, 'property types');
    type.value = 'apartment';
    type.dispatchEvent(new Event('change', { bubbles: true }));
    const event = oneEvent<{ filters: Record<string, unknown>; sort: string }>(el, 'exp-search');
    form.requestSubmit();
    const fired = await event;
    const detail = fired.detail;
    // nothing checks whether a host cancelled it, so it cannot be cancelled
    expect([fired.bubbles, fired.composed, fired.cancelable]).to.deep.equal([true, true, false]);
    expect(detail.filters).to.deep.equal({ city: 'cuenca', beds: 2, propertyType: 'apartment' });
    expect(detail.sort).to.equal('featured');
    const narrowed = await apiCount('place_search=like.*cuenca*&bedrooms=gte.2&property_type=ilike.*apartment*');
    await waitFor(() => heading(el) === `${narrowed} properties`, 10000, 'narrowed count');
  });

  it('reports a bad attribute and searches with the default', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" min-price="cheap"></exp-property-search>`,
      'exp-property-search',
      '[part="attribute-errors"]',
    );
    expect(shadow(el, '[part="attribute-errors"]').textContent).to.contain('min-price').and.to.contain('cheap');
    await ready(el);
    expect(heading(el)).to.equal(`${(await apiCount('')).toLocaleString('en-US')} properties`);
  });

  it('opens the detail from the keyboard, closes with Escape and gives focus back to the card', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="loja"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    await ready(el);
    const title = shadow<HTMLButtonElement>(el, '[part~="card"] .exp-card-link');
    title.focus();
    // what the dialog holds as it opens (its first render, before the browser paints it): its header
    // and the listing's title, its name; the detail (photos, facts, and below them what follows in a
    // background render of its own) comes in the frames after
    const first: string[] = [];
    let named = '';
    const watch = new MutationObserver(() => {
      const open = el.shadowRoot?.querySelector('dialog[open]');
      if (!open || named) return;
      named = el.shadowRoot?.getElementById(open.getAttribute('aria-labelledby') ?? '')?.textContent ?? '-';
      for (const part of ['carousel', 'facts', 'payment', 'inquiry-form'])
        if (open.querySelector(`[part~="${part}"]`)) first.push(part);
      if (open.textContent?.includes('Description')) first.push('description');
    });
    watch.observe(el.shadowRoot!, { subtree: true, attributes: true, attributeFilter: ['open'] });
    const opened = oneEvent<{ id: string; title: string }>(el, 'exp-property-open');
    await sendKeys({ press: 'Enter' });
    const detail = (await opened).detail;
    const dialog = await waitFor(() => el.shadowRoot?.querySelector<HTMLDialogElement>('dialog[open]'), 5000, 'dialog');
    watch.disconnect();
    expect(first).to.deep.equal([]);
    expect(named).to.equal(detail.title);
    await waitFor(
      () => dialog.querySelector('[part~="carousel"]') && dialog.querySelector('[part~="facts"]'),
      3000,
      'the detail',
    );
    expect(dialog.querySelectorAll('h2')).to.have.length(1);
    expect(dialog.querySelector('h2')?.textContent).to.equal(detail.title);
    expect(dialog.textContent).to.contain('Bedrooms');
    // the payment, the description, the agent card and the inquiry form follow the first paint
    await waitFor(() => dialog.textContent?.includes('Request more information'), 3000, 'inquiry form');
    expect(dialog.querySelector('[part="payment"]')).to.not.equal(null);
    expect(dialog.textContent).to.contain('Description');
    await sendKeys({ press: 'Escape' });
    await waitFor(() => !el.shadowRoot?.querySelector('dialog[open]'), 5000, 'dialog closed');
    await waitFor(() => el.shadowRoot?.activeElement === title, 2000, 'focus back on the card');
  });

  it('renders listing text that holds markup as plain text', async () => {
    const row = await apiFirst('title=ilike.*amoblado*');
    await openedFromLink(row.id, '', async (el) => {
      const dialog = await waitFor(
        () => el.shadowRoot?.querySelector<HTMLDialogElement>('dialog[open]'),
        10000,
        'dialog from ?property=',
      );
      await waitFor(() => dialog.querySelector('h2'), 3000, 'title');
      expect(dialog.querySelector('h2')?.textContent).to.equal(String(row.title));
      // the description follows the first paint (the title and the facts come first)
      await waitFor(() => dialog.textContent?.includes('<script>alert("xss")</script>'), 3000, 'description as text');
      expect(dialog.querySelector('h2 b, h2 img, script')).to.equal(null);
    });
  });

  it('follows lang: Spanish labels and counts', async () => {
    const el = await mount(
      `<exp-property-search lang="es" api-url="${API_URL}" sync-url="false" city="manta"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    await waitFor(() => /propiedades$/.test(heading(el)), 15000, 'Spanish heading');
    expect(shadow(el, 'button[part="search-button"]').textContent).to.equal('Buscar');
    expect(shadow(el, '[part="results"]').textContent).to.contain('Mostrando 1 - ');
  });

  it('has no serious accessibility violations with results and with the detail open', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="ibarra" show-map="false"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    await ready(el);
    await expectAccessible(el);
    shadow<HTMLButtonElement>(el, '.exp-card-link').click();
    await waitFor(() => el.shadowRoot?.querySelector('dialog[open] form'), 5000, 'dialog');
    await expectAccessible(el);
  });

  it('shows the empty list with Try Again when the data cannot be read, and recovers', () =>
    withLoggedErrors(async (errors) => {
      const el = await mount(
        `<exp-property-search api-url="http://127.0.0.1:9" sync-url="false" show-map="false"></exp-property-search>`,
        'exp-property-search',
        '[part="results-heading"]',
      );
      const empty = await waitFor(() => el.shadowRoot?.querySelector('[part="empty"]'), 15000, 'empty state');
      expect(empty.textContent).to.contain('No properties found').and.to.contain('Try adjusting your search criteria');
      const retry = [...empty.querySelectorAll('button')].find((b) => b.textContent === 'Try Again');
      expect(retry, 'Try Again').to.not.equal(undefined);
      expect(errors.length).to.be.greaterThan(0);
      el.setAttribute('api-url', API_URL);
      retry?.click();
      await ready(el, 'results after retry');
    }));

  it("says nothing of the search it arrived with; then 'Searching in {city}' and the number found in one toast, and 'Search Results' for a search without a new city", async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="Loja" show-map="false"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    await ready(el);
    const toastTexts = () => shadowAll(el, '[part~="toast"]').map((t) => t.textContent ?? '');
    // a toast waits for the page's idle time: two idle periods after the answer, none has come
    await new Promise<void>((done) => requestIdleCallback(() => requestIdleCallback(() => done())));
    expect(shadow(el, '[part="results-heading"]').textContent).to.match(/\d propert/);
    expect(toastTexts(), 'the arrival is said by the heading, not a toast').to.deep.equal([]);

    // the visitor searches another city
    const total = await apiCount('place_search=like.*ambato*');
    const location = shadow<HTMLInputElement>(el, 'input[part="location"]');
    location.focus();
    await sendKeys({ press: 'Control+A' });
    await sendKeys({ type: 'Ambato' });
    shadow<HTMLFormElement>(el, 'form').requestSubmit();
    const said = await waitFor(
      () => toastTexts().find((t) => t.includes('properties found.')),
      5000,
      'the number found',
    );
    expect(said).to.contain('Searching in Ambato').and.to.contain(`${total} properties found.`);
    expect(toastTexts(), 'the city is not said again in a toast of its own').to.deep.equal([said]);

    // the same city, a new search: the number alone, under 'Search Results'
    const beds = shadow<HTMLSelectElement>(el, 'select[name="beds"]');
    beds.value = '1';
    beds.dispatchEvent(new Event('change', { bubbles: true }));
    shadow<HTMLFormElement>(el, 'form').requestSubmit();
    const again = await waitFor(() => toastTexts().find((t) => t.includes('Search Results')), 5000, 'Search Results');
    expect(again).to.not.contain('Searching in');
    expect(again).to.match(/\d[\d,]* propert(y|ies) found\./);
  });

  it('pages through photos with the arrows and the keyboard, and shows the placeholder for a broken photo', async () => {
    const row = await apiFirst('title=eq.Casa%20con%20imagen%20rota');
    await openedFromLink(row.id, 'show-map="false"', async (el) => {
      const dialog = await waitFor(
        () => el.shadowRoot?.querySelector<HTMLDialogElement>('dialog[open] [part="carousel"]')?.closest('dialog'),
        10000,
        'dialog',
      );
      const carousel = dialog.querySelector('[part="carousel"]') as HTMLElement;
      // the first photo of this listing does not exist: the placeholder of id mod 5 takes its place
      await waitFor(() => carousel.querySelector('[part="placeholder"]'), 5000, 'placeholder');
      (dialog.querySelector('button[aria-label="Next photo"]') as HTMLButtonElement).click();
      await waitFor(
        () => carousel.querySelector('img')?.getAttribute('src')?.endsWith('/media/listings/house-3.webp'),
        5000,
        'second photo',
      );
      carousel.focus();
      await sendKeys({ press: 'ArrowRight' });
      await waitFor(() => carousel.querySelector('[part="placeholder"]'), 5000, 'wrapped to the first (broken) photo');
      await sendKeys({ press: 'ArrowLeft' });
      await waitFor(() => carousel.querySelector('img'), 5000, 'back to the second photo');
    });
  });

  it('links the agent by WhatsApp with the normalised number and copies with feedback', async () => {
    const row = await apiFirst('agent_phone=like.09*&agent_email=not.is.null&city=eq.Quito');
    await openedFromLink(row.id, 'show-map="false"', async (el) => {
      const agent = await waitFor(
        () => el.shadowRoot?.querySelector<HTMLElement>('dialog[open] [part="agent"]'),
        10000,
        'agent block',
      );
      const digits = String(row.agent_phone).replace(/\D/g, '');
      const wa = agent.querySelector('a[href^="https://wa.me/"]') as HTMLAnchorElement;
      expect(wa.href).to.equal(`https://wa.me/593${digits.slice(1)}`);
      expect(wa.target).to.equal('_blank');
      expect(wa.rel).to.contain('noopener');
      expect((agent.querySelector('a[href^="mailto:"]') as HTMLAnchorElement).href).to.equal(
        `mailto:${row.agent_email}`,
      );
      const copy = [...agent.querySelectorAll('button')].find((b) =>
        b.textContent?.includes('Copy e-mail'),
      ) as HTMLButtonElement;
      copy.click();
      await waitFor(() => /Copied!|Could not copy/.test(copy.textContent ?? ''), 3000, 'copy feedback');
    });
  });
});
