/**
 * The static texts of a page follow `<html lang>` live, like the elements do. The build filled
 * them in English; here they switch to the visitor's language: `data-i18n="key"` sets the text,
 * `data-i18n-attr="attribute:key;..."` attributes, `data-i18n-params='{"city":"Quito"}'` fills
 * {{placeholders}} (a value `{"$t": "some.key"}` is itself translated; any other is written as it is). Always as text, never as markup. A
 * key missing in a language shows the key. A language's texts are downloaded only when needed.
 *
 * They are translated by the elements' own i18next instance (the runtime chunk's, reached through
 * the widget entry's `pageTexts()`), the page's texts added to it: one engine on the page, not a
 * second copy in this script (docs/decisions.md #25).
 */
import { DEFAULT_LANG, normaliseLang, type Lang } from '../../core/lang.ts';
import type { Dict, Translate } from '../../core/translate.ts';
import type { PageTexts } from '../../widgets/index.ts';

/**
 * A language's texts of the pages themselves: the groups their `data-i18n` keys name (`site`, and the
 * header's and the market page's few), each destructured where it is imported so the build leaves
 * the others out (the elements bring their own texts: a Spanish page downloaded every text twice).
 * tests/contract/crawler.test.ts holds every key a page writes to these.
 */
export const pageTextsIn: Record<Lang, () => Promise<Dict>> = {
  en: () => import('../../core/locales/en.json').then(({ site, header, market }) => ({ site, header, market })),
  es: () => import('../../core/locales/es.json').then(({ site, header, market }) => ({ site, header, market })),
};

/** The widget entry the page includes (the build puts it in every page's head): its `pageTexts()`. */
function fromEntry(): Promise<PageTexts> {
  const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src$="/exp-widgets.js"]');
  if (!entry) return Promise.reject(new Error('the page has no widget entry (exp-widgets.js) to translate with'));
  return (import(/* @vite-ignore */ entry.src) as Promise<{ pageTexts(): Promise<PageTexts> }>).then((m) =>
    m.pageTexts(),
  );
}

let source: () => Promise<PageTexts> = fromEntry;
let page: Promise<PageTexts> | undefined;
const added = new Map<Lang, Promise<Translate>>();

/** Where the page's translations come from (tests give the runtime's module itself). */
export function useTranslations(from: () => Promise<PageTexts>): void {
  source = from;
  page = undefined;
  added.clear();
}

/** A language's translation function: its texts downloaded and added to the page's instance once (a failure is tried again next time). */
export function translatorFor(lang: Lang): Promise<Translate> {
  let made = added.get(lang);
  if (!made) {
    const texts = (page ??= source());
    made = Promise.all([texts, pageTextsIn[lang]()]).then(([p, dict]) => {
      p.addPageTexts(lang, dict);
      return p.translator(lang);
    });
    made.catch(() => {
      added.delete(lang);
      if (page === texts) page = undefined;
    });
    added.set(lang, made);
  }
  return made;
}

function paramsOf(el: Element): Record<string, unknown> | undefined {
  const raw = el.getAttribute('data-i18n-params');
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function currentLang(): Lang {
  return normaliseLang(document.documentElement.lang) ?? DEFAULT_LANG;
}

function applyElement(t: Translate, el: Element): void {
  const key = el.getAttribute('data-i18n');
  if (key) {
    const text = t(key, paramsOf(el));
    if (el.textContent !== text) el.textContent = text;
  }
  const attrs = el.getAttribute('data-i18n-attr');
  if (attrs) {
    for (const pair of attrs.split(';')) {
      const [attr, k] = pair.split(':').map((s) => s.trim());
      if (attr && k) el.setAttribute(attr, t(k, paramsOf(el)));
    }
  }
}

/** Writes every static text of `root` with a language's translation function. */
export function applyTexts(t: Translate, root: ParentNode = document): void {
  for (const el of root.querySelectorAll('[data-i18n], [data-i18n-attr]')) applyElement(t, el);
}

/**
 * the language the texts in the page are in: as it was served (the build writes English, the server
 * each address in its language; read at the first sync, which the page script runs as it starts), so
 * a page in its language downloads no texts until one of them changes
 */
let applied: Lang | undefined;
const changed = new Set<Element>();
let pending: Promise<void> | undefined;

/** Brings the page's texts up to date; a failure (the texts or the translations did not load) is logged, the page keeps what it shows. */
function sync(): Promise<void> {
  applied ??= currentLang();
  pending ??= (async () => {
    // let several changes of one task go together
    await Promise.resolve();
    pending = undefined;
    const lang = currentLang();
    if (lang === applied && !changed.size) return;
    const t = await translatorFor(lang);
    if (currentLang() !== lang) return; // switched again meanwhile: that sync will do it
    if (lang !== applied) applyTexts(t);
    for (const el of changed) applyElement(t, el);
    changed.clear();
    applied = lang;
  })().catch((error: unknown) => {
    console.error('[site] the texts could not be translated:', error);
  });
  return pending;
}

/** Gives an element another text key (and parameters) and writes it in the page's language. */
export function setText(el: Element | null, key: string, params?: Record<string, unknown>): Promise<void> {
  return el ? setKey(el, 'data-i18n', key, params) : Promise.resolve();
}

/** Gives an element a text key (`data-i18n`, or `data-i18n-attr`'s `attribute:key`) and parameters, and writes it if that changes what it says. */
function setKey(
  el: Element,
  attr: 'data-i18n' | 'data-i18n-attr',
  value: string,
  params: Record<string, unknown> | undefined,
): Promise<void> {
  const json = params ? JSON.stringify(params) : null;
  // the same text as the page already has, written in the language it shows (the server's page, as the script would write it)
  if (el.getAttribute(attr) === value && el.getAttribute('data-i18n-params') === json) return sync();
  el.setAttribute(attr, value);
  if (json) el.setAttribute('data-i18n-params', json);
  else el.removeAttribute('data-i18n-params');
  changed.add(el);
  return sync();
}

/** Gives an element's attribute another text key (and parameters) and writes it in the page's language. */
export function setAttrText(
  el: Element | null,
  attr: string,
  key: string,
  params?: Record<string, unknown>,
): Promise<void> {
  return el ? setKey(el, 'data-i18n-attr', `${attr}:${key}`, params) : Promise.resolve();
}

/** Translates the page now if needed and follows every later change of `<html lang>`. */
export function startTexts(): Promise<void> {
  new MutationObserver(() => void sync()).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['lang'],
  });
  return sync();
}
