/** Helpers for browser tests of the built bundle (dist/widgets), run by @web/test-runner. */
import { expect } from '@esm-bundle/chai';
import type axeCore from 'axe-core';

/** the widgets as built for visitors, plus the map's test hooks (vite.config.ts, mode test-widgets) */
export const BUNDLE_URL = new URL('/dist/test-widgets/exp-widgets.js', location.origin).href;
export const SINGLE_FILE_URL = new URL('/dist/widgets/exp-widgets.bundle.js', location.origin).href;

export async function loadBundle(url = BUNDLE_URL): Promise<void> {
  await import(/* @vite-ignore */ url);
}

export async function waitFor<T>(
  probe: () => T | undefined | null | false,
  timeout = 8000,
  what = 'condition',
): Promise<T> {
  const until = performance.now() + timeout;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Puts HTML in a fresh container and waits until the element has rendered its shadow content. */
export async function mount<K extends keyof HTMLElementTagNameMap>(
  html: string,
  tag: K,
  ready = '[part~="root"]',
): Promise<HTMLElementTagNameMap[K]> {
  const box = document.createElement('div');
  box.className = 'test-box';
  box.innerHTML = html;
  document.body.append(box);
  const el = await waitFor(
    () => box.querySelector(tag) ?? (box.firstElementChild?.localName === tag ? box.firstElementChild : null),
    2000,
    `<${tag}> in the DOM`,
  );
  try {
    await waitFor(() => el.shadowRoot?.querySelector(ready), 8000, `<${tag}> to render ${ready}`);
  } catch (error) {
    throw new Error(`${(error as Error).message}; it shows ${rendered(el)}`);
  }
  return el as HTMLElementTagNameMap[K];
}

/** What an element shows, for a failure's message: its shadow root's named parts, roles and alerts, in order. */
function rendered(el: Element): string {
  const root = el.shadowRoot;
  if (!root) return 'no shadow root';
  const named = [...root.querySelectorAll('[part], [role]')].map((n) =>
    [n.getAttribute('part'), n.getAttribute('role') && `role=${n.getAttribute('role')}`].filter(Boolean).join(' '),
  );
  return named.length
    ? `[${[...new Set(named)].slice(0, 20).join(', ')}]`
    : `no parts (${root.childElementCount} children)`;
}

export function cleanup(): void {
  for (const box of document.querySelectorAll('.test-box')) box.remove();
}

export function shadow<E extends Element = HTMLElement>(el: Element, selector: string): E {
  const found = el.shadowRoot?.querySelector<E>(selector);
  if (!found) throw new Error(`${selector} not found in <${el.localName}>`);
  return found;
}

export function shadowAll<E extends Element = HTMLElement>(el: Element, selector: string): E[] {
  return [...(el.shadowRoot?.querySelectorAll<E>(selector) ?? [])];
}

export function oneEvent<T = unknown>(target: EventTarget, name: string, timeout = 5000): Promise<CustomEvent<T>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} event`)), timeout);
    target.addEventListener(
      name,
      (e) => {
        clearTimeout(timer);
        resolve(e as CustomEvent<T>);
      },
      { once: true },
    );
  });
}

export const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/**
 * Waits until what the last step set going has run, on any machine however loaded: two frames (a
 * map's render and its moveend, effects after a commit), then a timer of `ms`, which fires after
 * every timer the page set meanwhile with that delay or less (timers fire in the order they are due:
 * HTML's timer initialisation steps), then two frames and an idle callback (idle callbacks run in
 * the order they were asked for). For a test that counts what did not happen; no fixed sleep.
 */
export async function quiet(ms = 0): Promise<void> {
  await nextFrame();
  await nextFrame();
  await new Promise((r) => setTimeout(r, ms));
  await nextFrame();
  await nextFrame();
  await new Promise((r) => requestIdleCallback(r, { timeout: 2000 }));
}

let axeLoaded: Promise<void> | undefined;

/** Waits for the transitions running in an element and its shadow roots (colours fading in): a person sees the end state. */
async function settled(el: Element): Promise<void> {
  const roots: Array<Element | ShadowRoot> = [el];
  for (let i = 0; i < roots.length; i++) {
    const r = roots[i] as Element | ShadowRoot;
    for (const child of r.querySelectorAll('*')) if (child.shadowRoot) roots.push(child.shadowRoot);
    if ((r as Element).shadowRoot) roots.push((r as Element).shadowRoot as ShadowRoot);
  }
  const running = roots.flatMap((r) =>
    'getAnimations' in r ? (r instanceof Element ? r.getAnimations({ subtree: true }) : r.getAnimations()) : [],
  );
  const finite = running.filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
  await Promise.race([Promise.allSettled(finite.map((a) => a.finished)), new Promise((r) => setTimeout(r, 2000))]);
}

/** Runs axe-core on an element (it reads open shadow roots) and returns serious/critical violations. */
async function seriousViolations(el: Element): Promise<axeCore.Result[]> {
  axeLoaded ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = '/node_modules/axe-core/axe.min.js';
    s.onload = () => resolve();
    s.onerror = () => reject(new Error('axe-core did not load'));
    document.head.append(s);
  });
  await axeLoaded;
  await settled(el);
  const axe = (window as unknown as { axe: typeof axeCore }).axe;
  const result = await axe.run(el, { resultTypes: ['violations'] });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Fails with axe-core's serious and critical violations of an element (and its open shadow roots), one a line. */
export async function expectAccessible(el: Element): Promise<void> {
  const violations = await seriousViolations(el);
  const described = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(described).to.deep.equal([]);
}

/**
 * Holds the page's requests whose URL contains `part` until `release()`: the real requests to the
 * data server, only later, so that a test sees an element while it loads. `restore()` puts fetch back.
 */
export function holdFetch(part: string): { release: () => void; restore: () => void; held: () => number } {
  const realFetch = window.fetch;
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  let held = 0;
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const url = String(args[0] instanceof Request ? args[0].url : args[0]);
    if (url.includes(part)) {
      held++;
      await released;
    }
    return realFetch(...args);
  };
  // held: how many requests it has held, so that a test knows it saw the element waiting and not a race won
  return { release, restore: () => ((window.fetch = realFetch), release()), held: () => held };
}

const ENV_PATH = '/__env.js';
/** Where the data server of the browser tests runs (tests/support/wtr-data-server.mjs). */
export const API_URL = ((await import(/* @vite-ignore */ ENV_PATH)) as { API_URL: string }).API_URL;

/** runs `test` with console.error collected instead of printed (an element that logs a failure it shows) */
export async function withLoggedErrors(test: (logged: unknown[]) => Promise<void>): Promise<void> {
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    await test(logged);
  } finally {
    console.error = original;
  }
}
