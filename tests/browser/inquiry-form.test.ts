import { expect } from '@esm-bundle/chai';
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
} from './helpers.ts';

async function firstListing(): Promise<{ id: number; title: string }> {
  const res = await fetch(
    `${API_URL}/rest/v1/listings?select=id,title&country_code=eq.EC&agent_id=not.is.null&title=not.like.*<*&order=id&limit=1`,
  );
  return ((await res.json()) as Array<{ id: number; title: string }>)[0] as { id: number; title: string };
}

function type(el: Element, name: string, value: string) {
  const input = shadow<HTMLInputElement | HTMLTextAreaElement>(el, `[name="${name}"]`);
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

const submit = (el: Element) => shadow<HTMLButtonElement>(el, 'button[type="submit"]');
const toasts = (el: Element) => shadowAll(el, '[part~="toast"]').map((t) => t.textContent ?? '');

/** Ana's inquiry sent, until a toast says `words` */
async function sendUntilToast(el: Element, words: string) {
  type(el, 'name', 'Ana');
  type(el, 'email', 'ana@example.com');
  submit(el).click();
  await waitFor(() => toasts(el).some((t) => t.includes(words)), 8000, `a toast saying ${words}`);
}

describe('<exp-inquiry-form>', () => {
  let listing: { id: number; title: string };
  before(async () => {
    await loadBundle();
    listing = await firstListing();
  });
  afterEach(cleanup);

  it('names the listing and has labelled, autocompleting fields and a hidden honeypot', async () => {
    const el = await mount(
      `<exp-inquiry-form api-url="${API_URL}" listing-id="${listing.id}"></exp-inquiry-form>`,
      'exp-inquiry-form',
      'form',
    );
    await waitFor(() => shadow(el, 'h3').textContent === `Ask about ${listing.title}`, 5000, 'heading with the title');
    expect(shadow<HTMLInputElement>(el, '[name="name"]').autocomplete).to.equal('name');
    expect(shadow<HTMLInputElement>(el, '[name="email"]').type).to.equal('email');
    expect(shadow<HTMLInputElement>(el, '[name="phone"]').autocomplete).to.equal('tel');
    expect(shadow<HTMLTextAreaElement>(el, '[name="message"]').rows).to.equal(4);
    expect(shadow<HTMLTextAreaElement>(el, '[name="message"]').placeholder).to.equal(
      'I would like to know more about this property...',
    );
    const honeypot = shadow<HTMLInputElement>(el, '[name="website"]');
    expect(honeypot.tabIndex).to.equal(-1);
    // inside a 1px clipped box: people never see it
    expect((honeypot.closest('.exp-sr-only') as HTMLElement).getBoundingClientRect().width).to.be.at.most(1);
    await expectAccessible(el);
  });

  it("asks what fits, not about 'this property': how it can help when it is addressed to an agent without a listing, about the development when its listing is a new development's; in both languages", async () => {
    const [agent] = await (await fetch(`${API_URL}/rest/v1/agents?select=id&order=id&limit=1`)).json();
    const [project] = await (
      await fetch(`${API_URL}/rest/v1/listings?select=id&operation=eq.project&status=eq.1&order=id&limit=1`)
    ).json();
    for (const [about, lang, said] of [
      [`agent-id="${agent.id}"`, 'en', 'How can we help you?'],
      [`agent-id="${agent.id}"`, 'es', '¿En qué podemos ayudarte?'],
      [`listing-id="${project.id}"`, 'en', 'I would like to know more about this development...'],
      [`listing-id="${project.id}"`, 'es', 'Me gustaría saber más sobre este proyecto...'],
    ] as const) {
      const el = await mount(
        `<exp-inquiry-form api-url="${API_URL}" ${about} lang="${lang}"></exp-inquiry-form>`,
        'exp-inquiry-form',
        'form',
      );
      await waitFor(
        () => shadow<HTMLTextAreaElement>(el, '[name="message"]').placeholder === said,
        5000,
        `${about} ${lang}: the placeholder`,
      );
      cleanup();
    }
  });

  it('says what is missing or wrong, in English and in Spanish, before sending anything', async () => {
    const el = await mount(
      `<exp-inquiry-form api-url="${API_URL}" listing-id="${listing.id}"></exp-inquiry-form>`,
      'exp-inquiry-form',
      'form',
    );
    submit(el).click();
    await waitFor(() => shadowAll(el, '[part="field-error"]').length === 2, 3000, 'errors');
    expect(shadowAll(el, '[part="field-error"]').map((e) => e.textContent)).to.deep.equal([
      'Please enter your name.',
      'Please enter your e-mail.',
    ]);
    expect(shadow(el, '[name="name"]').getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot?.activeElement?.getAttribute('name')).to.equal('name');
    await expectAccessible(el);
    type(el, 'name', 'Ana');
    type(el, 'email', 'ana@');
    submit(el).click();
    await waitFor(
      () =>
        shadowAll(el, '[part="field-error"]')
          .map((e) => e.textContent)
          .join() === 'Please enter a valid e-mail address, like name@example.com.',
      3000,
      'e-mail error',
    );
    el.setAttribute('lang', 'es');
    await waitFor(
      () =>
        shadowAll(el, '[part="field-error"]')[0]?.textContent === 'Escribe un correo válido, como nombre@ejemplo.com.',
      3000,
      'Spanish error',
    );
    expect(submit(el).textContent).to.equal('Solicitar información');
    await expectAccessible(el);
  });

  it('shows Sending... while it sends, then the success toast, clears the form and fires exp-inquiry-sent', async () => {
    // a slow network for this element's client (its own api-key gives it its own client)
    const realFetch = window.fetch;
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      await new Promise((r) => setTimeout(r, 400));
      return realFetch(...args);
    };
    try {
      const el = await mount(
        `<exp-inquiry-form api-url="${API_URL}" api-key="slow-${Date.now()}" listing-id="${listing.id}"></exp-inquiry-form>`,
        'exp-inquiry-form',
        'form',
      );
      type(el, 'name', 'Ana Vera');
      type(el, 'email', 'ana.vera@example.com');
      type(el, 'message', 'Quisiera visitarla.');
      const sent = oneEvent<{ id: string; propertyId: string | null }>(el, 'exp-inquiry-sent');
      submit(el).click();
      await waitFor(() => submit(el).textContent === 'Sending...' && submit(el).disabled, 2000, 'sending state');
      const detail = (await sent).detail;
      expect(detail.propertyId).to.equal(String(listing.id));
      expect(detail.id).to.match(/^[0-9a-f-]{36}$/);
      await waitFor(
        () =>
          toasts(el).some(
            (t) =>
              t.includes('Request Sent!') &&
              t.includes("Your property inquiry has been sent to our team. We'll get back to you soon."),
          ),
        3000,
        'success toast',
      );
      expect(shadow<HTMLInputElement>(el, '[name="name"]').value).to.equal('');
      expect(shadow<HTMLInputElement>(el, '[name="email"]').value).to.equal('');
      expect(submit(el).disabled).to.equal(false);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('shows the error toast and keeps what was typed when the inquiry cannot be sent', async () => {
    const el = await mount(
      `<exp-inquiry-form api-url="http://127.0.0.1:9" listing-id="1"></exp-inquiry-form>`,
      'exp-inquiry-form',
      'form',
    );
    type(el, 'name', 'Ana Vera');
    type(el, 'email', 'ana.vera@example.com');
    type(el, 'message', 'Mensaje importante');
    submit(el).click();
    await waitFor(
      () => toasts(el).some((t) => t.includes('Error') && t.includes('Failed to send your request. Please try again.')),
      8000,
      'error toast',
    );
    expect(shadow(el, '[part="inquiry-error"]').getAttribute('role')).to.equal('alert');
    expect(shadow<HTMLInputElement>(el, '[name="name"]').value).to.equal('Ana Vera');
    expect(shadow<HTMLTextAreaElement>(el, '[name="message"]').value).to.equal('Mensaje importante');
    expect(shadow(el, '[part~="toast"]').getAttribute('role')).to.equal('alert');
  });

  it("says so when the function refuses what the form has no field for (an agent's id that is not ours), keeping what was typed", async () => {
    const el = await mount(
      `<exp-inquiry-form api-url="${API_URL}" listing-id="${listing.id}" lead-agent-id="999999999"></exp-inquiry-form>`,
      'exp-inquiry-form',
      'form',
    );
    type(el, 'name', 'Ana Vera');
    type(el, 'email', 'ana.vera@example.com');
    submit(el).click();
    await waitFor(() => el.shadowRoot?.querySelector('[part="inquiry-error"]'), 8000, 'the error in place');
    expect(shadow(el, '[part="inquiry-error"]').getAttribute('role')).to.equal('alert');
    expect(submit(el).disabled).to.equal(false);
    expect(shadow<HTMLInputElement>(el, '[name="name"]').value).to.equal('Ana Vera');
  });

  it('shows the error in Spanish too', async () => {
    const el = await mount(
      `<exp-inquiry-form lang="es" api-url="http://127.0.0.1:9"></exp-inquiry-form>`,
      'exp-inquiry-form',
      'form',
    );
    await sendUntilToast(el, 'No se pudo enviar tu solicitud. Inténtalo de nuevo.');
  });

  it("shows the error when the database is down (the function's 503), and the retry carries the same idempotency key", async () => {
    const realFetch = window.fetch;
    const keys: string[] = [];
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const request = args[0] instanceof Request ? args[0] : new Request(args[0], args[1]);
      if (request.url.includes('/functions/v1/send-property-inquiry') && request.method === 'POST') {
        keys.push(String(((await request.clone().json()) as { idempotencyKey?: string }).idempotencyKey));
        if (keys.length === 1)
          return new Response(JSON.stringify({ error: 'unavailable' }), {
            status: 503,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '10' },
          });
        return realFetch(request);
      }
      return realFetch(...args);
    };
    try {
      const el = await mount(
        `<exp-inquiry-form api-url="${API_URL}" api-key="down-${Date.now()}"></exp-inquiry-form>`,
        'exp-inquiry-form',
        'form',
      );
      await sendUntilToast(el, 'Failed to send your request. Please try again.');
      expect(toasts(el).some((t) => t.includes('Request Sent!'))).to.equal(false);
      expect(shadow<HTMLInputElement>(el, '[name="email"]').value).to.equal('ana@example.com');
      // the visitor tries again: the same inquiry, so the server can never store it twice
      submit(el).click();
      await waitFor(() => toasts(el).some((t) => t.includes('Request Sent!')), 8000, 'success toast');
      expect(keys).to.have.length(2);
      expect(keys[1]).to.equal(keys[0]);
    } finally {
      window.fetch = realFetch;
    }
  });
});
