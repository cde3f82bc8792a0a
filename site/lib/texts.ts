/**
 * The static texts of a page follow `<html lang>` live, like the elements do. The build filled
 * them in English; here they switch to the visitor's language: `data-i18n="key"` sets the text,
 * `data-i18n-attr="attribute:key;..."` attributes, `data-i18n-params='{"city":"Quito"}'` fills
 * {{placeholders}} (a value `{"$t": "some.key"}` is itself translated; any other is written as it is). Always as text, never as markup. A
 * key missing in a language shows the key. A language's texts are downloaded only when needed.
 */
import { DEFAULT_LANG, normaliseLang, type Lang } from '../../core/lang.ts';
import { translate, type Dict } from '../../core/translate.ts';

export type { Dict };
export { translate } from '../../core/translate.ts';

const loaders: Record<Lang, () => Promise<Dict>> = {
  en: () => import('../../core/locales/en.json').then((m) => m.default as Dict),
  es: () => import('../../core/locales/es.json').then((m) => m.default as Dict),
};

const cache = new Map<Lang, Promise<Dict>>();

export function dictionary(lang: Lang): Promise<Dict> {
  let loaded = cache.get(lang);
  if (!loaded) {
    loaded = loaders[lang]();
    cache.set(lang, loaded);
  }
  return loaded;
}

function paramsOf(el: Element): Record<string, unknown> {
  const raw = el.getAttribute('data-i18n-params');
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function currentLang(): Lang {
  return normaliseLang(document.documentElement.lang) ?? DEFAULT_LANG;
}

function applyElement(dict: Dict, el: Element, lang: Lang): void {
  const key = el.getAttribute('data-i18n');
  if (key) {
    const text = translate(dict, key, paramsOf(el), lang);
    if (el.textContent !== text) el.textContent = text;
  }
  const attrs = el.getAttribute('data-i18n-attr');
  if (attrs) {
    for (const pair of attrs.split(';')) {
      const [attr, k] = pair.split(':').map((s) => s.trim());
      if (attr && k) el.setAttribute(attr, translate(dict, k, paramsOf(el), lang));
    }
  }
}

/** Writes every static text of `root` in `lang`, from that language's `dict`. */
export function applyTexts(dict: Dict, root: ParentNode = document, lang: Lang = currentLang()): void {
  for (const el of root.querySelectorAll('[data-i18n], [data-i18n-attr]')) applyElement(dict, el, lang);
}

/** the language the texts in the page are in (the build wrote English) */
let applied: Lang = 'en';
const changed = new Set<Element>();
let pending: Promise<void> | undefined;

function sync(): Promise<void> {
  pending ??= (async () => {
    // let several changes of one task go together
    await Promise.resolve();
    pending = undefined;
    const lang = currentLang();
    if (lang === applied && !changed.size) return;
    const dict = await dictionary(lang);
    if (currentLang() !== lang) return; // switched again meanwhile: that sync will do it
    if (lang !== applied) applyTexts(dict, document, lang);
    for (const el of changed) applyElement(dict, el, lang);
    changed.clear();
    applied = lang;
  })();
  return pending;
}

/** Gives an element another text key (and parameters) and writes it in the page's language. */
export function setText(el: Element | null, key: string, params?: Record<string, unknown>): Promise<void> {
  if (!el) return Promise.resolve();
  el.setAttribute('data-i18n', key);
  if (params) el.setAttribute('data-i18n-params', JSON.stringify(params));
  else el.removeAttribute('data-i18n-params');
  changed.add(el);
  return sync();
}

/** Translates the page now if needed and follows every later change of `<html lang>`. */
export function startTexts(): Promise<void> {
  new MutationObserver(() => void sync()).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  return sync();
}
