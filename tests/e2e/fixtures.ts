/**
 * Fixtures of the e2e suite: the real server (npm start's code) over a fresh copy of the seeded
 * PostgreSQL database in each worker, with privileged SQL for the expected answers, and page helpers that see through shadow
 * roots.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test as base, expect, type BrowserContext, type Locator, type Page, type Request } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { SITE_ROUTES } from '../../core/routes.ts';
import { pinSuiteClock, shiftDate } from '../support/suite-clock.mjs';

export const test = base.extend<{ consoleErrors: string[]; pageFaults: void }, { data: TestServer }>({
  // the pages' clock reads the run's instant, as the servers' do (docs/decisions.md #33), running
  // on from there; a test that makes a context of its own sets it with setClock()
  context: async ({ context }, use) => {
    await setClock(context);
    await use(context);
  },
  // in every test, in every page of every context it opened (setClock() follows them): nothing
  // refused by the page's Content-Security-Policy (docs/architecture.md "Security headers"), and no
  // error left uncaught but those the test provoked (failsOnPurpose)
  pageFaults: [
    async ({}, use) => {
      faults.refused.length = 0;
      faults.uncaught.length = 0;
      faults.provoked.length = 0;
      await use();
      expect(faults.refused.splice(0), "what the pages' Content-Security-Policy refused").toEqual([]);
      const provoked = faults.provoked.splice(0);
      expect(
        faults.uncaught.splice(0).filter((e) => !provoked.some((p) => p.test(e))),
        "the pages' uncaught errors",
      ).toEqual([]);
    },
    { auto: true },
  ],
  data: [
    async ({}, use) => {
      const server = await startTestServer('postgres');
      await use(server);
      await server.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  // console errors of the page, except the map tiles this offline machine cannot reach
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      const url = m.location().url;
      if (/tile\.openstreetmap\.org/.test(url) || /ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED/.test(m.text()))
        return;
      errors.push(m.text());
    });
    await use(errors);
  },
});

export { expect };

/**
 * Every kind of page the server answers, once each: the site's own (core/routes.ts SITE_ROUTES), a
 * place's search, an agent's profile, the country's and a city's market, the new developments and
 * one of them, and the 404 (a listing's address comes from the data: listingPath).
 */
export const EVERY_PAGE: readonly string[] = [
  ...SITE_ROUTES.map((r) => r.path),
  '/search-properties/cumbaya',
  '/findanagent/1',
  '/market',
  '/market/quito',
  '/projects',
  '/projects/altos-de-la-carolina',
  '/no-such-page',
];

/** The folder under .cache/screenshots/ where a spec leaves its screenshots for a person to look at (made if missing). */
export function screenshotDir(name: string): string {
  const dir = resolve(import.meta.dirname, '../../.cache/screenshots', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A browser context's clock (its pages' Date) at the run's instant, the servers' clock, running on
 * from there; and its requests followed, for settled().
 */
export async function setClock(context: BrowserContext): Promise<BrowserContext> {
  await context.addInitScript(shiftDate, pinSuiteClock());
  followRequests(context);
  followFaults(context);
  return context;
}

/**
 * The running test's pages' faults, each with the page's address (a worker runs one test at a
 * time): what their Content-Security-Policy refused, as the browser reports it (an error on the
 * page's console naming the directive), and the errors their scripts left uncaught.
 */
const faults = { refused: [] as string[], uncaught: [] as string[], provoked: [] as RegExp[] };

function followFaults(context: BrowserContext): void {
  context.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/.test(m.text()))
      faults.refused.push(`${m.page()?.url() ?? '?'}: ${m.text()}`);
  });
  context.on('weberror', (e) => faults.uncaught.push(`${e.page()?.url() ?? '?'}: ${e.error().message}`));
}

/** A test that makes a page's script fail on purpose names the uncaught error it expects (pageFaults). */
export function failsOnPurpose(error: RegExp): void {
  faults.provoked.push(error);
}

/**
 * The requests of each context's pages not yet answered in full or failed (media streams left out:
 * a looping video's never ends).
 */
const inFlight = new WeakMap<BrowserContext, Set<Request>>();

function followRequests(context: BrowserContext): void {
  if (inFlight.has(context)) return;
  const open = new Set<Request>();
  inFlight.set(context, open);
  // a new document in the tab: what the one before asked for is not waited for (a request cut off
  // with its document, or one a route answers after the page has gone on, reports no end)
  const leaving = new WeakSet<Page>();
  const follow = (page: Page) =>
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame() || !leaving.has(page)) return; // a same-document move (pushState, a hash) keeps them
      leaving.delete(page);
      for (const r of open) if (pageOf(r) === page) open.delete(r);
    });
  context.pages().forEach(follow);
  context.on('page', follow);
  context.on('request', (r) => {
    const page = r.isNavigationRequest() ? pageOf(r) : null;
    if (page && r.frame() === page.mainFrame()) leaving.add(page);
    if (r.resourceType() !== 'media') open.add(r);
  });
  context.on('requestfinished', (r) => open.delete(r));
  context.on('requestfailed', (r) => {
    open.delete(r);
    const page = r.isNavigationRequest() ? pageOf(r) : null;
    if (page && r.frame() === page.mainFrame()) leaving.delete(page); // the tab stays on its document
  });
}

