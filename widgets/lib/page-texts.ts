/**
 * What a page script of our own (the host site's: site/lib/texts.ts) translates with: the page's
 * one i18next instance, the elements' (widgets/lib/i18n.ts), reached through the entry's
 * `pageTexts()` (docs/decisions.md #25). A chunk of its own: partners' pages never load it.
 */
export { addPageTexts, translator } from './i18n.ts';
