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
import type { AgentRecord } from '../../core/protocol/records.ts';
import { fold } from '../../core/protocol/text.ts';

type AgentRow = AgentRecord;

async function api<T>(path: string): Promise<T> {
  return (await fetch(`${API_URL}/rest/v1/${path}`)).json() as Promise<T>;
}

const names = (el: Element) => shadowAll(el, '[part="agent-card"]').map((c) => c.textContent?.trim() ?? '');
const count = (el: Element) => shadow(el, '[part="count"]').textContent ?? '';
const fullName = (a: AgentRow) => [a.first_name?.trim(), a.last_name?.trim()].filter(Boolean).join(' ');

async function searchFor(el: Element, text: string, how: 'enter' | 'button') {
  const input = shadow<HTMLInputElement>(el, 'input[type="search"]');
  input.focus();
  input.select();
  await sendKeys({ press: 'Control+A' });
  await sendKeys({ press: 'Backspace' });
  if (text) await sendKeys({ type: text });
  // the search's own request followed: done when it is answered and the count no longer says "Loading..."
  const realFetch = window.fetch;
  const answers: Promise<unknown>[] = [];
  window.fetch = (...args: Parameters<typeof fetch>) => {
    const answer = realFetch(...args);
    answers.push(answer.then((res) => res.clone().text()).catch(() => undefined));
    return answer;
  };
  try {
    if (how === 'enter') await sendKeys({ press: 'Enter' });
    else shadow<HTMLButtonElement>(el, '[part="search-button"]').click();
    await waitFor(() => answers.length > 0, 8000, 'the search asked');
    await Promise.all(answers);
  } finally {
    window.fetch = realFetch;
  }
  await waitFor(() => count(el) !== 'Loading...', 8000, 'search done');
}

