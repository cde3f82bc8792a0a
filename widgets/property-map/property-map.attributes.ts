import type { AttrSchema } from '../lib/attributes.ts';
import { filterAttributes } from '../lib/listing/filter-attributes.ts';

export const propertyMapAttributes = {
  ...filterAttributes,
  /** Map tiles URL template; default OpenStreetMap's own tiles, for development only (docs/deployment.md, "Map tiles"). */
  'tile-url': { type: 'url' },
  /** The map tiles' credit as their provider asks for it, shown on the map: text and links (`&copy; <a href="https://provider.example/copyright">Provider</a>`); default the OpenStreetMap credit. */
  'tile-attribution': { type: 'string', maxLength: 1000 },
  /** Calling code that replaces a leading 0 in agents' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
} as const satisfies AttrSchema;
