/**
 * The host site's pages one by one, end to end on the real server and data: the home's hero, cards,
 * media row and newest listings, the search hero's locations, structured
 * data, join and about, the 404 and shared pages, and the generic error screen.
 */
import type { Page } from '@playwright/test';
import { SITE } from '../../core/site.ts';
import { ACTIVE, expect, failsOnPurpose, fmt, PLACE_TEXT, scrolledTo, test } from './fixtures.ts';

async function jsonLd(page: Page): Promise<Array<Record<string, unknown>>> {
  return page.evaluate(() =>
    [...document.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => JSON.parse(s.textContent ?? 'null') as Record<string, unknown>,
    ),
  );
}

test.describe('the host site: its pages', () => {
  // its heroes' fades and the media row's loop are what these tests look at: as a
  // visitor who has not asked for reduced motion (the suite's default asks for it: playwright.config.ts)
  test.use({ reducedMotion: 'no-preference' });

  test('home: hero with city buttons and fades, the three cards, the media row, 8 newest listings, the social fallback', async ({
    page,
    data,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${data.url}/`);
    const hero = page.locator('.hero--home');
    const heroBox = await hero.boundingBox();
    expect(heroBox?.height).toBeCloseTo(720, -1);
    await expect(hero.getByRole('heading', { level: 1 })).toHaveText('Find your place in Ecuador');
    for (const city of ['Quito', 'Guayaquil', 'Cuenca'])
      await expect(hero.getByRole('link', { name: `Search in ${city}` })).toHaveAttribute(
        'href',
        `/search-properties?city=${city}`,
      );
    // docs/product.md §9: title 0.7 s, subtitle 0.4 s later, buttons at 0.6 s; the page 0.5 s
    const timing = await page.evaluate(() => {
      const of = (sel: string) => {
        const s = getComputedStyle(document.querySelector(sel) as Element);
        return `${s.animationDuration}/${s.animationDelay}`;
      };
      return {
        title: of('.hero--home h1'),
        subtitle: of('.hero--home .hero__subtitle'),
        buttons: of('.hero--home .hero__actions'),
        page: getComputedStyle(document.body).animationDuration,
      };
    });
    expect(timing).toEqual({ title: '0.7s/0s', subtitle: '0.7s/0.4s', buttons: '0.7s/0.6s', page: '0.5s' });
    const cards = page.locator('.card');
    await expect(cards).toHaveCount(3);
    for (const [i, href] of ['/search-properties', '/findanagent', '/about'].entries()) {
      await expect(cards.nth(i).getByRole('link')).toHaveAttribute('href', href);
      expect((await cards.nth(i).boundingBox())?.height).toBe(350);
    }
    // side by side, each card's heading ends, its text starts and its button stands level with the
    // others', whatever the length of its text (the about card's is a line shorter)
    const rows = await cards.evaluateAll((all) =>
      all.map((card) =>
        ['h2', 'p', '.btn'].map((sel) => {
          const box = (card.querySelector(sel) as Element).getBoundingClientRect();
          return Math.round(sel === 'h2' ? box.bottom : box.top);
        }),
      ),
    );
    expect(
      rows.map((r) => r.join(' ')),
      'heading ends, text and button tops',
    ).toEqual(Array(3).fill(rows[0]?.join(' ')));
    // 5 outlets, their names as text (no images), duplicated for the loop; the copy is hidden from assistive technology
    const outlets = [
      'Diario Andino',
      'Revista Costa',
      'Capital Ecuador',
      'Mercado Inmobiliario',
      'Noticias del Pacífico',
    ];
    await expect(page.getByRole('region', { name: 'As featured in' }).getByRole('listitem')).toHaveText(outlets);
    await expect(page.locator('.marquee__list[aria-hidden="true"] li')).toHaveText(outlets);
    await expect(page.locator('.marquee img')).toHaveCount(0);
    expect(await page.locator('.marquee__track').evaluate((el) => getComputedStyle(el).animationName)).toBe(
      'site-marquee',
    );

    // the featured block: the 8 newest active listings, and 'view all'
    const expected = await data.sql<{ id: number }>(
      `select id from public.listings where ${ACTIVE} order by created_at desc limit 8`,
    );
    const featured = await scrolledTo(page.locator('exp-featured-listings'));
    await expect(featured.locator('[part~="card"]')).toHaveCount(8);
    const ids = await featured
      .locator('[part~="card"]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-property-id'))));
    expect(ids).toEqual(expected.map((r) => Number(r.id)));
    await expect(featured.locator('[part="view-all"]')).toHaveAttribute('href', '/search-properties');
    await featured.locator('[part~="card"] .exp-card-link').first().click();
    await expect(featured.locator('dialog[open]')).toBeVisible();
    await page.keyboard.press('Escape');

    // the social feed: the vendor's script cannot load here, so the fallback shows
    await page.locator('[data-social-feed]').scrollIntoViewIfNeeded();
    await expect(page.locator('[data-social-feed]')).toHaveAttribute('data-state', 'error', { timeout: 15_000 });
    await expect(page.locator('[data-feed-status]')).toHaveText('Social feed temporarily unavailable');
    await expect(page.locator('script[src="' + SITE.external.socialWidget + '"]')).toHaveCount(1);
    await expect(page.locator('.fullscreen h2')).toHaveText('eXp Realty, now in Ecuador');
    await expect(page.locator('.quotes li')).toHaveCount(3);
    await expect(page.locator('.places a')).toHaveCount(6);

    // the about card's link scrolls to the top smoothly as it leaves
    await page.evaluate(() => window.scrollTo(0, 900));
    await cards.nth(2).getByRole('link').click();
    await expect(page).toHaveURL(/\/about$/);
  });

  test('search hero: a known place in the path or ?location= names the hero and presets the city; others keep the default', async ({
    page,
    data,
  }) => {
    const count = async (fold: string) =>
      Number(
        (
          await data.sql<{ n: number }>(
            `select count(*) as n from public.listings where ${ACTIVE} and ${PLACE_TEXT} like $1`,
            [`%${fold}%`],
          )
        )[0]?.n,
      );
    const heading = page.locator('exp-property-search [part="results-heading"]');

    await page.goto(`${data.url}/search-properties/cumbaya`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Properties for sale in Cumbayá');
    await expect(page.locator('[data-hero-subtitle]')).toHaveText(/Quito's sunny valley/);
    // one hero (core/search-hero.ts): what the server wrote, as a crawler reads it, is what the page script makes of the place
    const raw = await (await page.request.get(`${data.url}/search-properties/cumbaya`)).text();
    const heroes = await page.evaluate((html) => {
      const of = (d: Document) => {
        const h = d.querySelector('[data-search-hero]');
        const text = (sel: string) => [
          h?.querySelector(sel)?.getAttribute('data-i18n'),
          h?.querySelector(sel)?.getAttribute('data-i18n-params'),
          h?.querySelector(sel)?.textContent,
        ];
        return {
          title: text('h1'),
          subtitle: text('[data-hero-subtitle]'),
          market: [
            ...text('[data-market-link]'),
            h?.querySelector('[data-market-link]')?.getAttribute('href'),
            h?.querySelector<HTMLElement>('[data-hero-market]')?.hidden,
          ],
          film: [
            h?.querySelector('img[data-video]')?.getAttribute('data-video'),
            h?.querySelector('img[data-video]')?.getAttribute('src'),
          ],
          head: [
            ...d.head.querySelectorAll(
              'title, meta[name="description"], meta[property="og:title"], meta[property="og:description"]',
            ),
          ].map((m) => [
            m.getAttribute('data-i18n') ?? m.getAttribute('data-i18n-attr'),
            m.getAttribute('data-i18n-params'),
            m.textContent || m.getAttribute('content'),
          ]),
        };
      };
      return { server: of(new DOMParser().parseFromString(html, 'text/html')), script: of(document) };
    }, raw);
    expect(heroes.server).toEqual(heroes.script);
    expect(heroes.server.market).toEqual([
      'site.search.hero.market',
      '{"location":{"$t":"site.locations.cumbaya.name"}}',
      'Prices per m² in Cumbayá',
      '/market/cumbaya',
      false,
    ]);
    expect(heroes.server.head.map(([, , text]) => text)).toEqual([
      'Property for sale in Cumbayá | eXp Realty Ecuador',
      expect.stringMatching(/^Every active listing in Cumbayá /),
      'Property for sale in Cumbayá | eXp Realty Ecuador',
      expect.stringMatching(/^Every active listing in Cumbayá /),
    ]);
    await expect(heading).toHaveText(`${fmt(await count('cumbaya'))} properties`);
    await expect(page.locator('exp-property-search').getByLabel('Location')).toHaveValue('Cumbayá');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${data.url}/search-properties/cumbaya`,
    );
    // in Spanish too
    await page
      .locator('exp-site-header')
      .getByRole('button', { name: /Español/ })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Propiedades en venta en Cumbayá');
    await expect(page.locator('[data-hero-subtitle]')).toHaveText(/El valle soleado de Quito/);
    await expect(page).toHaveTitle('Propiedades en venta en Cumbayá | eXp Realty Ecuador');
    // the address and the canonical link follow to the Spanish twin
    await expect(page).toHaveURL(`${data.url}/es/search-properties/cumbaya`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${data.url}/es/search-properties/cumbaya`,
    );
    await page
      .locator('exp-site-header')
      .getByRole('button', { name: /English/ })
      .click();

    await page.goto(`${data.url}/search-properties?location=point-loma`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Properties for sale in Point Loma');
    await expect(heading).toHaveText(`${fmt(await count(''))} properties`);

    await page.goto(`${data.url}/search-properties?city=Guayaquil`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Properties for sale in Guayaquil');
    // the hero follows the next search
    const s = page.locator('exp-property-search');
    await s.getByLabel('Location').fill('Cuenca');
    await s.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Properties for sale in Cuenca');
    await expect(page).toHaveTitle('Property for sale in Cuenca | eXp Realty Ecuador');
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute(
      'content',
      /^Every active listing in Cuenca /,
    );
    await s.getByLabel('Location').fill('');
    await s.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Properties for sale in Ecuador');
    await expect(page).toHaveTitle('Property for sale in Ecuador | eXp Realty Ecuador');

    await page.goto(`${data.url}/search-properties?location=atlantis`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Properties for sale in Ecuador');
    await expect(page.locator('[data-hero-subtitle]')).toHaveText(/from the Andes to the Pacific coast/);
    // a slug that is no place is no page (docs/decisions.md #24); another spelling of one is its page
    const response = await page.goto(`${data.url}/search-properties/nowhere-in-particular`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await page.goto(`${data.url}/search-properties/Cumbay%C3%A1`);
    await expect(page).toHaveURL(`${data.url}/search-properties/cumbaya`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Properties for sale in Cumbayá');
  });

  test('structured data: the search describes the listings shown; a profile describes the agent and names the page', async ({
    page,
    data,
  }) => {
    // the page carries its first answer: the element asks for neither the count nor the page
    const asked: string[] = [];
    const builders: string[] = [];
    page.on('request', (r) => {
      if (/\/rpc\/search_listings(_count)?\b/.test(r.url())) asked.push(r.url());
    });
    // the JSON-LD builders' chunk (core/protocol/structured-data.ts), told by what it holds
    page.on('response', async (r) => {
      if (/\/chunks\/structured-data-[\w-]+\.js$/.test(r.url()) && (await r.text()).includes('https://schema.org'))
        builders.push(r.url());
    });
    const listLd = page.locator('exp-property-search > script[data-exp-structured-data]');
    await page.goto(`${data.url}/search-properties`);
    await expect(page.locator('exp-property-search [part~="card"]').first()).toBeVisible();
    expect(asked).toEqual([]);
    // nor does it make the list's JSON-LD again: the server's is kept as it came (no builders downloaded)
    const served = /<script type="application\/ld\+json" data-exp-structured-data="">(.*?)<\/script>/s.exec(
      await (await page.request.get(`${data.url}/search-properties`)).text(),
    )?.[1];
    expect(served).toBeTruthy();
    expect((await listLd.textContent()) === served, 'the JSON-LD is the one the server wrote').toBe(true);
    expect(builders).toEqual([]);
    // the list the server wrote (the JSON-LD with it) is the element's first page, and once it has drawn
    // its own, only the element's shows: one JSON-LD, the one the server wrote and the element keeps
    await expect(page.locator('exp-property-search .search-list')).toBeHidden();
    const tiles = await page
      .locator('exp-property-search .listing-tile__link')
      .evaluateAll((els) => els.map((a) => /\/properties\/(\d+)-/.exec(a.getAttribute('href') ?? '')?.[1]));
    const cards = await page
      .locator('exp-property-search [part~="card"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-property-id')));
    expect(tiles).toHaveLength(24);
    expect(cards).toEqual(tiles);
    await expect.poll(async () => (await jsonLd(page)).length).toBe(1);
    // another order is asked for
    await page.locator('exp-property-search [part="results"] select').selectOption('price_asc');
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    // the element describes that list itself (the builders downloaded now)
    await expect.poll(async () => (await listLd.textContent()) !== served && builders.length).toBeGreaterThan(0);
    await page.locator('exp-property-search [part="results"] select').selectOption('featured');
    await expect
      .poll(() =>
        page
          .locator('exp-property-search [part~="card"]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-property-id'))),
      )
      .toEqual(tiles);
    // the element's own JSON-LD of the same page (written after another order) is the server's, to the character
    await expect
      .poll(async () => (await listLd.textContent()) === served, { message: "the element's JSON-LD is the server's" })
      .toBe(true);
    const [list] = await jsonLd(page);
    expect(list?.['@type']).toBe('ItemList');
    const items = list?.itemListElement as Array<{ position: number; item: Record<string, unknown> }>;
    expect(items).toHaveLength(24);
    const firstId = await page.locator('exp-property-search [part~="card"]').first().getAttribute('data-property-id');
    const [row] = await data.sql<{ title: string; price: number }>(
      'select title, price from public.listings where id = $1',
      [firstId],
    );
    expect(items[0]?.item).toMatchObject({
      '@type': 'RealEstateListing',
      name: row?.title,
      offers: { price: Number(row?.price), priceCurrency: 'USD' },
    });
    expect(String(items[0]?.item.url)).toMatch(new RegExp(`^${data.url}/properties/${firstId}-[a-z0-9-]+$`));

    await page.goto(`${data.url}/findanagent/2`);
    await expect(page.locator('exp-agent-profile [part="name"]')).toBeVisible();
    await expect.poll(async () => (await jsonLd(page))[0]?.['@type']).toBe('Person');
    const [agent] = await jsonLd(page);
    const [a] = await data.sql<{ first_name: string; last_name: string; email: string }>(
      'select first_name, last_name, email from public.agents where id = 2',
    );
    expect(agent).toMatchObject({
      name: `${a?.first_name} ${a?.last_name}`,
      email: a?.email,
      jobTitle: 'Real estate agent',
      worksFor: { '@type': 'RealEstateAgent', name: SITE.name },
    });
    await expect(page).toHaveTitle(`${a?.first_name} ${a?.last_name}, real estate agent | eXp Realty Ecuador`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${data.url}/findanagent/2`);

    // an unknown agent: the not-found state, no structured data
    await page.goto(`${data.url}/findanagent/9999`);
    await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to agent search' })).toHaveAttribute('href', '/findanagent');
    expect(await jsonLd(page)).toEqual([]);
  });

  test('join and about: webinar sign-up link, two external join buttons, campus button, leadership, 27 countries', async ({
    page,
    data,
  }) => {
    await page.goto(`${data.url}/join`);
    const signup = page.locator('#webinar').getByRole('link', { name: /Sign up for the webinar/ });
    await expect(signup).toHaveAttribute('href', SITE.external.webinar);
    await expect(page.locator('.cta').getByRole('link')).toHaveCount(2);
    await expect(page.locator('.cta').getByRole('link', { name: /Join eXp Ecuador/ })).toHaveAttribute(
      'href',
      SITE.external.join,
    );
    await expect(page.locator('.cta').getByRole('link', { name: /Join eXp International/ })).toHaveAttribute(
      'href',
      SITE.external.joinInternational,
    );
    await expect(page.locator('.grid-3').first().locator('li')).toHaveCount(6);
    // the webinar card cannot load offline: its slot stays out of the way, the link stays
    await page.locator('#webinar').scrollIntoViewIfNeeded();
    await expect(page.locator('[data-webinar-widget]')).toBeHidden({ timeout: 15_000 });
    await expect(signup).toBeVisible();

    await page.goto(`${data.url}/about`);
    await expect(page.getByText('More than 27 countries', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: /open 24 hours a day, 5 days a week/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Visit the campus/ })).toHaveAttribute('href', SITE.external.campus);
    await expect(page.locator('.people')).toContainText('Managing Director, Ecuador');
    await expect(page.locator('.people')).toContainText('Managing Director, International');
    await expect(page.locator('.people')).toContainText('Managing Director, Central America and the Caribbean');
  });

  test('404 and shared page: the unknown path is logged, Return to Home goes home; /buy and /agent-login share one page', async ({
    page,
    data,
  }) => {
    const logged: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && logged.push(m.text()));
    const response = await page.goto(`${data.url}/definitely-not-here?x=1`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await expect.poll(() => logged.join('\n')).toContain('/definitely-not-here');
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(`${data.url}/`);

    for (const [path, title] of [
      ['/buy', 'Buy a property in Ecuador'],
      ['/agent-login', 'Agent login'],
    ] as const) {
      await page.goto(`${data.url}${path}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page).toHaveTitle(`${title} | eXp Realty Ecuador`);
      await expect(page.locator('main .message:visible')).toHaveCount(1);
    }
    await expect(page.getByRole('link', { name: /Go to the agent login/ })).toHaveAttribute(
      'href',
      SITE.external.agentLogin,
    );
  });

  test('the generic error screen shows when a page script fails, in the page language, and Reload Page reloads', async ({
    page,
    data,
  }) => {
    let fail = true;
    await page.route(/\/assets\/site-[\w-]+\.js$/, (route) =>
      fail ? route.fulfill({ status: 500, body: 'broken' }) : route.continue(),
    );
    await page.goto(`${data.url}/about?lang=es`);
    const screen = page.getByRole('alertdialog');
    await expect(screen).toBeVisible();
    await expect(screen.getByRole('heading')).toHaveText('Algo salió mal');
    await expect(screen).toContainText('Lo sentimos, ocurrió algo inesperado.');
    // over the whole window, styled under the page's Content-Security-Policy
    const view = page.viewportSize();
    expect(await screen.boundingBox()).toEqual({ x: 0, y: 0, width: view?.width, height: view?.height });
    await expect(screen.getByRole('button', { name: 'Recargar página' })).toHaveCSS('border-radius', '999px');
    fail = false;
    await screen.getByRole('button', { name: 'Recargar página' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acerca de eXp Realty Ecuador');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    // a script of the page that throws
    failsOnPurpose(/: boom$/);
    await page.route(/\/assets\/site-[\w-]+\.js$/, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'throw new Error("boom")' }),
    );
    await page.goto(`${data.url}/join`);
    await expect(page.getByRole('alertdialog').getByRole('heading')).toHaveText('Something went wrong');
    await expect(page.getByRole('alertdialog').getByRole('button', { name: 'Reload Page' })).toBeFocused();
  });
});
