import type { AttrSchema } from '../lib/attributes.ts';

export const propertyDetailAttributes = {
  /** The listing to show (the page /properties/{id}-{slug} passes the id). */
  'listing-id': { type: 'string', maxLength: 20 },
  /** Calling code that replaces a leading 0 in the agent's phone number for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
  /** The monthly payment's estimate beside the price; `show-payment="false"` leaves it out. */
  'show-payment': { type: 'boolean', default: true },
  /** The listings most like this one, under the detail; the site's listing page sets `show-similar="false"` (it lists them itself). */
  'show-similar': { type: 'boolean', default: true },
  /** The listing's place on a small map, with a link that opens directions in the visitor's maps app; `show-location="false"` leaves it out. */
  'show-location': { type: 'boolean', default: true },
  /** Map tiles URL template for the listing's map; default OpenStreetMap's own tiles, for development only (docs/deployment.md, "Map tiles"). */
  'tile-url': { type: 'url' },
  /** The map tiles' credit as their provider asks for it, shown on the map: text and links (`&copy; <a href="https://provider.example/copyright">Provider</a>`); default the OpenStreetMap credit. */
  'tile-attribution': { type: 'string', maxLength: 1000 },
} as const satisfies AttrSchema;
