import { expect } from '@esm-bundle/chai';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import {
  API_URL,
  cleanup,
  expectAccessible,
  holdFetch,
  loadBundle,
  mount,
  oneEvent,
  shadow,
  shadowAll,
  waitFor,
} from './helpers.ts';

async function api<T>(path: string): Promise<T> {
  return (await fetch(`${API_URL}/rest/v1/${path}`)).json() as Promise<T>;
}

describe('<exp-site-header>', () => {
  before(loadBundle);
  afterEach(async () => {
    cleanup();
    document.body.style.height = '';
    window.scrollTo(0, 0);
    await setViewport({ width: 1280, height: 800 });
  });

  it('is transparent at the top and solid past 20 px of scroll, with the links of docs/product.md §2', async () => {
    await setViewport({ width: 1280, height: 800 });
    document.body.style.height = '3000px';
    const el = await mount('<exp-site-header></exp-site-header>', 'exp-site-header', '[part="bar"]');
    const bar = shadow(el, '[part="bar"]');
    expect(bar.dataset.state).to.equal('top');
    expect(getComputedStyle(bar).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    expect(getComputedStyle(el).position).to.equal('fixed');
    window.scrollTo(0, 21);
    await waitFor(() => bar.dataset.state === 'scrolled', 2000, 'scrolled state');
    window.scrollTo(0, 20);
    await waitFor(() => bar.dataset.state === 'top', 2000, 'top state at exactly 20 px');
    const links = shadowAll<HTMLAnchorElement>(el, '[part="bar"] a');
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['/', '/search-properties', '/join']);
    expect(links[0]?.querySelector('svg[role="img"]')?.getAttribute('aria-label')).to.equal('eXp Realty Ecuador, home');
    expect(links.slice(1).map((a) => a.textContent?.trim())).to.deep.equal(['Search Properties', 'Join']);
    // the language switch is drawn in the header's own shadow root, not as an element of its own
    // that the autoloader would fetch: its buttons switch the page and the header says so
    const options = shadowAll<HTMLButtonElement>(el, '[part="group"] [part~="option"]');
    expect(options.map((b) => b.getAttribute('lang'))).to.deep.equal(['en', 'es']);
    expect(el.shadowRoot?.querySelector('exp-language-switch')).to.equal(null);
    const changed = oneEvent<{ lang: string }>(el, 'exp-language-change');
    options[1]!.click();
    expect((await changed).detail.lang).to.equal('es');
    expect(document.documentElement.lang).to.equal('es');
    await waitFor(() => shadow(el, '[part~="option-active"]')?.getAttribute('lang') === 'es', 2000, 'Spanish chosen');
    shadow<HTMLButtonElement>(el, '[part~="option"][lang="en"]')!.click();
    expect(document.documentElement.lang).to.equal('en');
    // the choice it remembered (this page has no address per language: ?lang= and localStorage)
    localStorage.removeItem('exp-lang');
    history.replaceState(null, '', location.pathname);
    // the light tone is white over a dark hero: check its contrast over one
    document.body.style.background = '#0b2340';
    try {
      await expectAccessible(el);
    } finally {
      document.body.style.background = '';
    }
  });

  it('opens the side panel (event, focus inside, Escape closes, focus back); links follow base-url', async () => {
    const el = await mount(
      '<exp-site-header base-url="https://expecuador.example/" position="static"></exp-site-header>',
      'exp-site-header',
      '[part="menu-button"]',
    );
    expect(getComputedStyle(el).position).to.equal('relative');
    const button = shadow<HTMLButtonElement>(el, '[part="menu-button"]');
    const opened = oneEvent<{ open: boolean }>(el, 'exp-menu-toggle');
    button.focus();
    button.click();
    expect((await opened).detail).to.deep.equal({ open: true });
    const panel = await waitFor(() => el.shadowRoot?.querySelector<HTMLDialogElement>('dialog[open]'), 2000, 'panel');
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    const hrefs = [...panel.querySelectorAll('a')].map((a) => a.href);
    expect(hrefs.slice(0, 7)).to.deep.equal([
      'https://expecuador.example/search-properties',
      'https://expecuador.example/projects',
      'https://expecuador.example/findanagent',
      'https://expecuador.example/market',
      'https://expecuador.example/about',
      'https://expecuador.example/join',
      'https://expecuador.example/saved',
    ]);
    const login = panel.querySelectorAll('a')[7] as HTMLAnchorElement;
    expect(login.target).to.equal('_blank');
    expect(login.rel).to.contain('noopener');
    expect(panel.contains(el.shadowRoot?.activeElement ?? null)).to.equal(true);
    const closed = oneEvent<{ open: boolean }>(el, 'exp-menu-toggle');
    await sendKeys({ press: 'Escape' });
    expect((await closed).detail).to.deep.equal({ open: false });
    await waitFor(() => !el.shadowRoot?.querySelector('dialog[open]'), 2000, 'panel closed');
    // (a DOM node in a failed chai comparison can hang the formatter: compare a boolean)
    expect(el.shadowRoot?.activeElement === button).to.equal(true);
  });

  it('shows the phone set on a small screen and follows the page language', async () => {
    await setViewport({ width: 390, height: 844 });
    const el = await mount('<exp-site-header tone="dark"></exp-site-header>', 'exp-site-header', '[part="join"]');
    expect(getComputedStyle(shadow(el, '[part="join"]')).display).to.equal('none');
    expect(shadow(el, '[part="link"]').getBoundingClientRect().width).to.be.greaterThan(0);
    expect(el.getBoundingClientRect().width).to.equal(390);
    expect(el.shadowRoot?.querySelector('[part="bar"] > div')?.scrollWidth).to.be.at.most(390);
    el.setAttribute('lang', 'es');
    await waitFor(() => shadow(el, '[part="link"]').textContent === 'Buscar propiedades', 2000, 'Spanish');
    expect(shadow(el, '[part="menu-button"]').textContent).to.contain('Abrir el menú');
  });

  it('shows a clear error for a bad attribute and keeps working with the default', async () => {
    const el = await mount(
      '<exp-site-header tone="purple" base-url="javascript:alert(1)"></exp-site-header>',
      'exp-site-header',
      '[part="attribute-errors"]',
    );
    const errors = shadow(el, '[part="attribute-errors"]').textContent ?? '';
    expect(errors).to.contain('tone');
    expect(errors).to.contain('base-url');
    expect(shadowAll<HTMLAnchorElement>(el, 'a').every((a) => !a.href.startsWith('javascript:'))).to.equal(true);
  });
});

