/**
 * The one translation engine (docs/decisions.md #25): i18next, with one set of settings for every
 * place that translates: the elements (widgets/lib/i18n.ts: one instance per page shared by every
 * element), the pages the server renders (server/pages/texts.ts), the site's page script
 * (site/lib/texts.ts, through the elements' instance), the build (core/fill.ts), the import's words (server/import/mapping.ts) and
 * the mails (core/functions/). Our locale files are i18next's JSON (v4): dotted keys, plural forms by
 * CLDR suffix (`key_one`, `key_many`, `key_other` for a numeric `count`), `{{name}}` placeholders.
 *
 * - No fallback language: a key missing in Spanish shows the key, never English.
 * - No escaping here: React and our HTML writer escape what they write, once.
 * - A placeholder's value is written as it is: i18next reads no `$t()` nesting in values, so a
 *   city a visitor typed is never taken for a key. A value that is itself a text is written
 *   `{ $t: 'site.locations.quito.name' }` and is translated by the same instance, in the same language.
 * - Every instance is our own (`createInstance`): a host page's i18next is neither used nor touched.
 */
import i18next, { type i18n, type InitOptions } from 'i18next';

export type Dict = Record<string, unknown>;

/** A language's texts as one function: `t('key', { count: 2, city: 'Quito' })`. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/** A placeholder's value that is itself a text of the locale files. */
export interface TextRef {
  $t: string;
}

const isTextRef = (value: unknown): value is TextRef =>
  typeof value === 'object' && value !== null && typeof (value as TextRef).$t === 'string';

const I18N_OPTIONS: InitOptions = {
  fallbackLng: false,
  defaultNS: 'translation',
  ns: ['translation'],
  // a key is a dotted path, never `namespace:key` (a colon in a key is part of the key); the dot said
  // although it is the default, so that i18next does not test each key for natural language first
  keySeparator: '.',
  nsSeparator: false,
  interpolation: { escapeValue: false, skipOnVariables: true },
  returnNull: false,
  // the resources are given: ready as soon as init returns
  initAsync: false,
};

/** A new instance of our own over these languages' texts (each dictionary kept by reference). */
export function createI18n(resources: Partial<Record<string, Dict>>, lng = Object.keys(resources)[0] ?? 'en'): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...I18N_OPTIONS,
    lng,
    resources: Object.fromEntries(Object.entries(resources).map(([lang, dict]) => [lang, { translation: dict ?? {} }])),
  });
  return instance;
}

/**
 * The texts an instance made, by language, key and values: a card's labels are asked for again at
 * each render, and i18next takes some 10 µs a call to resolve, pluralise and fill one (a search
 * page's first render asked for thousands). Emptied when texts are added or removed (a language or
 * an element's texts arriving), and when it grows past a bound (a server renders many prices).
 */
const made = new WeakMap<i18n, Map<string, string>>();
const MADE_AT_MOST = 5000;

function madeTexts(instance: i18n): Map<string, string> {
  let texts = made.get(instance);
  if (!texts) {
    const fresh = new Map<string, string>();
    made.set(instance, fresh);
    const forget = () => fresh.clear();
    instance.store.on('added', forget);
    instance.store.on('removed', forget);
    texts = fresh;
  }
  if (texts.size > MADE_AT_MOST) texts.clear();
  return texts;
}

/** The values a text's address can be made of: plain values and text references, nothing else is remembered. */
const plain = (params: Record<string, unknown>) =>
  Object.values(params).every(
    (v) => v == null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || isTextRef(v),
  );

/** An instance's translation function for one language, `{ $t: key }` values translated first. */
export function fixedT(instance: i18n, lang: string): Translate {
  // the instance's own t with the language as an option: getFixedT's function copies every option
  // of the instance at each call, which was half the time of rendering a server page of a hundred texts
  const bare = { lng: lang };
  const translate: Translate = (key, params) => {
    const address = !params
      ? `${lang}\u0001${key}`
      : plain(params)
        ? `${lang}\u0001${key}\u0001${JSON.stringify(params)}`
        : undefined;
    const texts = madeTexts(instance);
    const known = address === undefined ? undefined : texts.get(address);
    if (known !== undefined) return known;
    let text: string;
    if (!params) text = String(instance.t(key, bare));
    else {
      const values: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(params)) values[name] = isTextRef(value) ? translate(value.$t) : value;
      values.lng = lang;
      text = String(instance.t(key, values));
    }
    if (address !== undefined) texts.set(address, text);
    return text;
  };
  return translate;
}

const forDict = new WeakMap<Dict, Map<string, { instance: i18n; t: Translate }>>();

function madeFor(dict: Dict, lang: string): { instance: i18n; t: Translate } {
  let byLang = forDict.get(dict);
  if (!byLang) forDict.set(dict, (byLang = new Map()));
  let made = byLang.get(lang);
  if (!made) {
    const instance = createI18n({ [lang]: dict }, lang);
    byLang.set(lang, (made = { instance, t: fixedT(instance, lang) }));
  }
  return made;
}

/** One language's texts as a translation function (one instance per dictionary and language). */
export function translatorFor(dict: Dict, lang: string): Translate {
  return madeFor(dict, lang).t;
}

/** The text of `key` in `dict`'s language (`lang`), its plural form for a numeric `count`, placeholders filled; a missing key shows the key. */
export function translate(dict: Dict, key: string, params: Record<string, unknown> = {}, lang = 'en'): string {
  return translatorFor(dict, lang)(key, params);
}

/** Whether a dictionary has a text at `key` (a plural key by its `other` form). */
export function hasText(dict: Dict, key: string, lang = 'en'): boolean {
  const { instance } = madeFor(dict, lang);
  return instance.exists(key, { lng: lang }) || instance.exists(`${key}_other`, { lng: lang });
}
