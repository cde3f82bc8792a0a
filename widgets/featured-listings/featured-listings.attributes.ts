import type { AttrSchema } from '../lib/attributes.ts';
import { FEATURED_LIMIT } from '../../core/protocol/featured.ts';

export const featuredListingsAttributes = {
  /** Only listings in this city or community (partial, case- and accent-insensitive), e.g. Cumbayá. */
  community: { type: 'string', maxLength: 100 },
  /** `rent`: the newest homes for rent (priced a month); `sale` (the default): for sale. */
  operation: { type: 'enum', values: ['sale', 'rent'], default: 'sale' },
  /** How many of the newest listings to show. */
  limit: { type: 'number', min: 1, max: 24, integer: true, default: FEATURED_LIMIT },
  /** The search page that 'View all' opens (with the community as its city). */
  'search-url': { type: 'string', default: '/search-properties', maxLength: 300 },
  /** Calling code that replaces a leading 0 in agents' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
  /** Map tiles URL template of the map of a listing's dialog; default OpenStreetMap's own tiles, for development only (docs/deployment.md, "Map tiles"). */
  'tile-url': { type: 'url' },
  /** The map tiles' credit as their provider asks for it, shown on the map: text and links (`&copy; <a href="https://provider.example/copyright">Provider</a>`); default the OpenStreetMap credit. */
  'tile-attribution': { type: 'string', maxLength: 1000 },
} as const satisfies AttrSchema;
