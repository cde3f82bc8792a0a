import { defineElement } from '../lib/element.tsx';
import { featuredListingsAttributes } from './featured-listings.attributes.ts';
import { FeaturedListings } from './featured-listings.tsx';
import texts from 'virtual:exp-texts/featured-listings';
import utilities from 'virtual:exp-utilities/featured-listings';

/**
 * The newest active listings in Ecuador (optionally of one community) as cards that open the
 * property detail, with a 'View all' link to the search.
 *
 * @tag exp-featured-listings
 * @event exp-property-open - The visitor opened a listing. detail: `{ id, title }`. Cancelable: preventDefault() keeps the detail closed (the host handles the listing, e.g. follows the link to its page).
 * @event exp-inquiry-sent - An inquiry about a listing was stored. detail: `{ id, propertyId, agentId }`.
 * @event exp-listing-save - The visitor saved or removed a listing with its heart. detail: `{ id, saved, title }`.
 * @csspart root - The element's root box.
 * @csspart heading - The heading.
 * @csspart subtitle - The line under the heading.
 * @csspart grid - The list of cards.
 * @csspart card - Each listing card.
 * @csspart view-all - The 'View all' link.
 * @csspart empty - The message when there is nothing to show.
 * @csspart save-button - The heart that saves a listing (`saved` while it is saved).
 * @cssprop --exp-color-primary - Price headers, buttons and links.
 * @cssprop --exp-color-surface - Cards.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-featured-listings',
  utilities,
  texts,
  attributes: featuredListingsAttributes,
  component: FeaturedListings,
  reserve: '520px',
});
