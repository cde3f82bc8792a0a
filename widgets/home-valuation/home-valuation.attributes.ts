import type { AttrSchema } from '../lib/attributes.ts';
import { isKnownType } from '../../core/protocol/listing.ts';
import { MARKET_PATH } from '../../core/protocol/market.ts';

export const homeValuationAttributes = {
  /** The home's place to start from, a path of the location box (`quito/cumbaya`); the visitor can change it. */
  place: {
    type: 'string',
    default: '',
    format: { test: (v: string) => v === '' || MARKET_PATH.test(v), example: 'quito/cumbaya' },
  },
  /** The home's type to start from: `house`, `apartment`, `land`, `office`, `business_premises` or `commercial_building`. */
  'property-type': {
    type: 'string',
    default: 'house',
    format: { test: (v: string) => isKnownType(v), example: 'apartment' },
  },
  /** The heading's level: `h2` inside another page, `h1` on a page that is the valuation. */
  'heading-level': {
    type: 'string',
    default: 'h2',
    format: { test: (v: string) => v === 'h1' || v === 'h2', example: 'h2' },
  },
  /** Show the heading and the introduction (turn off when the page has its own). */
  'show-title': { type: 'boolean', default: true },
  /** Offer "Get a professional valuation" (the seller's lead, to `lead-agent-id`, else the agent who serves the place). */
  'show-lead': { type: 'boolean', default: true },
  /** Map tiles URL template of the "drop a pin" map; default OpenStreetMap's own tiles, for development only (docs/deployment.md, "Map tiles"). */
  'tile-url': { type: 'url' },
  /** The map tiles' credit as their provider asks for it, shown on the map: text and links (`&copy; <a href="https://provider.example/copyright">Provider</a>`); default the OpenStreetMap credit. */
  'tile-attribution': { type: 'string', maxLength: 1000 },
} as const satisfies AttrSchema;
