import type { AttrSchema } from '../lib/attributes.ts';
import { filterAttributes } from '../lib/listing/filter-attributes.ts';

export const propertySearchAttributes = {
  // presets of the filters; the visitor can change them (agent-id stays: it is a scope)
  ...filterAttributes,
  /** Keep the search in the address bar (back, forward, shared links). 'false' for embeds that must leave the URL alone. */
  'sync-url': { type: 'boolean', default: true },
  /** Show the map beside the list (above it on a tablet; on an element narrower than 640 px, behind "Show the map" until the visitor asks, its code not downloaded until then). */
  'show-map': { type: 'boolean', default: true },
  /** Map tiles URL template, e.g. https://tiles.example.com/{z}/{x}/{y}.png?key=...; default OpenStreetMap's own tiles, for development only (docs/deployment.md, "Map tiles"). */
  'tile-url': { type: 'url' },
  /** The map tiles' credit as their provider asks for it, shown on the map: text and links (`&copy; <a href="https://provider.example/copyright">Provider</a>`); default the OpenStreetMap credit. */
  'tile-attribution': { type: 'string', maxLength: 1000 },
  /** Describe the listings shown in schema.org JSON-LD (a script in the element's light DOM) for search engines. */
  'structured-data': { type: 'boolean', default: false },
  /** Calling code that replaces a leading 0 in agents' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
} as const satisfies AttrSchema;
