import { signal } from '@preact/signals-react';
import base from 'virtual:exp-texts/base';
import { DEFAULT_LANG, normaliseLang, type Lang } from '../../core/lang.ts';
import { createI18n, fixedT, type Dict, type Translate } from '../../core/translate.ts';

/**
 * The elements' texts: one i18next instance for the page, shared by every element (it lives in the
 * runtime chunk), made with the site's settings (core/translate.ts) and our own, so a host page's
 * i18next is neither used nor disturbed. No fallback language: a key missing in Spanish shows the
 * key, never English. English comes with the elements, each element's groups added as a resource
 * bundle when it is defined; the same groups in Spanish are downloaded the first time an element is
 * in Spanish (langReady), unit by unit (the runtime's, each element's, each lazily loaded part's:
 * scripts/widget-texts.ts), so an English page never pays for Spanish, nor a Spanish page for the
 * texts of elements it does not have.
 */
const i18n = createI18n({ en: structuredClone(base.en), es: {} }, DEFAULT_LANG);

/** A unit's texts: its groups in English, and where its groups in the other languages come from. */
type UnitTexts = { en: Dict } & { [L in Exclude<Lang, 'en'>]: () => Promise<{ default: Dict }> };

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

/** every unit whose English is here, the runtime's first */
const units: UnitTexts[] = [base];
/** the languages an element has asked for: a unit added later brings its texts in them too */
const wanted = new Set<Exclude<Lang, 'en'>>();
/** each unit's texts by language: their download on its way, or `true` once here (a failed one is forgotten) */
const got = new Map<UnitTexts, Partial<Record<Lang, Promise<void> | true>>>();

/**
 * An element's texts (the groups its files use beyond the shared ones, scripts/widget-texts.ts), added
 * when the element is defined, or a lazily loaded part's when it loads: its English at once; in a
 * language an element already asked for, its download, which the promise waits for (a part awaits it
 * before it renders, so it never shows a key while its texts are on their way).
 */
export function addTexts(unit: UnitTexts): Promise<unknown> {
  addPageTexts('en', unit.en);
  if (!units.includes(unit)) units.push(unit);
  return Promise.all([...wanted].map((lang) => loadUnit(unit, lang)));
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

/** Downloads a unit's texts in a language (once; a failed download is said and tried again on the next call). */
function loadUnit(unit: UnitTexts, lang: Exclude<Lang, 'en'>): Promise<void> {
  const mine = got.get(unit) ?? got.set(unit, {}).get(unit)!;
  const now = mine[lang];
  if (now === true) return Promise.resolve();
  return (mine[lang] =
    now ??
    unit[lang]().then(
      (m) => {
        i18n.addResourceBundle(lang, 'translation', m.default, true, true);
        mine[lang] = true;
        langsLoaded.value++;
      },
      (error: unknown) => {
        delete mine[lang];
        console.error(`[exp] the ${lang} texts did not load:`, error);
      },
    ));
}

/** Whether a language's texts of every unit on the page are here; if not, their downloads start (langsLoaded says when). */
export function langReady(lang: Lang): boolean {
  if (lang === 'en') return true;
  wanted.add(lang);
  const missing = units.filter((unit) => got.get(unit)?.[lang] !== true);
  for (const unit of missing) void loadUnit(unit, lang);
  return missing.length === 0;
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
