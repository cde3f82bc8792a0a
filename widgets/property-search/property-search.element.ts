import { defineElement } from '../lib/element.tsx';
import type { SearchFilters, SortKey } from '../lib/data/listings.ts';
import { propertySearchAttributes } from './property-search.attributes.ts';
import { PropertySearch } from './property-search.tsx';
import texts from 'virtual:exp-texts/property-search';
import utilities from 'virtual:exp-utilities/property-search';

export interface SearchDetail {
  /** the filters the visitor submitted */
  filters: Omit<SearchFilters, 'agentId'>;
  /** the sort in effect */
  sort: SortKey;
}

export interface PropertyOpenDetail {
  /** the listing's id */
  id: string;
  /** its title, when it was opened from a card */
  title: string;
}

declare module '../lib/events.ts' {
  interface ExpEventMap {
    'exp-search': SearchDetail;
    'exp-property-open': PropertyOpenDetail;
  }
}

/**
 * The property search: filters, a clustered map of every match beside paged cards, the detail
 * dialog with the agent and the inquiry form, hearts that save listings, and 'Get alerts', which
 * e-mails the new listings and price drops of the search (after the address confirms it). Keeps the
 * search in the URL (back, forward, shared links, `?property=ID` opens a listing) unless `sync-url="false"`.
 *
 * @tag exp-property-search
 * @event exp-search - The visitor submitted the filters. detail: `{ filters, sort }`.
 * @event exp-property-open - The visitor opened a property's detail. detail: `{ id, title }`. Cancelable: preventDefault() keeps the detail closed (the host handles the listing, e.g. follows the link to its page).
 * @event exp-inquiry-sent - An inquiry from the detail dialog was stored. detail: `{ id, propertyId, agentId }`.
 * @event exp-listing-save - The visitor saved or removed a listing with its heart. detail: `{ id, saved, title }`.
 * @csspart root - The element's root box.
 * @csspart filters - The filter bar (a search form).
 * @csspart search-button - The search button.
 * @csspart location - The location box (a combobox with suggestions).
 * @csspart suggestions - The location box's list of suggestions.
 * @csspart more-filters - The 'More filters' button (with the number of those set).
 * @csspart more - The panel of the other filters: keywords, year built, lot size, features.
 * @csspart keywords - The keywords field.
 * @csspart chips - The filters that apply, each a button that removes it, and 'Clear all'.
 * @csspart chip - Each of those filters.
 * @csspart clear-filters - 'Clear all'.
 * @csspart map-panel - The map and its note.
 * @csspart map - The map itself.
 * @csspart map-zoom - The map's zoom buttons.
 * @csspart map-credit - The map tiles' credit.
 * @csspart map-fallback - The simplified map shown when the map cannot load.
 * @csspart draw-area - 'Draw an area' on the map.
 * @csspart draw-hint - How to draw, while drawing.
 * @csspart draw-cancel - Cancel drawing.
 * @csspart clear-drawn-area - Remove the drawn area.
 * @csspart results - The results column.
 * @csspart results-heading - The heading with the number of properties.
 * @csspart list - The scroll area of the cards.
 * @csspart card - Each property card.
 * @csspart card-price - The price header of a card.
 * @csspart card-excerpt - Where a card's description says the search's words.
 * @csspart match - Each of the search's words marked in a card.
 * @csspart pagination - The pagination.
 * @csspart empty - The 'No properties found' box.
 * @csspart detail - The property detail dialog.
 * @csspart popup-visit - The map popup's "Schedule a visit": the detail, opened at its times.
 * @csspart price-badge - The price in the detail dialog.
 * @csspart agent - The agent block in the detail dialog.
 * @csspart inquiry-form - The inquiry form.
 * @csspart visit - "Schedule a visit": how, the times, the contact fields (docs/visits.md).
 * @csspart visit-open - The button that shows the visit's times.
 * @csspart visit-mode - In person or by video call.
 * @csspart visit-times - The days and times to choose from (the visitor's time zone, Ecuador's beside).
 * @csspart visit-days - The days with open times.
 * @csspart visit-time - A time to choose (`chosen` when chosen).
 * @csspart visit-chosen - The times chosen.
 * @csspart visit-error - What is missing or was booked meanwhile.
 * @csspart visit-sent - The times requested, once sent.
 * @csspart toast - Each toast.
 * @csspart save-button - The heart that saves a listing (`saved` while it is saved).
 * @csspart alerts-button - 'Get alerts', which opens the alert form.
 * @csspart sort - 'Sort by' and its select.
 * @csspart alerts - The alert form's dialog.
 * @csspart place-median - A picked place's median asking price per m² of last month, beside the count, with the way to its market report.
 * @cssprop --exp-color-primary - Buttons, price headers, highlights.
 * @cssprop --exp-color-primary-hover - Buttons on hover.
 * @cssprop --exp-color-primary-contrast - Text on the primary colour.
 * @cssprop --exp-color-accent - The price badge of the detail dialog.
 * @cssprop --exp-color-ink - Text.
 * @cssprop --exp-color-muted - Secondary text.
 * @cssprop --exp-color-surface - Cards, dialogs, the filter bar.
 * @cssprop --exp-color-surface-subtle - Placeholders and hovers.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-radius - Corner radius of cards, the map and dialogs.
 * @cssprop --exp-font-family - Font.
 * @cssprop --exp-match-bg - The background of the search's words marked in the cards.
 */
defineElement({
  tag: 'exp-property-search',
  utilities,
  texts,
  attributes: propertySearchAttributes,
  component: PropertySearch,
  reserve: '100vh',
});