/**
 * A request a test's route has answered or aborted is done, whatever Chromium reports: a routed
 * request is reported once the route has it, and one the document before sent, reported after the
 * tab went on, is never said to end (its document is gone).
 */
export function routed(request: Request): void {
  inFlight.get(request.frame().page().context())?.delete(request);
}

const pageOf = (r: Request): Page | null => {
  try {
    return r.frame().page();
  } catch {
    return null; // a service worker's request has no frame
  }
};

/**
 * Waits until every timer the page has set with a delay of `ms` or less has fired: a page's timers
 * fire in the order they are due (HTML's timer initialisation steps), so one set now for `ms` fires
 * after them on any machine. For what a test finds absent that would come after a wait of the page's own.
 */
export async function timersPast(page: Page, ms: number): Promise<void> {
  await page.evaluate((delay) => new Promise((done) => setTimeout(done, delay)), ms);
}

/** In the page: two frames drawn, then the browser idle (idle callbacks run in the order they were asked for, so every one asked before has run); whether no finite animation is running. */
const QUIET_FRAME = () =>
  new Promise<boolean>((done) =>
    requestAnimationFrame(() =>
      requestAnimationFrame(() =>
        requestIdleCallback(
          () =>
            done(
              document
                .getAnimations()
                .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
            ),
          // a page never idle (a loop of its own) still answers
          { timeout: 2000 },
        ),
      ),
    ),
  );

/** How far the page scrolls sideways at its width: 0 when nothing is wider than the window. */
export async function sideways(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * Waits until what the last step set going has come to rest, on any machine however loaded: no
 * request of the page in flight, no finite animation running, two frames drawn and the browser idle
 * since (a resized window laid out, an observer's, a frame's and an idle callback's work run), twice
 * over with still no request. What a test then finds absent did not come; a fixed wait only hoped
 * so. Work a page puts off with a timer of its own is waited for with timersPast() first.
 */
export async function settled(page: Page): Promise<void> {
  const open = inFlight.get(page.context());
  if (!open) throw new Error('settled() follows the requests of contexts made by the fixture or setClock()');
  const mine = () => [...open].filter((r) => pageOf(r) === page);
  const idle = () => mine().length === 0;
  const quiet = async () => idle() && (await page.evaluate(QUIET_FRAME)) && idle();
  try {
    await expect.poll(async () => (await quiet()) && (await quiet()), { timeout: 20_000 }).toBe(true);
  } catch (error) {
    const left = mine().map((r) => r.url());
    throw new Error(`the page did not settle: ${page.url()}; in flight: ${left.join(', ') || 'nothing'}`, {
      cause: error,
    });
  }
}

/**
 * An element written loading="lazy" (the site's footer and "Recently viewed"; docs/embedding.md "The
 * script") loads when it nears the view, as a visitor scrolls to it: scrolled to, waited for until
 * it is defined, and the page back at its top. Scrolled to again at each look, as a visitor keeps
 * scrolling: the elements above may still be drawing themselves (a directory's 46 cards on a loaded
 * machine) and push it back down, out of reach, after the first scroll.
 */
export async function scrolledTo(locator: Locator): Promise<Locator> {
  await expect
    .poll(() =>
      locator.evaluate((el) => {
        el.scrollIntoView({ block: 'center' });
        return customElements.get(el.localName) !== undefined;
      }),
    )
    .toBe(true);
  await locator.page().evaluate(() => window.scrollTo(0, 0));
  return locator;
}

/** Visible text of the page, shadow roots included. */
export async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walk = (root: Document | ShadowRoot | Element) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    const collect = (root: ParentNode) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const parent = n.parentElement;
        if (!parent || !n.textContent?.trim()) continue;
        const style = getComputedStyle(parent);
        if (
          style.display === 'none' ||
          style.visibility === 'hidden' ||
          parent.closest('.exp-sr-only, script, style, title')
        )
          continue;
        const rect = parent.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) continue;
        parts.push(n.textContent.trim());
      }
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) collect(el.shadowRoot);
    };
    collect(document.body);
    return parts.join('\n');
  });
}

export { englishOnlyPhrases, localeText } from './locale-texts.ts';

