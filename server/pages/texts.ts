/**
 * The site's texts for pages the server renders: every visible string from the locale files (the
 * build copies them to dist/site/texts/{en,es}.json), through i18next like the elements use them,
 * plurals included. No fallback language: a key missing in Spanish shows the key.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import i18next, { type TFunction } from 'i18next';
import type { Lang } from '../../core/lang.ts';

export type Dict = Record<string, unknown>;

export interface SiteTexts {
  t(lang: Lang): TFunction;
  dict(lang: Lang): Dict;
}

export function loadTexts(siteDir: string): SiteTexts {
  const read = (lang: Lang) => JSON.parse(readFileSync(resolve(siteDir, 'texts', `${lang}.json`), 'utf8')) as Dict;
  const dicts: Record<Lang, Dict> = { en: read('en'), es: read('es') };
  const i18n = i18next.createInstance();
  void i18n.init({
    resources: { en: { translation: dicts.en }, es: { translation: dicts.es } },
    lng: 'en',
    fallbackLng: false,
    supportedLngs: ['en', 'es'],
    initAsync: false,
    returnNull: false,
    returnEmptyString: false,
    interpolation: { escapeValue: false },
  });
  const fixed = { en: i18n.getFixedT('en'), es: i18n.getFixedT('es') };
  return { t: (lang) => fixed[lang], dict: (lang) => dicts[lang] };
}
