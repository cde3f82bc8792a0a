/**
 * The site's texts for pages the server renders: every visible string from the locale files (the
 * build copies them to dist/site/texts/{en,es}.json), through the one translation engine the
 * elements use too (core/translate.ts), plurals included. No fallback language: a key missing in
 * Spanish shows the key.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Lang } from '../../core/lang.ts';
import { translatorFor, type Dict, type Translate } from '../../core/translate.ts';

export type { Dict };

export interface SiteTexts {
  t(lang: Lang): Translate;
  dict(lang: Lang): Dict;
}

export function loadTexts(siteDir: string): SiteTexts {
  const read = (lang: Lang) => JSON.parse(readFileSync(resolve(siteDir, 'texts', `${lang}.json`), 'utf8')) as Dict;
  const dicts: Record<Lang, Dict> = { en: read('en'), es: read('es') };
  const fixed = { en: translatorFor(dicts.en, 'en'), es: translatorFor(dicts.es, 'es') };
  return { t: (lang) => fixed[lang], dict: (lang) => dicts[lang] };
}
