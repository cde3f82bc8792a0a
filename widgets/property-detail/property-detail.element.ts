import { defineElement } from '../lib/element.tsx';
import { propertyDetailAttributes } from './property-detail.attributes.ts';
import { PropertyDetailElement } from './property-detail.tsx';
import texts from 'virtual:exp-texts/property-detail';
import utilities from 'virtual:exp-utilities/property-detail';

/**
 * One listing's detail on a page of its own: photos, price, title, address, facts, description,
 * the agent with WhatsApp and copy actions, the inquiry form and sharing, the same content as the
 * search's detail dialog. Whatever the element holds (the listing page's server-rendered content)
 * stays visible until the element has drawn itself; a listing that is no longer available says so.
 *
 * @tag exp-property-detail
 * @event exp-inquiry-sent - An inquiry about the listing was stored. detail: `{ id, propertyId, agentId }`.
 * @event exp-listing-save - The visitor saved or removed a listing with its heart. detail: `{ id, saved, title }`.
 * @csspart root - The element's root box.
 * @csspart detail-page - The detail.
 * @csspart price-badge - The price.
 * @csspart share - The share button.
 * @csspart share-menu - WhatsApp, e-mail and copy, where the browser has no share sheet.
 * @csspart facts - Bedrooms, bathrooms, area and type.
 * @csspart payment - The monthly payment's estimate and its terms.
 * @csspart price-history - The price history and the days on the market.
 * @csspart price-reduced - The "Reduced $10,000" badge of a recent price cut.
 * @csspart location - The listing's place: its map and the directions link.
 * @csspart location-map - The small map (a pin, or a circle where the position is approximate).
 * @csspart directions - The link that opens directions in the visitor's maps app.
 * @csspart gallery - The photos full screen.
 * @csspart gallery-counter - "Photo 2 of 12" in the full-screen photos.
 * @csspart gallery-photo - The photo shown full screen.
 * @csspart similar - The listings most like this one.
 * @csspart similar-listing - One of them (a link to its page).
 * @csspart agent - The listing agent.
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
 * @csspart not-found - The message for a listing that is not available.
 * @csspart save-button - The heart that saves a listing (`saved` while it is saved).
 * @cssprop --exp-color-primary - Buttons and links.
 * @cssprop --exp-color-accent - The price badge.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-property-detail',
  utilities,
  texts,
  attributes: propertyDetailAttributes,
  component: PropertyDetailElement,
  styles: [':host { display: block; }'],
});
