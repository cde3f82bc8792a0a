/**
 * Text lookup, plurals and placeholders over our locale files (core/locales/*.json), without
 * i18next: the page script (site/lib/texts.ts), the build (scripts/site-html.ts) and the alert
 * mails (../alerts/mail.ts) read texts the same way. Plurals as i18next names them (`key_one`,
 * `key_other` when a numeric `count` is given), so the same files serve the elements' i18next.
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
