import { expect } from '@esm-bundle/chai';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
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

const KEY = `exp-saved:${API_URL}`;

type Saved = {
  items: Array<{ id: string; title: string; price: number; city: string; image: string; savedAt: number }>;
};
const stored = (): Saved => JSON.parse(localStorage.getItem(KEY) ?? '{"items":[]}') as Saved;
const heartOf = (root: Element | ShadowRoot, id: string) =>
  root.querySelector<HTMLButtonElement>(`[data-property-id="${id}"] [part~="save-button"]`);

async function someListings(city: string, n: number): Promise<Array<{ id: number; title: string }>> {
  const res = await fetch(
    `${API_URL}/rest/v1/listings?select=id,title&country_code=eq.EC&place_search=like.*${city}*&title=not.like.*<*&order=created_at.desc,id.desc&limit=${n}`,
  );
  return (await res.json()) as Array<{ id: number; title: string }>;
}

function type(el: Element, selector: string, value: string) {
  const input = shadow<HTMLInputElement>(el, selector);
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('saved listings (the heart, <exp-saved-listings>)', () => {
  before(loadBundle);
  beforeEach(() => localStorage.removeItem(KEY));
  afterEach(() => {
    cleanup();
    localStorage.removeItem(KEY);
  });

  it('saves from a card: pressed, announced, kept per backend, the event fired; every heart and the saved list follow', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="loja"></exp-property-search>`,
      'exp-property-search',
      '[part~="card"]',
    );
    const card = shadowAll(el, '[part~="card"]')[0] as HTMLElement;
    const id = card.dataset.propertyId as string;
    const heart = heartOf(el.shadowRoot as ShadowRoot, id) as HTMLButtonElement;
    expect(heart.getAttribute('aria-pressed')).to.equal('false');
    expect(heart.getAttribute('aria-label')).to.match(/^Save /);
    const saved = oneEvent<{ id: string; saved: boolean; title: string }>(el, 'exp-listing-save');
    heart.click();
    const detail = (await saved).detail;
    expect(detail.id).to.equal(id);
    expect(detail.saved).to.equal(true);
    expect(detail.title).to.not.equal('');
    await waitFor(() => heart.getAttribute('aria-pressed') === 'true', 2000, 'pressed');
    expect(heart.getAttribute('aria-label')).to.match(/^Remove .* from saved$/);
    expect(stored().items.map((i) => i.id)).to.deep.equal([id]);
    // told to screen readers, without a toast
    await waitFor(
      () =>
        shadowAll(el, '[role="status"][aria-live="polite"]').some((s) => s.textContent === `Saved: ${detail.title}`),
      2000,
      'announcement',
    );
    // the saved list on the same page shows it, and a heart there removes it everywhere
    const list = await mount(
      `<exp-saved-listings api-url="${API_URL}"></exp-saved-listings>`,
      'exp-saved-listings',
      '[part~="card"]',
    );
    expect(shadowAll(list, '[part~="card"]').map((c) => (c as HTMLElement).dataset.propertyId)).to.deep.equal([id]);
    expect(shadow(list, '[part="count"]').textContent).to.contain('1 saved property');
    (heartOf(list.shadowRoot as ShadowRoot, id) as HTMLButtonElement).click();
    await waitFor(() => heart.getAttribute('aria-pressed') === 'false', 2000, 'card heart follows');
    await waitFor(() => list.shadowRoot?.querySelector('[part="empty"]'), 2000, 'empty list');
    expect(shadow(list, '[part="empty"]').textContent).to.contain('No saved properties yet');
    await expectAccessible(list);
  });

  it('saves from the detail dialog and from a map popup, the same list', async () => {
    // ten or fewer: pins, not clusters, so each has its popup
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="bahia" property-type="house"></exp-property-search>`,
      'exp-property-search',
      '[part~="card"]',
    );
    const card = shadowAll(el, '[part~="card"]')[0] as HTMLElement;
    const id = card.dataset.propertyId as string;
    (card.querySelector('a.exp-card-link') as HTMLAnchorElement).click();
    const dialog = await waitFor(
      () => el.shadowRoot?.querySelector('dialog[open] [part~="save-button"]'),
      8000,
      'heart in the dialog',
    );
    (dialog as HTMLButtonElement).click();
    await waitFor(() => stored().items.some((i) => i.id === id), 2000, 'saved from the dialog');
    expect((heartOf(el.shadowRoot as ShadowRoot, id) as HTMLButtonElement).getAttribute('aria-pressed')).to.equal(
      'true',
    );
    (el.shadowRoot?.querySelector('dialog[open] button[aria-label="Close"]') as HTMLButtonElement).click();
    await waitFor(() => !el.shadowRoot?.querySelector('dialog[open]'), 2000, 'dialog closed');

    // a pin's popup: hover the pin (the map's test hooks say where it is drawn)
    const target = await waitFor(
      () =>
        el.shadowRoot?.querySelector<HTMLElement & { expMap: { pixelOf(id: string): [number, number] | undefined } }>(
          '[part="map"] [data-pins]',
        ),
      20000,
      'map',
    );
    const other = shadowAll(el, '[part~="card"]')
      .map((c) => (c as HTMLElement).dataset.propertyId as string)
      .find((x) => x !== id && target.expMap.pixelOf(x));
    const pinId = other ?? id;
    target.scrollIntoView({ block: 'center' });
    for (
      let attempt = 0;
      attempt < 6 && !el.shadowRoot?.querySelector('[part="popup"] [part~="save-button"]');
      attempt++
    ) {
      await new Promise((r) => setTimeout(r, 200));
      const px = target.expMap.pixelOf(pinId);
      if (!px) continue;
      const rect = target.getBoundingClientRect();
      await sendMouse({
        type: 'move',
        position: [Math.round(rect.left + px[0]) + 30, Math.round(rect.top + px[1]) + 40],
      });
      await sendMouse({ type: 'move', position: [Math.round(rect.left + px[0]), Math.round(rect.top + px[1] - 14)] });
    }
    const popupHeart = await waitFor(
      () => el.shadowRoot?.querySelector<HTMLButtonElement>('[part="popup"] [part~="save-button"]'),
      3000,
      'heart in the popup',
    );
    const wasSaved = stored().items.some((i) => i.id === pinId);
    popupHeart.click();
    await waitFor(() => stored().items.some((i) => i.id === pinId) !== wasSaved, 2000, 'toggled from the popup');
    await sendMouse({ type: 'move', position: [0, 0] });
  });

  it('shows what it kept of a listing no longer on the market, marked and removable, by keyboard', async () => {
    const [active] = await someListings('cuenca', 1);
    localStorage.setItem(
      KEY,
      JSON.stringify({
        v: 1,
        items: [
          { id: '987654321', title: 'Sold loft <b>in</b> Quito', price: 150000, city: 'Quito', image: '', savedAt: 2 },
          { id: String(active?.id), title: active?.title, price: 1, city: 'Cuenca', image: '', savedAt: 1 },
          { id: '<script>', title: 'bad id', price: 1, city: '', image: 'javascript:alert(1)', savedAt: 0 },
        ],
      }),
    );
    const list = await mount(
      `<exp-saved-listings api-url="${API_URL}"></exp-saved-listings>`,
      'exp-saved-listings',
      '[part~="card"]',
    );
    await waitFor(() => shadowAll(list, '[part~="card"]').length === 2, 8000, 'two cards');
    const gone = shadow(list, '[part~="card-unavailable"]');
    expect(gone.textContent).to.contain('No longer available');
    expect(gone.textContent).to.contain('Sold loft <b>in</b> Quito');
    expect(gone.querySelector('b')).to.equal(null);
    expect(shadowAll(list, '[part~="card"]')[1]?.getAttribute('data-property-id')).to.equal(String(active?.id));
    await expectAccessible(list);
    // keyboard only: focus Remove and press Enter
    const remove = shadow<HTMLButtonElement>(list, '[part="remove"]');
    remove.focus();
    const event = oneEvent<{ id: string; saved: boolean }>(list, 'exp-listing-save');
    await sendKeys({ press: 'Enter' });
    expect((await event).detail).to.deep.include({ id: '987654321', saved: false });
    await waitFor(() => shadowAll(list, '[part~="card"]').length === 1, 2000, 'removed');
    // and the heart by keyboard: Space
    const heart = heartOf(list.shadowRoot as ShadowRoot, String(active?.id)) as HTMLButtonElement;
    heart.focus();
    await sendKeys({ press: 'Space' });
    await waitFor(() => list.shadowRoot?.querySelector('[part="empty"]'), 2000, 'empty');
    await expectAccessible(list);
  });

  it('while the saved listings load: their skeletons are one status named Cargando..., which axe passes', async () => {
    const saved = await someListings('quito', 2);
    expect(saved.map((l) => typeof l.id)).to.deep.equal(['number', 'number']);
    localStorage.setItem(
      KEY,
      JSON.stringify({
        v: 1,
        items: saved.map((l, i) => ({
          id: String(l.id),
          title: l.title,
          price: 1,
          city: 'Quito',
          image: '',
          savedAt: i,
        })),
      }),
    );
    // the saved listings are one call to the listings by id (widgets/lib/data/listings.ts getListingsByIds)
    const held = holdFetch('/rest/v1/listings');
    try {
      const list = await mount(
        `<exp-saved-listings api-url="${API_URL}" lang="es"></exp-saved-listings>`,
        'exp-saved-listings',
        '[role="status"]:has([part="skeleton"])',
      );
      await waitFor(() => held.held() === 1, 8000, 'the listings asked for and held');
      const loading = shadow(list, '[role="status"]:has([part="skeleton"])');
      expect(loading.getAttribute('aria-label')).to.equal('Cargando...');
      expect(loading.querySelectorAll('[part="skeleton"]')).to.have.length(2);
      await expectAccessible(list);
      held.release();
      await waitFor(() => shadowAll(list, '[part~="card"]').length === 2, 8000, 'two cards');
    } finally {
      held.restore();
    }
  });

  it('follows the language: Spanish labels', async () => {
    const el = await mount(
      `<exp-saved-listings api-url="${API_URL}" lang="es"></exp-saved-listings>`,
      'exp-saved-listings',
      '[part="empty"]',
    );
    await waitFor(
      () => shadow(el, '[part="empty"]').textContent?.includes('Aún no has guardado propiedades'),
      5000,
      'Spanish',
    );
    expect(shadow(el, '[part="search-link"]').textContent).to.equal('Buscar propiedades');
  });
});