const AXE_SOURCE = readFileSync(resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/** axe's serious and critical findings on the page, or within one element (a modal open over the page: what is under it is inert). */
export async function seriousAxeViolations(page: Page, within?: string): Promise<string[]> {
  // what fades in is measured once it has, and what loads once it has come: axe reads a half-faded
  // colour, or a list dimmed while its next page loads (`aria-busy`), as a contrast failure
  await page
    .waitForFunction(
      () => {
        const busy = (root: Document | ShadowRoot): boolean =>
          root.querySelector('[aria-busy="true"]') !== null ||
          [...root.querySelectorAll('*')].some((e) => e.shadowRoot !== null && busy(e.shadowRoot));
        return (
          !busy(document) &&
          document
            .getAnimations()
            .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)
        );
      },
      null,
      {
        timeout: 5000,
      },
    )
    .catch(() => {});
  // evaluated by the test, not added as an inline script: the page's Content-Security-Policy refuses those
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (selector) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{
            violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(selector ? document.querySelector(selector) : document, {
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, within);
}

/** The parts of <exp-property-search> the tests read. */
export function search(page: Page) {
  const el = page.locator('exp-property-search');
  return {
    el,
    heading: el.locator('[part="results-heading"]'),
    results: el.locator('[part="results"]'),
    cards: el.locator('[part~="card"]'),
    dialog: el.locator('dialog[open]'),
    map: el.locator('[part="map"] [data-status]'),
    /** the location box (the selects are comboboxes too) and its suggestions */
    box: el.locator('input[role="combobox"]'),
    list: el.getByRole('listbox'),
  };
}

/** The search page opened, once its first results are counted: the parts of its <exp-property-search>. */
export async function openSearch(page: Page, siteUrl: string) {
  await page.goto(`${siteUrl}/search-properties`);
  const s = search(page);
  await expect(s.heading).toHaveText(/properties/);
  return s;
}

/** The ids of the cards shown, once there are some. */
export async function cardIds(page: Page): Promise<number[]> {
  await expect(search(page).cards.first()).toBeVisible();
  return search(page).cards.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-property-id'))));
}

export { ACTIVE, FOR_RENT, PLACE_TEXT, POOL } from '../support/independent-sql.ts';
/** A count as the elements write it in English. */
export const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Brings an element to the middle of the view before a click: scrolled only as far as needed, it
 * would sit at the bottom edge, where the search's toasts slide in ("N properties found" arrives with
 * the count, when a test clicks next), and a toast arriving as it is clicked takes the click.
 */
export async function centred(locator: Locator): Promise<Locator> {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  return locator;
}

/**
 * The tab an action opens at `url`, as the browser itself reports its tabs (CDP's Target domain):
 * from Playwright 1.62 on, a tab that a middle- or ctrl-click opens is sometimes never reported as
 * a page of its context (microsoft/playwright#42142), though the browser opened it. `close()`
 * closes it.
 */
export async function tabOpenedBy(
  context: BrowserContext,
  action: () => Promise<unknown>,
  url: string,
  timeout = 30_000,
): Promise<{ close(): Promise<void> }> {
  const browser = context.browser();
  if (!browser) throw new Error('tabOpenedBy needs a browser context of a launched browser');
  const cdp = await browser.newBrowserCDPSession();
  type Info = { targetId: string; type: string; url: string };
  const opened = new Promise<Info>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no tab opened at ${url} within ${timeout} ms`)), timeout);
    const seen = ({ targetInfo }: { targetInfo: Info }) => {
      if (targetInfo.type === 'page' && targetInfo.url === url) (clearTimeout(timer), done(targetInfo));
    };
    cdp.on('Target.targetCreated', seen);
    cdp.on('Target.targetInfoChanged', seen);
  });
  try {
    const before = new Set(((await cdp.send('Target.getTargets')).targetInfos as Info[]).map((t) => t.targetId));
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    await action();
    const tab = await opened;
    if (before.has(tab.targetId)) throw new Error(`the page at ${url} was not a new tab`);
    return {
      close: async () => {
        await cdp.send('Target.closeTarget', { targetId: tab.targetId });
        await cdp.detach();
      },
    };
  } catch (error) {
    await cdp.detach().catch(() => {});
    throw error;
  }
}

/** The classes on our elements that have no rule in their compiled utilities (docs/decisions.md #19): a state the build did not see. */
export async function unstyled(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const missing = new Set<string>();
    const roots: ShadowRoot[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*'))
        if (el.shadowRoot && el.tagName.startsWith('EXP-')) (roots.push(el.shadowRoot), walk(el.shadowRoot));
    };
    walk(document);
    for (const root of roots) {
      const sheet = root.adoptedStyleSheets[root.adoptedStyleSheets.length - 1];
      const selectors = new Set<string>();
      const collect = (rules: CSSRuleList) => {
        for (const rule of rules) {
          if (rule instanceof CSSStyleRule)
            for (const m of rule.selectorText.matchAll(/\.((?:\\.|[\w-])+)/g))
              selectors.add((m[1] as string).replace(/\\(.)/g, '$1'));
          else if ('cssRules' in rule) collect((rule as CSSGroupingRule).cssRules);
        }
      };
      if (sheet) collect(sheet.cssRules);
      for (const el of root.querySelectorAll('[class]')) {
        for (const c of el.classList)
          if (!/^(exp-|ol-|line-clamp-)/.test(c) && !selectors.has(c)) missing.add(`${el.tagName.toLowerCase()}.${c}`);
      }
    }
    return [...missing].sort();
  });
}
