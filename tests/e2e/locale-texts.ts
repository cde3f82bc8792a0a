/**
 * The interface's texts as the e2e tests read them: one text as the elements translate it, and the
 * English phrases a Spanish page must not show (core/locales/*.json).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { translate } from '../../core/translate.ts';

type Tree = { [k: string]: string | Tree };
const flatten = (o: Tree, prefix = ''): Array<[string, string]> =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'string' ? [[prefix + k, v] as [string, string]] : flatten(v, `${prefix}${k}.`),
  );

/** A locale file, as written. */
const localeFile = (lang: 'en' | 'es'): Tree =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../core/locales', `${lang}.json`), 'utf8')) as Tree;

/** A locale file's texts by their dotted keys. */
const localeTexts = (lang: 'en' | 'es'): Record<string, string> => Object.fromEntries(flatten(localeFile(lang)));

/** One interface text, translated as the elements translate it (core/translate.ts: the key itself where the file has none). */
export const localeText = (lang: 'en' | 'es', key: string): string => translate(localeFile(lang), key, {}, lang);

/** English interface texts that must not show on a Spanish page (the parts around placeholders). */
export function englishOnlyPhrases(): string[] {
  const en = localeTexts('en');
  const es = localeTexts('es');
  const phrases = new Set<string>();
  for (const [key, text] of Object.entries(en)) {
    // composed titles are listing data in the listing's own language (an English listing keeps its
    // title on a Spanish page), not the interface's
    if (
      key.startsWith('language.') ||
      key.startsWith('attributes.') ||
      key.startsWith('site.composedTitle.') ||
      es[key] === text
    )
      continue;
    for (const part of text.replace(/<[^>]+>/g, ' ').split(/\{\{[^}]+\}\}/)) {
      const phrase = part.trim();
      // short or generic fragments could be names or data; whole words of six letters and more are ours
      if (phrase.length >= 6 && /[a-z]/i.test(phrase) && !Object.values(es).some((v) => v.includes(phrase)))
        phrases.add(phrase);
    }
  }
  return [...phrases];
}
