import { defineElement } from '../lib/element.tsx';
import { savedListingsAttributes } from './saved-listings.attributes.ts';
import { SavedListings } from './saved-listings.tsx';
import texts from 'virtual:exp-texts/saved-listings';
import utilities from 'virtual:exp-utilities/saved-listings';

/**
 * The listings the visitor saved with the heart, in this browser (no account): cards that open the
 * property detail, newest saved first; a listing no longer on the market shows what was kept of it,
 * marked, with a button to remove it. Follows the hearts of the page and of its other tabs live.
 * The list is kept per data backend (`api-url`), so an embed on another site keeps its own.
 *
 * @tag exp-saved-listings
 * @event exp-listing-save - The visitor saved or removed a listing (a heart, or Remove). detail: `{ id, saved, title }`.
 * @event exp-property-open - The visitor opened a saved listing. detail: `{ id, title }`. Cancelable: preventDefault() keeps the detail closed (the host handles the listing, e.g. follows the link to its page).
 * @event exp-inquiry-sent - An inquiry about a listing was stored. detail: `{ id, propertyId, agentId }`.
 * @csspart root - The element's root box.
 * @csspart saved - The whole list.
 * @csspart heading - The heading.
 * @csspart count - How many are saved.
 * @csspart grid - The list of cards.
 * @csspart card - Each listing card.
 * @csspart card-unavailable - A listing no longer on the market.
 * @csspart unavailable - Its 'No longer available' mark.
 * @csspart remove - Its remove button.
 * @csspart save-button - The heart on a card.
 * @csspart empty - The message when nothing is saved.
 * @csspart search-link - The link to the search in that message.
 * @csspart tabs - "Saved" and "Recently viewed" (when the visitor has opened listings and `show-recent` is on).
 * @csspart tab - Each tab (`tab-selected` on the one shown).
 * @csspart recent - The recently viewed listings.
 * @csspart recent-listing - Each of them (a link to its page).
 * @csspart clear - The button that clears them.
 * @cssprop --exp-color-primary - Price headers, buttons and links.
 * @cssprop --exp-color-accent - A saved listing's heart.
 * @cssprop --exp-color-surface - Cards.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-saved-listings',
  utilities,
  texts,
  attributes: savedListingsAttributes,
  component: SavedListings,
  reserve: '520px',
});