describe('alerts for a search (the form)', () => {
  before(loadBundle);
  afterEach(cleanup);

  async function openForm(html: string) {
    const el = await mount(html, 'exp-property-search', '[part~="card"]');
    shadow<HTMLButtonElement>(el, '[part="alerts-button"]').click();
    await waitFor(() => el.shadowRoot?.querySelector('dialog[open] [part="alert-form"]'), 8000, 'alert form');
    return el;
  }
  const errors = (el: Element) => shadowAll(el, 'dialog[open] [part="field-error"]').map((e) => e.textContent);

  it('says what the alert is for, checks the e-mail before sending, and asks to confirm by mail', async () => {
    const el = await openForm(
      `<exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="loja" beds="3"></exp-property-search>`,
    );
    const form = shadow(el, 'dialog[open]');
    expect(form.textContent).to.contain('Properties in loja · 3+ bedrooms');
    expect(shadow<HTMLInputElement>(el, 'dialog[open] input[type="radio"][value="daily"]').checked).to.equal(true);
    expect(shadow<HTMLSelectElement>(el, 'dialog[open] select').value).to.equal('en');
    // the line beside the button: what her address is for, and the notice
    const privacy = shadow(el, 'dialog[open] [part="privacy"]');
    expect(privacy.textContent).to.contain('We send one e-mail to confirm your address');
    expect(privacy.querySelector('a')?.textContent).to.equal('Privacy notice');
    expect(new URL(privacy.querySelector('a')!.href).pathname).to.equal('/privacy');
    await expectAccessible(el);
    shadow<HTMLButtonElement>(el, 'dialog[open] button[type="submit"]').click();
    await waitFor(() => errors(el).join() === 'Please enter your e-mail', 2000, 'required');
    expect(shadow(el, 'dialog[open] input[type="email"]').getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot?.activeElement?.getAttribute('type')).to.equal('email');
    type(el, 'dialog[open] input[type="email"]', 'ana@');
    shadow<HTMLButtonElement>(el, 'dialog[open] button[type="submit"]').click();
    await waitFor(() => errors(el).join() === 'Please enter a valid e-mail address', 2000, 'invalid');
    type(el, 'dialog[open] input[type="email"]', `ana.${Date.now()}@example.org`);
    shadow<HTMLInputElement>(el, 'dialog[open] input[value="weekly"]').click();
    shadow<HTMLButtonElement>(el, 'dialog[open] button[type="submit"]').click();
    await waitFor(() => shadow(el, 'dialog[open] h2').textContent === 'Check your inbox', 8000, 'sent');
    expect(shadow(el, 'dialog[open] [role="status"]').textContent).to.match(/We sent a link to ana\.\d+@example\.org/);
    await expectAccessible(el);
  });

  it('speaks Spanish in a Spanish page, the mails in Spanish by default', async () => {
    const el = await openForm(
      `<exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="loja" lang="es"></exp-property-search>`,
    );
    expect(shadow(el, 'dialog[open] h2').textContent).to.equal('Alertas de esta búsqueda');
    expect(shadow<HTMLSelectElement>(el, 'dialog[open] select').value).to.equal('es');
    const privacy = shadow(el, 'dialog[open] [part="privacy"]');
    expect(privacy.textContent).to.contain('Enviamos un correo para confirmar tu dirección');
    expect(new URL(privacy.querySelector('a')!.href).pathname).to.equal('/es/privacidad');
    shadow<HTMLButtonElement>(el, 'dialog[open] button[type="submit"]').click();
    await waitFor(() => errors(el).join() === 'Ingresa tu correo electrónico', 2000, 'Spanish required');
    type(el, 'dialog[open] input[type="email"]', 'no es un correo');
    shadow<HTMLButtonElement>(el, 'dialog[open] button[type="submit"]').click();
    await waitFor(() => errors(el).join() === 'Ingresa un correo electrónico válido', 2000, 'Spanish invalid');
    await expectAccessible(el);
  });

  it('works by keyboard only: open, fill, choose, send, close', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="loja"></exp-property-search>`,
      'exp-property-search',
      '[part~="card"]',
    );
    shadow<HTMLButtonElement>(el, '[part="alerts-button"]').focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(
      () =>
        el.shadowRoot?.activeElement &&
        el.shadowRoot.querySelector('dialog[open]')?.contains(el.shadowRoot.activeElement),
      8000,
      'focus in the dialog',
    );
    // to the e-mail field, type, submit with Enter
    for (let i = 0; i < 5 && el.shadowRoot?.activeElement?.getAttribute('type') !== 'email'; i++)
      await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot?.activeElement?.getAttribute('type')).to.equal('email');
    await sendKeys({ type: `kb.${Date.now()}@example.org` });
    await sendKeys({ press: 'Enter' });
    await waitFor(() => shadow(el, 'dialog[open] h2').textContent === 'Check your inbox', 8000, 'sent by keyboard');
    await sendKeys({ press: 'Escape' });
    await waitFor(() => !el.shadowRoot?.querySelector('dialog[open]'), 2000, 'closed');
    expect(el.shadowRoot?.activeElement?.getAttribute('part')).to.equal('alerts-button');
  });
});
