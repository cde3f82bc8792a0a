import { defineElement } from '../lib/element.tsx';
import { siteFooterAttributes } from './site-footer.attributes.ts';
import { SiteFooter } from './site-footer.tsx';
import texts from 'virtual:exp-texts/site-footer';
import utilities from 'virtual:exp-utilities/site-footer';

/**
 * The site's footer: link columns (our pages, eXp worldwide, legal), the Quito office address,
 * phone and e-mail, four social networks and the translated copyright line. Every external link
 * opens in a new tab.
 *
 * @tag exp-site-footer
 * @csspart root - The element's root box.
 * @csspart footer - The footer.
 * @csspart column - Each link column.
 * @csspart link - Each link.
 * @csspart contact - The address, phone and e-mail.
 * @csspart social-link - Each social network.
 * @csspart copyright - The copyright line.
 * @cssprop --exp-footer-background - Background (default the brand's dark blue).
 * @cssprop --exp-footer-color - Text colour (default white).
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-site-footer',
  utilities,
  texts,
  attributes: siteFooterAttributes,
  component: SiteFooter,
});
