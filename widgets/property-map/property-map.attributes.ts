import type { AttrSchema } from '../lib/attributes.ts';
import { filterAttributes } from '../lib/listing/filter-attributes.ts';

export const propertyMapAttributes = {
  ...filterAttributes,
  /** Map tiles URL template (default OpenStreetMap). */
  'tile-url': { type: 'url' },
  /** Calling code that replaces a leading 0 in agents' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
} as const satisfies AttrSchema;
