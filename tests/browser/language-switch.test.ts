import { expect } from '@esm-bundle/chai';
import {
  API_URL,
  cleanup,
  expectAccessible,
  loadBundle,
  mount,
  nextFrame,
  oneEvent,
  quiet,
  shadow,
  shadowAll,
  SINGLE_FILE_URL,
  waitFor,
} from './helpers.ts';

describe('<exp-language-switch>', () => {
  before(async () => {
    await loadBundle();
  });
  beforeEach(() => {
    document.documentElement.lang = 'en';
    localStorage.removeItem('exp-lang');
    history.replaceState(null, '', location.pathname);
  });
  afterEach(cleanup);

  it('shows both languages with the current one pressed', async () => {
    const el = await mount('<exp-language-switch></exp-language-switch>', 'exp-language-switch', 'button');
    const buttons = shadowAll<HTMLButtonElement>(el, 'button');
    expect(buttons.map((b) => b.textContent)).to.deep.equal(['EN English', 'ES Español']);
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['true', 'false']);
    expect(shadow(el, '[role="group"]').getAttribute('aria-label')).to.equal('Language');
  });

  it('switches <html lang>, persists the choice, updates ?lang= and fires exp-language-change', async () => {
    const el = await mount('<exp-language-switch></exp-language-switch>', 'exp-language-switch', 'button');
    const event = oneEvent<{ lang: string }>(document, 'exp-language-change');
    shadowAll<HTMLButtonElement>(el, 'button')[1]?.click();
    const e = await event;
    expect(e.detail).to.deep.equal({ lang: 'es' });
    expect(e.composed && e.bubbles).to.equal(true);
    expect(document.documentElement.lang).to.equal('es');
    expect(localStorage.getItem('exp-lang')).to.equal('es');
    expect(new URL(location.href).searchParams.get('lang')).to.equal('es');
    await waitFor(() => shadowAll(el, 'button')[1]?.getAttribute('aria-pressed') === 'true', 2000, 'ES pressed');
    expect(shadow(el, '[role="group"]').getAttribute('aria-label')).to.equal('Idioma');
  });

  it('follows <html lang> live, and its own lang attribute first', async () => {
    const el = await mount(
      '<exp-language-switch></exp-language-switch><exp-language-switch lang="es" id="own"></exp-language-switch>',
      'exp-language-switch',
      'button',
    );
    const own = document.getElementById('own') as HTMLElement;
    await waitFor(() => own.shadowRoot?.querySelector('button'), 4000, 'second switch');
    document.documentElement.lang = 'es';
    await waitFor(
      () => shadow(el, '[role="group"]').getAttribute('aria-label') === 'Idioma',
      2000,
      'live switch to Spanish',
    );
    document.documentElement.lang = 'en';
    await waitFor(
      () => shadow(el, '[role="group"]').getAttribute('aria-label') === 'Language',
      2000,
      'live switch back',
    );
    expect(shadow(own, '[role="group"]').getAttribute('aria-label')).to.equal('Idioma');
  });

  it('restores a saved choice on start', async () => {
    localStorage.setItem('exp-lang', 'es');
    await mount('<exp-language-switch></exp-language-switch>', 'exp-language-switch', 'button');
    await waitFor(() => document.documentElement.lang === 'es', 2000, 'restored language');
  });

  it('does not fire events without a user action', async () => {
    let fired = 0;
    const count = () => fired++;
    document.addEventListener('exp-language-change', count);
    await mount('<exp-language-switch></exp-language-switch>', 'exp-language-switch', 'button');
    document.documentElement.lang = 'es';
    await nextFrame();
    document.removeEventListener('exp-language-change', count);
    expect(fired).to.equal(0);
  });

  it('reports a bad attribute clearly and keeps working with the default', async () => {
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      const el = await mount(
        '<exp-language-switch tone="purple"></exp-language-switch>',
        'exp-language-switch',
        'button',
      );
      const alert = shadow(el, '[part="attribute-errors"]');
      expect(alert.textContent).to.contain('purple').and.to.contain('tone').and.to.contain('dark, light');
      expect(warnings.join('\n')).to.contain('tone="purple"');
      expect(shadowAll(el, 'button')).to.have.length(2);
      el.setAttribute('tone', 'light');
      await waitFor(() => !el.shadowRoot?.querySelector('[part="attribute-errors"]'), 2000, 'error cleared');
    } finally {
      console.warn = original;
    }
  });

  it('survives the script loaded twice and next to the single-file bundle', async () => {
    const errors: unknown[] = [];
    const onError = (e: ErrorEvent) => errors.push(e.message);
    window.addEventListener('error', onError);
    await loadBundle(`${new URL('/dist/widgets/exp-widgets.js', location.origin).href}?copy=2`);
    await loadBundle(SINGLE_FILE_URL);
    const el = await mount('<exp-language-switch></exp-language-switch>', 'exp-language-switch', 'button');
    window.removeEventListener('error', onError);
    expect(errors).to.deep.equal([]);
    expect(shadowAll(el, 'button')).to.have.length(2);
  });

  it('has no serious accessibility violations', async () => {
    const el = await mount('<exp-language-switch></exp-language-switch>', 'exp-language-switch', 'button');
    await expectAccessible(el);
  });

  it("draws an element again for its own reasons only: another element's Spanish texts arriving do not draw it (each did, whole, in one task)", async () => {
    const [listing] = (await (
      await fetch(`${API_URL}/rest/v1/listings?select=id&country_code=eq.EC&order=id&limit=1`)
    ).json()) as Array<{ id: number }>;
    const detail = await mount(
      `<exp-property-detail lang="es" api-url="${API_URL}" listing-id="${listing?.id}" show-similar="false" show-location="false"></exp-property-detail>`,
      'exp-property-detail',
      '[part="facts"]',
    );
    await quiet(300);
    const renders = Number(detail.getAttribute('data-renders'));
    expect(renders).to.be.above(0);
    // an element whose texts the page does not have in Spanish yet: they arrive, and it shows them
    const footer = await mount('<exp-site-footer lang="es"></exp-site-footer>', 'exp-site-footer', '[part="footer"]');
    await waitFor(
      () => footer.shadowRoot?.textContent?.includes('Todos los derechos reservados'),
      8000,
      'the footer in Spanish',
    );
    await quiet(300);
    expect(Number(detail.getAttribute('data-renders'))).to.equal(renders);
    // its own language still draws it: in English, in English
    detail.setAttribute('lang', 'en');
    await waitFor(() => shadow(detail, '[part="facts"]').closest('[lang="en"]'), 8000, 'the detail in English');
    expect(Number(detail.getAttribute('data-renders'))).to.be.above(renders);
  });
});
