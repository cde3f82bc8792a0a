import type { AttrSchema } from '../lib/attributes.ts';

export const savedListingsAttributes = {
  /** Show the heading and the count (turn off when the page has its own heading). */
  'show-title': { type: 'boolean', default: true },
  /** The search page the empty list links to. */
  'search-url': { type: 'string', default: '/search-properties', maxLength: 300 },
  /** Calling code that replaces a leading 0 in agents' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
  /** A second tab with the listings the visitor opened last (kept in this browser too). */
  'show-recent': { type: 'boolean', default: true },
  /** Map tiles URL template of the map of a listing's dialog; default OpenStreetMap's own tiles, for development only (docs/deployment.md, "Map tiles"). */
  'tile-url': { type: 'url' },
  /** The map tiles' credit as their provider asks for it, shown on the map: text and links (`&copy; <a href="https://provider.example/copyright">Provider</a>`); default the OpenStreetMap credit. */
  'tile-attribution': { type: 'string', maxLength: 1000 },
} as const satisfies AttrSchema;
