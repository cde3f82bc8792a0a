import type { AttrSchema } from '../lib/attributes.ts';
import { filterAttributes } from '../lib/listing/filter-attributes.ts';

export const propertySearchAttributes = {
  // presets of the filters; the visitor can change them (agent-id stays: it is a scope)
  ...filterAttributes,
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
