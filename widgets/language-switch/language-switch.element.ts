import { defineElement } from '../lib/element.tsx';
import { languageSwitchAttributes } from './language-switch.attributes.ts';
import { LanguageSwitch } from '../lib/ui/language-switch.tsx';
import texts from 'virtual:exp-texts/language-switch';
import utilities from 'virtual:exp-utilities/language-switch';
import type { Lang } from '../../core/lang.ts';

export interface LanguageChangeDetail {
  /** the language the visitor chose */
  lang: Lang;
}

declare module '../lib/events.ts' {
  interface ExpEventMap {
    'exp-language-change': LanguageChangeDetail;
  }
}

/**
 * Switches the page between English and Spanish: sets `<html lang>`, which every exp- element
 * follows live, remembers the choice in localStorage and keeps `?lang=` in the address.
 *
 * @tag exp-language-switch
 * @event exp-language-change - The visitor picked a language. detail: `{ lang: 'en' | 'es' }`.
 * @csspart root - The element's root box.
 * @csspart group - The pill holding both options.
 * @csspart option - Each language button.
 * @csspart option-active - The button of the current language.
 * @cssprop --exp-color-primary - Background of the current language (dark tone).
 * @cssprop --exp-color-primary-contrast - Text of the current language (dark tone).
 * @cssprop --exp-font-family - Font of the element.
 */
defineElement({
  tag: 'exp-language-switch',
  utilities,
  texts,
  attributes: languageSwitchAttributes,
  component: LanguageSwitch,
  inline: true,
});
