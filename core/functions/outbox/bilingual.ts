/**
 * The team's mails (an inquiry for an agent, a new alert's notice) label everything in both
 * languages, Spanish first (the team and the agents work in Spanish; a visitor may have written in
 * English): each label from the locale files, through i18next (core/translate.ts).
 */
import type { Lang } from '../../lang.ts';
import { translatorFor, type Dict, type Translate } from '../../translate.ts';

export interface MailTexts {
  es: Translate;
  en: Translate;
  /** "Spanish / English" */
  both: Translate;
}

export function mailTexts(texts: (lang: Lang) => Dict): MailTexts {
  const es = translatorFor(texts('es'), 'es');
  const en = translatorFor(texts('en'), 'en');
  return { es, en, both: (key, params) => `${es(key, params)} / ${en(key, params)}` };
}
