/**
 * The one translation engine (docs/decisions.md #25): text lookup, plurals and placeholders over
 * our locale files (core/locales/*.json) for the elements (widgets/lib/i18n.ts), the pages the
 * server renders (server/pages/texts.ts), the page script (site/lib/texts.ts), the build
 * (core/fill.ts) and the mails (core/functions/). Plurals named as CLDR names them (`key_one`,
 * `key_many`, `key_other` when a numeric `count` is given), placeholders as `{{name}}`.
 */
export type Dict = Record<string, unknown>;

export function lookup(dict: Dict, key: string): string | undefined {
  let node: unknown = dict;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Dict)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const plurals = new Map<string, Intl.PluralRules>();

/** A placeholder's value that is itself a text of the locale files: `{ $t: 'site.locations.quito.name' }`. */
export interface TextRef {
  $t: string;
}

const isTextRef = (value: unknown): value is TextRef => typeof value === 'object' && value !== null && typeof (value as TextRef).$t === 'string';

/**
 * The text of `key` (its plural form for a numeric `count`), placeholders filled; a missing key
 * shows the key. A value is written as it is (a city a visitor typed, '@x' included); only a
 * `{ $t: key }` value is looked up.
 */
export function translate(dict: Dict, key: string, params: Record<string, unknown> = {}, lang = 'en'): string {
  let text: string | undefined;
  if (typeof params.count === 'number') {
    let rules = plurals.get(lang);
    if (!rules) plurals.set(lang, (rules = new Intl.PluralRules(lang)));
    text = lookup(dict, `${key}_${rules.select(params.count)}`) ?? lookup(dict, `${key}_other`);
  }
  text ??= lookup(dict, key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return isTextRef(value) ? translate(dict, value.$t, {}, lang) : String(value);
  });
}

/** A language's texts as one function: `t('key', { count: 2, city: 'Quito' })`. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

export function translatorFor(dict: Dict, lang: string): Translate {
  return (key, params) => translate(dict, key, params, lang);
}

/**
 * Adds `from`'s texts into `into`, group by group; a text already there stays unless `overwrite`.
 * Returns `into`.
 */
export function mergeTexts(into: Dict, from: Dict, overwrite = true): Dict {
  for (const [key, value] of Object.entries(from)) {
    const here = into[key];
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      into[key] = mergeTexts(here && typeof here === 'object' ? (here as Dict) : {}, value as Dict, overwrite);
    } else if (overwrite || here === undefined) into[key] = value;
  }
  return into;
}