describe('<exp-agent-directory>', () => {
  let all: AgentRow[];
  before(async () => {
    await loadBundle();
    all = await api<AgentRow[]>(
      'agents?select=id,first_name,last_name,email,phone,picture&country_code=eq.EC&order=id',
    );
  });
  afterEach(cleanup);

  it('loads every EC agent on entry: the count, photos and names', async () => {
    const el = await mount(
      `<exp-agent-directory api-url="${API_URL}"></exp-agent-directory>`,
      'exp-agent-directory',
      '[part="count"]',
    );
    await waitFor(() => names(el).length === all.length, 8000, 'all agents');
    expect(count(el)).to.equal(`${all.length} featured agents`);
    expect(shadow(el, '[part="title"]').textContent).to.equal('Find an Agent');
    expect(shadow<HTMLInputElement>(el, 'input[type="search"]').placeholder).to.equal('Search agents by name or email');
    expect(names(el)[0]).to.equal(fullName(all[0] as AgentRow));
    // no picture, or only spaces: the placeholder; a padded URL is trimmed and shown
    const cards = shadowAll(el, '[part="agent-card"]');
    const noPicture = all.findIndex((a) => !a.picture?.trim());
    expect(cards[noPicture]?.querySelector('[part="agent-placeholder"]')).to.not.equal(null);
    const padded = all.findIndex((a) => a.picture && a.picture !== a.picture.trim() && a.picture.trim());
    expect(cards[padded]?.querySelector('img')?.getAttribute('src')).to.equal(
      new URL(all[padded]?.picture?.trim() ?? '', API_URL).href,
    );
    await expectAccessible(el);
  });

  it('on a phone, the cards of a row are as high as each other when one name takes two lines', async () => {
    const el = await mount(
      `<exp-agent-directory api-url="${API_URL}" style="width:340px"></exp-agent-directory>`,
      'exp-agent-directory',
      '[part="count"]',
    );
    await waitFor(() => names(el).length === all.length, 8000, 'all agents');
    // laid out, each of them (the cards far below the screen are skipped until seen)
    for (const li of shadowAll(el, 'li.exp-offscreen-agent')) li.style.contentVisibility = 'visible';
    const rows = new Map<number, Array<{ card: number; name: number }>>();
    for (const card of shadowAll(el, '[part="agent-card"]')) {
      const box = card.getBoundingClientRect();
      const name = (card.querySelector('.font-semibold') as HTMLElement).getBoundingClientRect().height;
      rows.set(Math.round(box.top), [...(rows.get(Math.round(box.top)) ?? []), { card: Math.round(box.height), name }]);
    }
    const uneven = [...rows.values()].filter((row) => new Set(row.map((c) => c.name)).size > 1);
    expect(uneven.length, 'rows whose names take more lines in one card than the other').to.be.above(0);
    for (const row of rows.values()) expect(new Set(row.map((c) => c.card)).size, JSON.stringify(row)).to.equal(1);
  });

  it('with max="8": the first 8 agents under the whole count, and "Show all agents" shows the rest; a search starts short again', async () => {
    const el = await mount(
      `<exp-agent-directory api-url="${API_URL}" max="8"></exp-agent-directory>`,
      'exp-agent-directory',
      '[part="count"]',
    );
    await waitFor(() => count(el) === `${all.length} featured agents`, 8000, 'the count');
    expect(names(el)).to.deep.equal(all.slice(0, 8).map(fullName));
    shadow<HTMLButtonElement>(el, '[part="show-all"]').click();
    await waitFor(() => names(el).length === all.length, 8000, 'all agents');
    expect(shadowAll(el, '[part="show-all"]')).to.have.length(0);
    await searchFor(el, 'a', 'button');
    const found = Number(/^(\d+)/.exec(count(el))?.[1]);
    expect(found).to.be.greaterThan(8);
    expect(names(el)).to.have.length(8);
  });

  it('searches first name, last name and e-mail in any case, with or without accents, by Enter or the button', async () => {
    const el = await mount(
      `<exp-agent-directory api-url="${API_URL}"></exp-agent-directory>`,
      'exp-agent-directory',
      '[part="count"]',
    );
    await waitFor(() => names(el).length === all.length, 8000, 'all agents');
    const expected = (q: string) =>
      all
        .filter((a) => [a.first_name, a.last_name, a.email].some((f) => fold(f ?? '').includes(fold(q))))
        .map(fullName);
    for (const [q, how] of [
      ['andres', 'enter'],
      ['ANDRÉS', 'button'],
      ['villacis', 'enter'],
      ['MENDO', 'button'],
      ['maria.andrade@', 'enter'],
    ] as const) {
      await searchFor(el, q, how);
      expect(names(el), q).to.deep.equal(expected(q));
      expect(names(el).length, q).to.be.greaterThan(0);
    }
    await searchFor(el, 'Ana, (Q).%_"\\', 'enter');
    expect(count(el)).to.equal('0 featured agents');
    expect(shadow(el, '[part="empty"]').textContent).to.equal('No agents match your search.');
    await searchFor(el, '', 'button');
    expect(names(el)).to.have.length(all.length);
  });

  it("opens an agent's contacts: tel and mailto links, Call and E-mail, and the profile link", async () => {
    const el = await mount(
      `<exp-agent-directory api-url="${API_URL}" profile-url="/agents/{id}"></exp-agent-directory>`,
      'exp-agent-directory',
      '[part="count"]',
    );
    await waitFor(() => names(el).length === all.length, 8000, 'all agents');
    const agent = all[1] as AgentRow;
    const opened = oneEvent<{ id: string }>(el, 'exp-agent-open');
    (shadowAll(el, '[part="agent-card"]')[1] as HTMLButtonElement).click();
    expect((await opened).detail.id).to.equal(String(agent.id));
    const dialog = await waitFor(() => el.shadowRoot?.querySelector('dialog[open]'), 4000, 'dialog');
    expect(dialog.querySelector('h2')?.textContent).to.equal(fullName(agent));
    const links = [...dialog.querySelectorAll('a')].map((a) => [a.textContent?.trim(), a.getAttribute('href')]);
    const tel = `tel:${agent.phone?.replace(/[^\d+]/g, '')}`;
    expect(links).to.deep.include([agent.phone, tel]);
    expect(links).to.deep.include([agent.email, `mailto:${agent.email}`]);
    expect(links).to.deep.include(['Call', tel]);
    expect(links).to.deep.include(['E-mail', `mailto:${agent.email}`]);
    expect(links).to.deep.include(['View full profile', `/agents/${agent.id}`]);
    await expectAccessible(el);
  });

  it('shows an empty list when the agents cannot be read (logged)', () =>
    withLoggedErrors(async (logged) => {
      const el = await mount(
        `<exp-agent-directory api-url="http://127.0.0.1:9"></exp-agent-directory>`,
        'exp-agent-directory',
        '[part="count"]',
      );
      await waitFor(() => el.shadowRoot?.querySelector('[part="empty"]'), 8000, 'empty');
      expect(count(el)).to.equal('0 featured agents');
      expect(logged.length).to.be.greaterThan(0);
    }));

  it('speaks Spanish', async () => {
    const el = await mount(
      `<exp-agent-directory lang="es" api-url="${API_URL}"></exp-agent-directory>`,
      'exp-agent-directory',
      '[part="count"]',
    );
    await waitFor(() => count(el) === `${all.length} agentes destacados`, 8000, 'Spanish count');
    expect(shadow(el, '[part="title"]').textContent).to.equal('Encuentra un agente');
    expect(shadow<HTMLInputElement>(el, 'input[type="search"]').placeholder).to.equal(
      'Buscar agentes por nombre o correo',
    );
  });
});

