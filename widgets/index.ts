/**
 * The one script a page includes. It stays tiny: it only finds exp- tags (now and later, in the
 * document and in our own shadow roots) and imports the code of the elements that are present.
 * Chunks load relative to this file's URL, so the bundle works from any origin or CDN path.
 * Loading it twice (or next to the all-in-one file) is harmless: one autoloader serves the page.
 */
import { lazyChunk } from './lib/lazy-chunk.ts';
import type * as PageTextsModule from './lib/page-texts.ts';

type Loader = () => Promise<unknown>;

// a chunk that failed (offline, blocked) is fetched again under a new URL when its tag shows up again
const loaders: Record<string, Loader> = {
  'exp-language-switch': lazyChunk(() => import('./language-switch/language-switch.element.ts')),
  'exp-property-search': lazyChunk(() => import('./property-search/property-search.element.ts')),
  'exp-property-map': lazyChunk(() => import('./property-map/property-map.element.ts')),
  'exp-inquiry-form': lazyChunk(() => import('./inquiry-form/inquiry-form.element.ts')),
  'exp-agent-directory': lazyChunk(() => import('./agent-directory/agent-directory.element.ts')),
  'exp-agent-profile': lazyChunk(() => import('./agent-profile/agent-profile.element.ts')),
  'exp-featured-listings': lazyChunk(() => import('./featured-listings/featured-listings.element.ts')),
  'exp-saved-listings': lazyChunk(() => import('./saved-listings/saved-listings.element.ts')),
  'exp-recently-viewed': lazyChunk(() => import('./recently-viewed/recently-viewed.element.ts')),
  'exp-market-report': lazyChunk(() => import('./market-report/market-report.element.ts')),
  'exp-home-valuation': lazyChunk(() => import('./home-valuation/home-valuation.element.ts')),
  'exp-property-detail': lazyChunk(() => import('./property-detail/property-detail.element.ts')),
  'exp-site-header': lazyChunk(() => import('./site-header/site-header.element.ts')),
  'exp-site-footer': lazyChunk(() => import('./site-footer/site-footer.element.ts')),
  'exp-agent-area': lazyChunk(() => import('./agent-area/agent-area.element.ts')),
};

/**
 * The page's translations, for a page script of our own (the host site's: site/lib/texts.ts): the
 * runtime's one i18next instance, which the elements translate with, so the site's static texts
 * need no engine of their own (docs/decisions.md #25). Loads the runtime chunk the elements share.
 */
export type PageTexts = typeof PageTextsModule;
export const pageTexts = (): Promise<PageTexts> => import('./lib/page-texts.ts');

interface Autoloader {
  observe(root: ParentNode): void;
  register(more: Record<string, Loader>): void;
}

/**
 * Copies of the bundle find each other through the custom-element registry (a class's static
 * field), so nothing is added to `window`.
 */
export const AUTOLOADER_TAG = 'exp-autoloader';

/**
 * Calls `reached` once for an element: when it is in view (the second observer), or one screen ahead
 * of it (the first) once the page has scrolled. Before the visitor moves, one screen ahead does not
 * count, whatever the layout does: the elements above draw themselves in steps (a search's cards in a
 * box of their own leave its page a screen and a half tall), and a footer one screen down is then
 * still a scroll away (docs/embedding.md "The script").
 */
function watchNear(reached: (el: Element) => void): (el: Element) => void {
  const waiting = new Set<Element>();
  let moved = false;
  const done = (el: Element) => {
    waiting.delete(el);
    for (const o of observers) o.unobserve(el);
    reached(el);
  };
  const observers = ['100% 0px', '0px'].map(
    (rootMargin, strict) =>
      new IntersectionObserver(
        (entries) => {
          for (const { target, isIntersecting } of entries) {
            if (strict) {
              if (isIntersecting) done(target);
              continue;
            }
            if (!isIntersecting) waiting.delete(target);
            else if (moved) done(target);
            else waiting.add(target);
          }
        },
        { rootMargin },
      ),
  );
  // any scroll, the page's or a box's
  addEventListener(
    'scroll',
    () => {
      moved = true;
      for (const el of waiting) done(el);
    },
    { capture: true, passive: true, once: true },
  );
  return (el) => {
    for (const o of observers) o.observe(el);
  };
}

function createAutoloader(): Autoloader {
  const known: Record<string, Loader> = {};
  const started = new Set<string>();

  const load = (tag: string) => {
    const loader = known[tag];
    if (!loader || started.has(tag) || customElements.get(tag)) return;
    started.add(tag);
    loader().catch((error: unknown) => {
      // a failed chunk (offline, blocked) may be retried when the tag shows up again
      started.delete(tag);
      console.error(`[exp-widgets] could not load <${tag}>`, error);
    });
  };

  // <exp-… loading="lazy"> (docs/embedding.md "The script"): its code comes when the element is in
  // view, or one screen ahead of it once the visitor has scrolled
  const lazy = watchNear((el) => load(el.localName));
  const seen = (el: Element) => {
    if (!(el.localName in known) || started.has(el.localName)) return;
    if (el.getAttribute('loading') === 'lazy') lazy(el);
    else load(el.localName);
  };

  const scan = (root: ParentNode) => {
    if ((root as Element).localName) seen(root as Element);
    for (const el of root.querySelectorAll(':not(:defined)')) seen(el);
  };

  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) scan(node as Element);
  });

  return {
    observe(root) {
      scan(root);
      observer.observe(root, { childList: true, subtree: true });
    },
    register(more) {
      for (const [tag, loader] of Object.entries(more)) known[tag] ??= loader;
      scan(document);
    },
  };
}

if (typeof document !== 'undefined' && typeof customElements !== 'undefined') {
  let holder = customElements.get(AUTOLOADER_TAG) as
    (CustomElementConstructor & { autoloader?: Autoloader }) | undefined;
  if (!holder) {
    const autoloader = createAutoloader();
    holder = class extends HTMLElement {
      static autoloader = autoloader;
    };
    customElements.define(AUTOLOADER_TAG, holder);
    autoloader.observe(document);
  }
  holder.autoloader?.register(loaders);
}
