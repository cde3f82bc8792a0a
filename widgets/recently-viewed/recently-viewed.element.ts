import { defineElement } from '../lib/element.tsx';
import { recentlyViewedAttributes } from './recently-viewed.attributes.ts';
import { RecentlyViewed } from './recently-viewed.tsx';
import texts from 'virtual:exp-texts/recently-viewed';
import utilities from 'virtual:exp-utilities/recently-viewed';

/**
 * The listings the visitor opened last (a dialog or a listing page), kept in this browser only
 * (nothing leaves it), newest first: links to their pages with the photo, the price when seen, the
 * title and the place, and a button that clears them. Shows nothing until the visitor has opened a
 * listing, so a page can place it where a returning visitor should find it. Follows the page's
 * other tabs live. Kept per data backend (`api-url`), like the saved listings.
 *
 * @tag exp-recently-viewed
 * @csspart root - The element's root box.
 * @csspart recent - The list and its heading.
 * @csspart heading - The heading.
 * @csspart recent-listing - Each listing (a link to its page).
 * @csspart clear - The button that clears the list.
 * @cssprop --exp-color-primary - Links.
 * @cssprop --exp-color-surface - Tiles.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-recently-viewed',
  utilities,
  texts,
  attributes: recentlyViewedAttributes,
  component: RecentlyViewed,
});
