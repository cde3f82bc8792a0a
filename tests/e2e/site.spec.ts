/**
 * The host site end to end, on the real server and data: every route of docs/product.md §2 (its
 * title, alternates, axe and screenshots at desktop and phone size), the language switch on every
 * page (no English left in Spanish), the header's states and side panel, external links and the
 * footer. Its pages one by one: site-pages.spec.ts; saved listings, the alert mails' pages and the
 * robots: site-saved.spec.ts.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { SITE } from '../../core/site.ts';
import {
  englishOnlyPhrases,
  expect,
  screenshotDir,
  scrolledTo,
  seriousAxeViolations,
  settled,
  sideways,
  test,
  visibleText,
} from './fixtures.ts';
import { nowDate } from '../../core/clock.ts';

const shots = screenshotDir('site');

/** every screen, with something only that screen shows once it is ready */
const ROUTES: Array<{ path: string; name: string; ready: (page: Page) => Promise<void> }> = [
  {
    path: '/',
    name: 'home',
    // the featured listings come as the visitor scrolls to them (loading="lazy")
    ready: async (p) => {
      await scrolledTo(p.locator('exp-featured-listings'));
      await expect(p.locator('exp-featured-listings [part~="card"]').first()).toBeVisible();
    },
  },
  {
    path: '/search-properties',
    name: 'search',
    ready: (p) => expect(p.locator('exp-property-search [part~="card"]').first()).toBeVisible(),
  },
  {
    path: '/findanagent',
    name: 'agents',
    ready: (p) => expect(p.locator('exp-agent-directory [part="agent-card"]').first()).toBeVisible(),
  },
  {
    path: '/findanagent/1',
    name: 'agent',
    ready: (p) => expect(p.locator('exp-agent-profile [part="name"]')).toBeVisible(),
  },
  { path: '/join', name: 'join', ready: (p) => expect(p.locator('#webinar')).toBeAttached() },
  { path: '/about', name: 'about', ready: (p) => expect(p.locator('.people li')).toHaveCount(3) },
  { path: '/buy', name: 'buy', ready: (p) => expect(p.locator('[data-shared="buy"]')).toBeVisible() },
  { path: '/sell', name: 'sell', ready: (p) => expect(p.locator('exp-home-valuation [part="form"]')).toBeVisible() },
  {
    path: '/agent-login',
    name: 'agent-login',
    ready: (p) => expect(p.locator('[data-shared="agentLogin"]')).toBeVisible(),
  },
  {
    path: '/market',
    name: 'market',
    ready: (p) => expect(p.locator('exp-market-report [part="figure"]:not(.market__figure)')).toBeVisible(),
  },
  {
    path: '/market/quito',
    name: 'market-quito',
    ready: (p) => expect(p.locator('exp-market-report [part="figure"]:not(.market__figure)')).toBeVisible(),
  },
  { path: '/saved', name: 'saved', ready: (p) => expect(p.locator('exp-saved-listings [part="empty"]')).toBeVisible() },
  {
    path: '/no/such/page',
    name: '404',
    ready: (p) => expect(p.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible(),
  },
];

function header(page: Page) {
  const el = page.locator('exp-site-header');
  return {
    el,
    bar: el.locator('[part="bar"]'),
    menu: el.locator('[part="menu-button"]'),
    panel: el.locator('dialog[part="panel"]'),
    join: el.locator('[part="join"]'),
  };
}

/** Every link in the page and in the elements' shadow roots. */
async function allLinks(
  page: Page,
): Promise<Array<{ href: string; target: string | null; rel: string | null; text: string }>> {
  return page.evaluate(() => {
    const out: Array<{ href: string; target: string | null; rel: string | null; text: string }> = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const a of root.querySelectorAll('a[href]'))
        out.push({
          href: (a as HTMLAnchorElement).href,
          target: a.getAttribute('target'),
          rel: a.getAttribute('rel'),
          text: (a.textContent ?? '').trim(),
        });
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(document);
    return out;
  });
}

