import type { AttrSchema } from '../lib/attributes.ts';

export const propertySearchAttributes = {
  /** Preset city filter (partial, case- and accent-insensitive). */
  city: { type: 'string', maxLength: 100 },
  /** Preset property type: house, apartment, land, office, business_premises, commercial_building (or another value of the data). */
  'property-type': { type: 'string', maxLength: 100 },
  /** Preset minimum price in USD. */
  'min-price': { type: 'number', min: 0, max: 1_000_000_000 },
  /** Preset maximum price in USD. */
  'max-price': { type: 'number', min: 0, max: 1_000_000_000 },
  /** Preset minimum bedrooms. */
  beds: { type: 'number', min: 0, max: 20, integer: true },
  /** Preset minimum bathrooms. */
  baths: { type: 'number', min: 0, max: 20 },
  /** Only this agent's listings (for an agent's own website). */
  'agent-id': { type: 'string', maxLength: 40 },
  /** Keep the search in the address bar (back, forward, shared links). 'false' for embeds that must leave the URL alone. */
  'sync-url': { type: 'boolean', default: true },
  /** Show the map beside the list. */
  'show-map': { type: 'boolean', default: true },
  /** Map tiles URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (the default). */
  'tile-url': { type: 'url' },
  /** Describe the listings shown in schema.org JSON-LD (a script in the element's light DOM) for search engines. */
  'structured-data': { type: 'boolean', default: false },
  /** Calling code that replaces a leading 0 in agents' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
} as const satisfies AttrSchema;
