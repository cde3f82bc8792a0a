import { defineElement } from '../lib/element.tsx';
import { propertyMapAttributes } from './property-map.attributes.ts';
import { PropertyMap } from './property-map.tsx';
import texts from 'virtual:exp-texts/property-map';
import utilities from 'virtual:exp-utilities/property-map';

/**
 * A clustered map of every listing that matches its attributes, at any number (the database's
 * clusters above 500 matches), with price pills, popups and the property detail on a pin click.
 * OpenLayers loads only with this element, when it comes near the viewport.
 *
 * @tag exp-property-map
 * @event exp-property-open - The visitor opened a property from the map. detail: `{ id, title }`. Cancelable: preventDefault() keeps the detail closed (the host handles the listing, e.g. follows the link to its page).
 * @event exp-inquiry-sent - An inquiry from the detail dialog was stored. detail: `{ id, propertyId, agentId }`.
 * @event exp-listing-save - The visitor saved or removed a listing with its heart. detail: `{ id, saved, title }`.
 * @csspart root - The element's root box.
 * @csspart map-panel - The map and its note.
 * @csspart map - The map itself.
 * @csspart map-zoom - The map's zoom buttons.
 * @csspart map-credit - The map tiles' credit.
 * @csspart map-fallback - The simplified map shown when the map cannot load.
 * @csspart popup - The popup of a hovered pin.
 * @csspart popup-visit - The popup's "Schedule a visit": the detail, opened at its times.
 * @csspart detail - The property detail dialog.
 * @csspart save-button - The heart that saves a listing (`saved` while it is saved).
 * @cssprop --exp-color-primary - Buttons and highlighted pins.
 * @cssprop --exp-color-border - The map's border.
 * @cssprop --exp-radius - The map's corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-property-map',
  utilities,
  texts,
  attributes: propertyMapAttributes,
  component: PropertyMap,
});