describe('<exp-site-footer>', () => {
  before(loadBundle);
  afterEach(cleanup);

  it('has the columns, the office, phone, e-mail, four networks and the copyright, every external link in a new tab', async () => {
    const el = await mount('<exp-site-footer></exp-site-footer>', 'exp-site-footer', '[part="copyright"]');
    expect(shadowAll(el, '[part="column"]').length).to.equal(3);
    expect(shadow(el, '[part="contact"]').textContent).to.contain('Quito');
    expect(shadowAll(el, '[part="social-link"]').length).to.equal(4);
    const anchors = shadowAll<HTMLAnchorElement>(el, 'a');
    const external = anchors.filter((a) => /^https?:/.test(a.href) && new URL(a.href).origin !== location.origin);
    expect(external.length).to.be.greaterThan(15);
    for (const a of external) {
      expect(a.target, a.href).to.equal('_blank');
      expect(a.rel, a.href).to.contain('noopener');
    }
    expect(anchors.some((a) => a.getAttribute('href') === '/findanagent')).to.equal(true);
    expect(anchors.some((a) => a.href.startsWith('tel:'))).to.equal(true);
    expect(anchors.some((a) => a.href.startsWith('mailto:'))).to.equal(true);
    expect(shadow(el, '[part="copyright"]').textContent).to.contain(
      `© ${new Date().getFullYear()} eXp Realty Ecuador. All rights reserved.`,
    );
    el.setAttribute('lang', 'es');
    await waitFor(
      () => shadow(el, '[part="copyright"]').textContent?.includes('Todos los derechos reservados'),
      2000,
      'Spanish',
    );
    await expectAccessible(el);
  });
});

