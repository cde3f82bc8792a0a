import type { AttrSchema } from '../lib/attributes.ts';

export const propertyMapAttributes = {
  /** Only listings in this city (partial, case- and accent-insensitive). */
  city: { type: 'string', maxLength: 100 },
  /** Only this property type. */
  'property-type': { type: 'string', maxLength: 100 },
  /** Minimum price in USD. */
  'min-price': { type: 'number', min: 0, max: 1_000_000_000 },
  /** Maximum price in USD. */
  'max-price': { type: 'number', min: 0, max: 1_000_000_000 },
  /** Minimum bedrooms. */
  beds: { type: 'number', min: 0, max: 20, integer: true },
  /** Minimum bathrooms. */
  baths: { type: 'number', min: 0, max: 20 },
  /** Only this agent's listings. */
  'agent-id': { type: 'string', maxLength: 40 },
  /** Map tiles URL template (default OpenStreetMap). */
  'tile-url': { type: 'url' },
  /** Calling code that replaces a leading 0 in agents' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
} as const satisfies AttrSchema;
