import { signal } from '@preact/signals-react';
import base from 'virtual:exp-texts/base';
import { DEFAULT_LANG, normaliseLang, type Lang } from '../../core/lang.ts';
import { createI18n, fixedT, type Dict, type Translate } from '../../core/translate.ts';

/**
 * The elements' texts: one i18next instance for the page, shared by every element (it lives in the
 * runtime chunk), made with the site's settings (core/translate.ts) and our own, so a host page's
 * i18next is neither used nor disturbed. No fallback language: a key missing in Spanish shows the
 * key, never English. English comes with the elements, each element's groups added as a resource
 * bundle when it is defined; Spanish is downloaded the first time an element is in Spanish
 * (langReady), so an English page never pays for it.
 */
const i18n = createI18n({ en: structuredClone(base as Dict), es: {} }, DEFAULT_LANG);

/**
 * The language of an element: its own `lang`, else the nearest ancestor's (crossing shadow roots,
 * so an element rendered inside another follows it), else `<html lang>`, else English.
 */
export function langOf(node: Node | null | undefined): Lang {
  let current: Node | null | undefined = node;
  while (current) {
    if (current.nodeType === 1) {
      const value = (current as Element).getAttribute('lang');
      if (value) return normaliseLang(value) ?? DEFAULT_LANG;
    }
    current = current.parentNode ?? (current as ShadowRoot).host ?? null;
  }
  return DEFAULT_LANG;
}

/** Bumped whenever any `lang` attribute changes, so every element re-reads its language live. */
export const langEpoch = signal(0);

let observer: MutationObserver | undefined;
const observed = new WeakSet<Node>();

/** Watches `lang` attributes in the document and in our shadow roots. */
export function watchLang(root: Document | ShadowRoot): void {
  if (typeof MutationObserver === 'undefined' || observed.has(root)) return;
  observer ??= new MutationObserver(() => {
    langEpoch.value++;
  });
  observer.observe(root, { attributes: true, attributeFilter: ['lang'], subtree: true });
  observed.add(root);
}

/** A language's translation function (a new one each call, so what takes it renders again). */
export function translator(lang: Lang): Translate {
  return fixedT(i18n, lang);
}

const loaders: Record<Exclude<Lang, 'en'>, () => Promise<{ default: Record<string, unknown> }>> = {
  es: () => import('../../core/locales/es.json'),
};
const available = new Set<Lang>(['en']);
const loading = new Map<Lang, Promise<void>>();

/**
 * An element's English texts (the groups its files use beyond the shared ones, scripts/widget-texts.ts),
 * added when the element is defined.
 */
export function addTexts(more: Dict): void {
  addPageTexts('en', more);
}

/**
 * Texts in a language added to the page's one instance, deep, a text already there kept: an
 * element's (addTexts), or a page's own (our site's script: site/lib/texts.ts, through the entry's
 * `pageTexts()`: the site's static texts are translated by the same i18next as its elements,
 * docs/decisions.md #25).
 */
export function addPageTexts(lang: Lang, more: Dict): void {
  i18n.addResourceBundle(lang, 'translation', more, true, false);
}

/** Bumped when a language's texts arrive, so the elements waiting for them render. */
export const langsLoaded = signal(0);

/** Downloads a language's texts (once; a failed download is tried again on the next call). */
function loadLang(lang: Lang): Promise<void> {
  if (available.has(lang) || lang === 'en') return Promise.resolve();
  let pending = loading.get(lang);
  if (!pending) {
    pending = loaders[lang]().then(
      (m) => {
        i18n.addResourceBundle(lang, 'translation', m.default, true, true);
        available.add(lang);
        langsLoaded.value++;
      },
      (error: unknown) => {
        loading.delete(lang);
        throw error;
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}

/** Whether a language's texts are here; if not, their download starts (langsLoaded says when). */
export function langReady(lang: Lang): boolean {
  if (available.has(lang)) return true;
  loadLang(lang).catch((error: unknown) => console.error(`[exp] the ${lang} texts did not load:`, error));
  return false;
}

const STORAGE_KEY = 'exp-lang';

/** The visitor's saved choice: `?lang=` first, then localStorage. */
export function savedLang(): Lang | undefined {
  try {
    const fromQuery = normaliseLang(new URLSearchParams(location.search).get('lang'));
    if (fromQuery) return fromQuery;
    return normaliseLang(localStorage.getItem(STORAGE_KEY));
  } catch {
    return undefined;
  }
}

/**
 * The page's own address in a language, when the page says where it is: a `<link rel="alternate"
 * hreflang>` on this origin (our site's pages do; docs/decisions.md #18). Its path, with the
 * address's own query and hash.
 */
function alternateAddress(lang: Lang): string | undefined {
  const link = document.querySelector<HTMLLinkElement>(`link[rel="alternate"][hreflang="${lang}"]`);
  if (!link?.href) return undefined;
  try {
    const target = new URL(link.href, location.href);
    return target.origin === location.origin ? `${target.pathname}${location.search}${location.hash}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets `<html lang>`, remembers the choice and keeps the address in that language for shared links:
 * the page's alternate address where it has one, else `?lang=`.
 */
export function applyDocumentLang(lang: Lang, options: { updateUrl?: boolean } = {}): void {
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // storage can be disabled (private mode, sandboxed iframes): the choice still applies now
  }
  if (options.updateUrl !== false) {
    try {
      const alternate = alternateAddress(lang);
      if (alternate) {
        if (alternate !== `${location.pathname}${location.search}${location.hash}`)
          history.replaceState(history.state, '', alternate);
        return;
      }
      const url = new URL(location.href);
      if (url.searchParams.get('lang') !== lang) {
        url.searchParams.set('lang', lang);
        history.replaceState(history.state, '', url);
      }
    } catch {
      // a sandboxed document may refuse history access; the language still changed
    }
  }
}