describe('<exp-featured-listings>', () => {
  before(loadBundle);
  afterEach(cleanup);

  const ids = (el: Element) => shadowAll(el, '[part~="card"]').map((c) => Number(c.getAttribute('data-property-id')));

  it('shows the 8 newest active listings and a view-all link to the search', async () => {
    const newest = await api<Array<{ id: number }>>(
      'listings?select=id&country_code=eq.EC&status=eq.1&operation=eq.sale&order=created_at.desc&limit=8',
    );
    const el = await mount(
      `<exp-featured-listings api-url="${API_URL}"></exp-featured-listings>`,
      'exp-featured-listings',
      '[part~="card"]',
    );
    await waitFor(() => ids(el).length === 8, 5000, '8 cards');
    expect(ids(el)).to.deep.equal(newest.map((r) => r.id));
    expect(shadow(el, '[part="heading"]').textContent).to.equal('Featured properties');
    expect(shadow(el, '[part="view-all"]').getAttribute('href')).to.equal('/search-properties');
    await expectAccessible(el);
  });

  it('while its listings load: the skeletons are one status named Loading..., which axe passes (a div with a name and no role did not)', async () => {
    // the newest listings are one call to the search (widgets/lib/data/listings.ts getListingsPage)
    const held = holdFetch('/rest/v1/rpc/search_listings');
    try {
      const el = await mount(
        `<exp-featured-listings api-url="${API_URL}"></exp-featured-listings>`,
        'exp-featured-listings',
        '[role="status"]:has([part="skeleton"])',
      );
      await waitFor(() => held.held() === 1, 8000, 'the listings asked for and held');
      const loading = shadow(el, '[role="status"]:has([part="skeleton"])');
      expect(loading.getAttribute('aria-label')).to.equal('Loading...');
      expect(loading.querySelectorAll('[part="skeleton"]')).to.have.length(4);
      await expectAccessible(el);
      held.release();
      await waitFor(() => ids(el).length === 8, 5000, '8 cards');
      expect(el.shadowRoot?.querySelector('[part="skeleton"]')).to.equal(null);
    } finally {
      held.restore();
    }
  });

  it('filters by community (accent-insensitive), opens a card, and links to that community', async () => {
    const el = await mount(
      `<exp-featured-listings api-url="${API_URL}" community="cumbaya" limit="3" search-url="/search-properties?sort=newest"></exp-featured-listings>`,
      'exp-featured-listings',
      '[part~="card"]',
    );
    await waitFor(() => ids(el).length === 3, 5000, '3 cards');
    const rows = await api<Array<{ id: number; city: string }>>(`listings?select=id,city&id=in.(${ids(el).join(',')})`);
    expect(rows.every((r) => r.city === 'Cumbayá')).to.equal(true);
    expect(shadow(el, '[part="view-all"]').getAttribute('href')).to.equal(
      '/search-properties?sort=newest&city=cumbaya',
    );
    const opened = oneEvent<{ id: string }>(el, 'exp-property-open');
    shadow<HTMLButtonElement>(el, '.exp-card-link').click();
    expect((await opened).detail.id).to.equal(String(ids(el)[0]));
    await waitFor(() => el.shadowRoot?.querySelector('dialog[open]'), 3000, 'detail dialog');
  });

  it('says so when nothing matches, and when the data cannot be read', async () => {
    const empty = await mount(
      `<exp-featured-listings api-url="${API_URL}" community="no such town"></exp-featured-listings>`,
      'exp-featured-listings',
      '[part="empty"]',
    );
    expect(shadow(empty, '[part="empty"]').textContent).to.equal('There are no listings to feature right now.');
    const down = await mount(
      '<exp-featured-listings api-url="http://127.0.0.1:9/"></exp-featured-listings>',
      'exp-featured-listings',
      '[part="empty"]',
    );
    expect(shadow(down, '[part="empty"]').getAttribute('role')).to.equal('alert');
    const bad = await mount(
      `<exp-featured-listings api-url="${API_URL}" limit="500"></exp-featured-listings>`,
      'exp-featured-listings',
      '[part="attribute-errors"]',
    );
    expect(shadow(bad, '[part="attribute-errors"]').textContent).to.contain('limit');
    await waitFor(() => ids(bad).length === 8, 5000, 'the default 8');
  });
});