test.describe('the host site', () => {
  for (const route of ROUTES) {
    test(`${route.path}: answers, has its title, description and alternates, no console errors, no serious axe violations, screenshots`, async ({
      page,
      data,
      consoleErrors,
    }) => {
      const response = await page.goto(`${data.url}${route.path}`);
      expect(response?.status()).toBe(route.name === '404' ? 404 : 200);
      await route.ready(page);
      expect(await page.title()).toMatch(/eXp Realty Ecuador/);
      expect((await page.locator('meta[name="description"]').getAttribute('content'))?.length).toBeGreaterThan(40);
      // the shared page, a visitor's own saved listings and the 404 are not pages to index
      if (!['buy', 'agent-login', 'saved', '404'].includes(route.name)) {
        // without SITE_URL the server's own address is the site's
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${data.url}${route.path}`);
        await expect(page.locator('link[rel="alternate"][hreflang="es"]')).toHaveAttribute(
          'href',
          `${data.url}/es${route.path === '/' ? '' : route.path}`,
        );
        await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveCount(1);
      }
      // the footer comes as the visitor scrolls to it (loading="lazy")
      await expect((await scrolledTo(page.locator('exp-site-footer'))).locator('[part="copyright"]')).toContainText(
        `© ${nowDate().getFullYear()} eXp Realty Ecuador`,
      );
      // colours are measured once the page has faded in
      await page.evaluate(() => Promise.all(document.body.getAnimations().map((a) => a.finished)));
      expect(await seriousAxeViolations(page)).toEqual([]);
      for (const [w, h] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await settled(page);
        await page.screenshot({ path: resolve(shots, `${route.name}-${w}.png`) });
        // nothing wider than the window on a phone
        if (w === 390) expect(await sideways(page)).toBeLessThanOrEqual(0);
      }
      // the 404 document itself is the only failed request on the 404 route
      expect(consoleErrors.filter((e) => !(route.name === '404' && /404/.test(e)))).toEqual([]);
    });
  }

  test('every page switches to Spanish and back without a reload, and no English is left', async ({ page, data }) => {
    test.setTimeout(120_000);
    const english = englishOnlyPhrases();
    // what agents wrote about themselves is data, shown as written (María Fernanda's certifications are in English)
    const agentText = JSON.stringify(await data.sql('select * from public.agents where id = 1'));
    for (const route of ROUTES) {
      await page.goto(`${data.url}${route.path}`);
      await route.ready(page);
      await scrolledTo(page.locator('exp-site-footer'));
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      await header(page)
        .el.getByRole('button', { name: /Español/ })
        .click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await expect(page.locator('exp-site-footer [part="copyright"]')).toContainText('Todos los derechos reservados');
      await settled(page);
      const text = await visibleText(page);
      const left = english.filter(
        (phrase) => text.includes(phrase) && !(route.name === 'agent' && agentText.includes(phrase)),
      );
      expect(left, `${route.path} still shows English`).toEqual([]);
      expect(await page.title(), route.path).not.toMatch(
        /Homes and property|Property for sale|Find a real estate|Page not found|Join eXp Realty Ecuador \||About eXp/,
      );
      // no reload happened
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
      await header(page)
        .el.getByRole('button', { name: /English/ })
        .click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.locator('exp-site-footer [part="copyright"]')).toContainText('All rights reserved');
    }
    // the choice persists: a page opened later is taken to its Spanish address
    await header(page)
      .el.getByRole('button', { name: /Español/ })
      .click();
    await page.goto(`${data.url}/about`);
    await expect(page).toHaveURL(`${data.url}/es/about`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acerca de eXp Realty Ecuador');
    await expect(page).toHaveTitle(/Acerca de eXp Realty Ecuador/);
    // and back
    await header(page)
      .el.getByRole('button', { name: /English/ })
      .click();
    await expect(page).toHaveURL(`${data.url}/about`);
    await page.goto(`${data.url}/es/join`);
    await expect(page).toHaveURL(`${data.url}/join`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('the header is transparent at the top and white with a shadow past 20 px; dark on /findanagent', async ({
    page,
    data,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${data.url}/`);
    const h = header(page);
    await expect(h.bar).toHaveAttribute('data-state', 'top');
    expect(await h.bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    await expect(h.join).toHaveAttribute('data-variant', 'light');
    await page.evaluate(() => window.scrollTo(0, 15));
    await settled(page);
    await expect(h.bar).toHaveAttribute('data-state', 'top');
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect(h.bar).toHaveAttribute('data-state', 'scrolled');
    await expect.poll(() => h.bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(await h.bar.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
    await expect(h.join).toHaveAttribute('data-variant', 'dark');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(h.bar).toHaveAttribute('data-state', 'top');

    await page.goto(`${data.url}/findanagent`);
    await expect(h.bar).toHaveAttribute('data-state', 'top');
    await expect(h.join).toHaveAttribute('data-variant', 'dark');
    // the dark logo: its ink is the brand's dark blue, not white
    expect(await h.el.locator('[part="logo"] text').first().getAttribute('fill')).toBe('#0d2c4d');
    // the desktop set: Search Properties, Join, language switch, menu
    await expect(h.el.getByRole('link', { name: 'Search Properties' })).toBeVisible();
    await expect(h.el.getByRole('link', { name: 'Join' })).toBeVisible();
    await expect(h.el.getByRole('group', { name: 'Language' })).toBeVisible();
    await expect(h.menu).toBeVisible();
    // the phone set: no Join in the bar
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(h.el.getByRole('link', { name: 'Join' })).toBeHidden();
    await expect(h.el.getByRole('link', { name: 'Search Properties' })).toBeVisible();
    await expect(h.el.getByRole('group', { name: 'Language' })).toBeVisible();
    await expect(h.menu).toBeVisible();
  });

  test('the side panel opens and closes by mouse and by keyboard, 300 px wide on desktop, three quarters on a phone', async ({
    page,
    data,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${data.url}/about`);
    const h = header(page);
    await h.menu.click();
    await expect(h.panel).toBeVisible();
    expect((await h.panel.boundingBox())?.width).toBeCloseTo(300, 1);
    const links = h.panel.getByRole('link');
    await expect(links).toHaveText([
      'Search Properties',
      'New developments',
      'Find an Agent',
      'Prices per m²',
      'About',
      'Join',
      'Saved',
      /Agent Login/,
    ]);
    await expect(h.panel.getByRole('link', { name: 'New developments' })).toHaveAttribute('href', /\/projects$/);
    await expect(h.panel.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
    const login = h.panel.getByRole('link', { name: /Agent Login/ });
    await expect(login).toHaveAttribute('href', SITE.external.agentLogin);
    await expect(login).toHaveAttribute('target', '_blank');
    await expect(login).toHaveAttribute('rel', /noopener/);
    // close button
    await h.panel.getByRole('button', { name: 'Close the menu' }).click();
    await expect(h.panel).toBeHidden();
    // backdrop
    await h.menu.click();
    await expect(h.panel).toBeVisible();
    await page.mouse.click(100, 400);
    await expect(h.panel).toBeHidden();

    // keyboard: from the top of the page, reach the menu button with Tab, open with Enter, move
    // inside, Escape closes and gives focus back
    await page.goto(`${data.url}/about`);
    await expect(h.menu).toBeVisible();
    await page.keyboard.press('Tab');
    for (let i = 0; i < 12; i++) {
      const onMenu = await h.menu.evaluate(
        (el) => el.getRootNode() instanceof ShadowRoot && (el.getRootNode() as ShadowRoot).activeElement === el,
      );
      if (onMenu) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await expect(h.panel).toBeVisible();
    await page.keyboard.press('Tab');
    const focusedInPanel = await h.panel.evaluate((dialog) =>
      dialog.contains((dialog.getRootNode() as ShadowRoot).activeElement),
    );
    expect(focusedInPanel).toBe(true);
    await page.keyboard.press('Escape');
    await expect(h.panel).toBeHidden();
    expect(await h.menu.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
    // a link of the panel navigates
    await h.menu.click();
    await h.panel.getByRole('link', { name: 'Find an Agent' }).click();
    await expect(page).toHaveURL(/\/findanagent$/);

    await page.setViewportSize({ width: 390, height: 844 });
    await h.menu.click();
    const width = (await h.panel.boundingBox())?.width ?? 0;
    expect(width).toBeGreaterThan(390 * 0.7);
    expect(width).toBeLessThanOrEqual(320);
  });

  test('every external link opens in a new tab without opener; the footer has the office, phone, e-mail and four networks', async ({
    page,
    data,
  }) => {
    const seen = new Set<string>();
    for (const path of ['/', '/join', '/about', '/agent-login', '/findanagent']) {
      await page.goto(`${data.url}${path}`);
      await expect((await scrolledTo(page.locator('exp-site-footer'))).locator('[part="copyright"]')).toBeVisible();
      for (const link of await allLinks(page)) {
        const url = new URL(link.href);
        if (!/^https?:$/.test(url.protocol) || url.origin === new URL(data.url).origin) continue;
        seen.add(url.href);
        expect(link.target, `${link.href} on ${path}`).toBe('_blank');
        expect(link.rel ?? '', `${link.href} on ${path}`).toMatch(/noopener/);
      }
    }
    // every external address of the configuration is linked somewhere (the widget scripts are loaded, not linked)
    const external = Object.entries(SITE.external)
      .filter(([k]) => !/Widget$/.test(k))
      .map(([, v]) => v);
    for (const url of [...external, ...Object.values(SITE.social)]) expect([...seen], url).toContain(new URL(url).href);

    const footer = page.locator('exp-site-footer');
    await expect(footer.locator('[part="contact"]')).toContainText(SITE.office.street);
    await expect(footer.locator('[part="contact"]')).toContainText('Quito');
    await expect(footer.getByRole('link', { name: SITE.phone })).toHaveAttribute(
      'href',
      `tel:${SITE.phone.replace(/[^\d+]/g, '')}`,
    );
    await expect(footer.getByRole('link', { name: SITE.email })).toHaveAttribute('href', `mailto:${SITE.email}`);
    await expect(footer.locator('[part="social-link"]')).toHaveCount(4);
    await expect(footer.getByRole('link', { name: 'Find an Agent' })).toHaveAttribute('href', '/findanagent');
    await expect(footer.getByRole('link', { name: 'New developments' })).toHaveAttribute('href', '/projects');
  });
});
