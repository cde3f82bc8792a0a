import type { AttrSchema } from '../lib/attributes.ts';
import { isTypeGroup, MARKET_PATH } from '../../core/protocol/market.ts';

export const marketReportAttributes = {
  /** The place (docs/market.md): `ecuador`, a province (`provincia/pichincha`), a city (`quito`) or a sector (`quito/cumbaya`). */
  place: {
    type: 'string',
    default: 'ecuador',
    format: { test: (v: string) => MARKET_PATH.test(v), example: 'quito/cumbaya' },
  },
  /** Which listings: `all`, `house`, `apartment`, `land` or `commercial`. */
  'type-group': { type: 'string', default: 'all', format: { test: (v: string) => isTypeGroup(v), example: 'house' } },
  /** How many months the chart shows, the month so far included (7 to 25). */
  months: { type: 'number', min: 7, max: 25, integer: true, default: 25 },
  /** Rank the places within (a city's sectors, a province's cities); a sector ranks its city's. */
  'show-ranking': { type: 'boolean', default: true },
  /** The heading's level: `h2` inside another page, `h1` on a page that is the report. */
  'heading-level': {
    type: 'string',
    default: 'h2',
    format: { test: (v: string) => v === 'h1' || v === 'h2', example: 'h2' },
  },
  /** Show the heading (turn off when the page has its own). */
  'show-title': { type: 'boolean', default: true },
  /** Offer "Follow this market": the place's report by e-mail each month (double opt-in; the lead goes to `lead-agent-id`). */
  'show-follow': { type: 'boolean', default: true },
} as const satisfies AttrSchema;
