import { defineElement } from '../lib/element.tsx';
import { siteHeaderAttributes } from './site-header.attributes.ts';
import { SiteHeader } from './site-header.tsx';
import texts from 'virtual:exp-texts/site-header';
import utilities from 'virtual:exp-utilities/site-header';

export interface MenuToggleDetail {
  /** true when the side panel opened, false when it closed */
  open: boolean;
}

declare module '../lib/events.ts' {
  interface ExpEventMap {
    'exp-menu-toggle': MenuToggleDetail;
  }
}

/**
 * The site's header: the logo (to the home page), Search Properties, Join, the language switch and
 * a menu button that opens a side panel with every page and the external Agent Login. Transparent
 * over the hero at the top of the page, white with a shadow once the page is scrolled past 20 px.
 * Once the visitor has saved a listing, a heart with their number links to the saved listings
 * (/saved). On phones: Search Properties, the heart, the language switch and the menu (on the
 * narrowest, the menu button carries the number).
 *
 * @tag exp-site-header
 * @event exp-menu-toggle - The visitor opened or closed the side panel. detail: `{ open }`.
 * @event exp-language-change - The visitor picked a language in the header's switch (as `<exp-language-switch>` says it). detail: `{ lang: 'en' | 'es' }`.
 * @csspart root - The element's root box.
 * @csspart bar - The header bar.
 * @csspart logo - The logo.
 * @csspart nav - The links of the bar.
 * @csspart link - Each link of the bar.
 * @csspart join - The Join button.
 * @csspart saved-link - The heart with the number of saved listings (shown once there is one).
 * @csspart group - The language switch's pill (as `<exp-language-switch>`'s).
 * @csspart option - Each language button.
 * @csspart option-active - The button of the current language.
 * @csspart menu-button - The button that opens the side panel.
 * @csspart panel - The side panel.
 * @csspart panel-link - Each link in the side panel.
 * @cssprop --exp-color-primary - The dark Join button.
 * @cssprop --exp-color-accent - The light Join button.
 * @cssprop --exp-color-surface - The scrolled bar and the side panel.
 * @cssprop --exp-header-height - Height of the bar (default 72px).
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-site-header',
  utilities,
  texts,
  attributes: siteHeaderAttributes,
  component: SiteHeader,
  styles: [
    `:host { position: fixed; top: 0; left: 0; right: 0; z-index: 1000; }
:host([position="static"]) { position: relative; }
.exp-bar { height: var(--exp-header-height, 72px); transition: background-color .25s ease, box-shadow .25s ease, color .25s ease; }`,
  ],
});
