/**
 * The site's texts for pages the server renders: every visible string from the locale files (the
 * build copies them to dist/site/texts/{en,es}.json), through i18next with the settings the
 * elements use too (core/translate.ts), plurals included. No fallback language: a key missing in
 * Spanish shows the key.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Lang } from '../../core/lang.ts';
import { createI18n, fixedT, type Dict, type Translate } from '../../core/translate.ts';

export type { Dict };

export interface SiteTexts {
  t(lang: Lang): Translate;
  dict(lang: Lang): Dict;
}

export function loadTexts(siteDir: string): SiteTexts {
  const read = (lang: Lang) => JSON.parse(readFileSync(resolve(siteDir, 'texts', `${lang}.json`), 'utf8')) as Dict;
  const dicts: Record<Lang, Dict> = { en: read('en'), es: read('es') };
  // one i18next instance for both languages (core/translate.ts's settings)
  const i18n = createI18n(dicts, 'en');
  const fixed = { en: fixedT(i18n, 'en'), es: fixedT(i18n, 'es') };
  return { t: (lang) => fixed[lang], dict: (lang) => dicts[lang] };
}