describe('<exp-agent-profile>', () => {
  before(async () => {
    await loadBundle();
  });
  afterEach(cleanup);

  it('shows each of the 6 sample agents with every section and their active listings', async () => {
    const samples = await api<Array<Record<string, unknown>>>(
      'agents?select=id,first_name,last_name,email,phone,about,languages,specializations,certifications,locations_served,website,facebook,instagram,linkedin&id=lte.6&order=id',
    );
    expect(samples).to.have.length(6);
    let rented = 0;
    for (const a of samples) {
      const el = await mount(
        `<exp-agent-profile api-url="${API_URL}" agent-id="${a.id}"></exp-agent-profile>`,
        'exp-agent-profile',
        '[part="name"]',
      );
      expect(shadow(el, '[part="name"]').textContent).to.equal(`${a.first_name} ${a.last_name}`);
      const text = shadow(el, '[part="profile"]').textContent ?? '';
      expect(text).to.contain(String(a.about));
      expect(text).to.contain((a.languages as string[]).join(', '));
      for (const s of a.specializations as string[]) expect(text).to.contain(s);
      expect(text).to.contain((a.certifications as string[]).join(' / '));
      expect(text).to.contain((a.locations_served as string[]).join('; '));
      const links = shadowAll<HTMLAnchorElement>(el, '[part="social-link"]').map((l) => l.href);
      const expectedLinks = ['website', 'facebook', 'instagram', 'linkedin']
        .map((k) => a[k])
        .filter((u): u is string => typeof u === 'string' && /^https?:/.test(u));
      expect(links.map((u) => u.replace(/\/$/, ''))).to.deep.equal(expectedLinks.map((u) => u.replace(/\/$/, '')));
      for (const l of shadowAll<HTMLAnchorElement>(el, '[part="social-link"]')) expect(l.target).to.equal('_blank');
      const count = async (operation: string) =>
        Number(
          (
            await fetch(
              `${API_URL}/rest/v1/listings?select=id&agent_id=eq.${a.id}&country_code=eq.EC&status=eq.1&operation=eq.${operation}`,
              {
                method: 'HEAD',
                headers: { Prefer: 'count=exact' },
              },
            )
          ).headers
            .get('content-range')
            ?.split('/')[1],
        );
      const total = await count('sale');
      await waitFor(
        () => shadow(el, '[part="listings"] h2').textContent?.startsWith(`${total} listing`),
        8000,
        `listings of agent ${a.id}`,
      );
      expect(shadowAll(el, '[part="listings"] [part~="card"]').length).to.equal(Math.min(24, total));
      // the agent's homes for rent, in a section of their own when there are some (docs/product.md "Rent and buy")
      const rentals = await count('rent');
      if (rentals) {
        await waitFor(
          () => shadowAll(el, '[part="rentals"] h2')[0]?.textContent?.startsWith(`${rentals} home`),
          8000,
          `rentals of agent ${a.id}`,
        );
        for (const card of shadowAll(el, '[part="rentals"] [part~="card"]'))
          expect(card.querySelector('[part="card-price"]')?.textContent).to.match(/\/month/);
      } else expect(shadowAll(el, '[part="rentals"]')).to.have.length(0);
      rented += rentals;
      expect(shadow<HTMLAnchorElement>(el, '[part="return-link"]').getAttribute('href')).to.equal('/findanagent');
      cleanup();
    }
    // the seed's agents rent homes too
    expect(rented).to.be.greaterThan(0);
  });

  it("'Contact Agent' sends an inquiry addressed to the agent", async () => {
    const el = await mount(
      `<exp-agent-profile api-url="${API_URL}" agent-id="3"></exp-agent-profile>`,
      'exp-agent-profile',
      '[part="contact-button"]',
    );
    shadow<HTMLButtonElement>(el, '[part="contact-button"]').click();
    const dialog = await waitFor(() => el.shadowRoot?.querySelector('dialog[open] form'), 4000, 'contact form');
    const set = (name: string, value: string) => {
      const input = dialog.querySelector(`[name="${name}"]`) as HTMLInputElement;
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')?.set?.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    set('name', 'Pedro Páez');
    set('email', 'pedro@example.com');
    set('message', 'Busco casa en Cuenca.');
    const sent = oneEvent<{ agentId: string | null; propertyId: string | null }>(el, 'exp-inquiry-sent');
    (dialog.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    expect((await sent).detail).to.include({ agentId: '3', propertyId: null });
    await waitFor(() => !el.shadowRoot?.querySelector('dialog[open]'), 4000, 'dialog closed');
    await waitFor(
      () => shadowAll(el, '[part~="toast"]').some((t) => t.textContent?.includes('Request Sent!')),
      4000,
      'toast',
    );
  });

  it('wraps an agent’s e-mail after its "@" in a narrow box, not inside its name or its domain', async () => {
    const el = await mount(
      `<exp-agent-profile api-url="${API_URL}" agent-id="1" style="width:230px"></exp-agent-profile>`,
      'exp-agent-profile',
      '[part="name"]',
    );
    const link = shadow<HTMLAnchorElement>(el, 'a[href^="mailto:"]');
    expect(link.textContent).to.equal(link.getAttribute('href')?.slice('mailto:'.length));
    const lines = (node: Node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    expect(lines(link), 'the address wraps in 230 px').to.be.above(1);
    const words = [...link.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
    expect(
      words.map((n) => n.textContent),
      'the name and the domain',
    ).to.deep.equal(link.textContent?.replace('@', '@\n').split('\n'));
    for (const word of words) expect(lines(word), `"${word.textContent}" on one line`).to.equal(1);
  });

  it("opens one of the agent's listings", async () => {
    const el = await mount(
      `<exp-agent-profile api-url="${API_URL}" agent-id="2"></exp-agent-profile>`,
      'exp-agent-profile',
      '[part="name"]',
    );
    const link = await waitFor(
      () => el.shadowRoot?.querySelector<HTMLButtonElement>('[part="listings"] .exp-card-link'),
      8000,
      'a listing',
    );
    const title = link.textContent;
    link.click();
    const dialog = await waitFor(() => el.shadowRoot?.querySelector('dialog[open] h2'), 8000, 'detail');
    expect(dialog.textContent).to.equal(title);
    await expectAccessible(el);
  });

  it("shows 'Agent not found' with a way back for an unknown id, a foreign agent or a malformed id", async () => {
    const [foreign] = await api<Array<{ id: number }>>('agents?select=id&country_code=neq.EC&limit=1');
    for (const id of ['999999', String(foreign?.id), 'abc', '']) {
      const el = await mount(
        `<exp-agent-profile api-url="${API_URL}" agent-id="${id}" directory-url="/agents"></exp-agent-profile>`,
        'exp-agent-profile',
        '[part="not-found"]',
      );
      expect(shadow(el, '[part="not-found"] h2').textContent).to.equal('Agent not found');
      expect(shadow(el, '[part="back-link"]').textContent).to.equal('Back to agent search');
      expect(shadow(el, '[part="back-link"]').getAttribute('href')).to.equal('/agents');
      cleanup();
    }
  });

  it('speaks Spanish and has no serious accessibility violations', async () => {
    const el = await mount(
      `<exp-agent-profile lang="es" api-url="${API_URL}" agent-id="1"></exp-agent-profile>`,
      'exp-agent-profile',
      '[part="name"]',
    );
    expect(shadow(el, '[part="contact-button"]').textContent).to.equal('Contactar al agente');
    expect(shadow(el, '[part="return-link"]').textContent).to.equal('Volver a la búsqueda');
    await expectAccessible(el);
  });
});
