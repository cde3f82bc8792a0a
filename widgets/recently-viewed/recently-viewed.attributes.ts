import type { AttrSchema } from '../lib/attributes.ts';

export const recentlyViewedAttributes = {
  /** How many of the listings opened last to show (the browser keeps 20). */
  max: { type: 'number', min: 1, max: 20, integer: true, default: 4 },
  /** Show the heading (turn off when the page has its own). */
  'show-title': { type: 'boolean', default: true },
  /** `row` (a page section's spacing around it) or `grid` (none). */
  layout: {
    type: 'string',
    default: 'row',
    format: { test: (v: string) => v === 'row' || v === 'grid', example: 'row' },
  },
} as const satisfies AttrSchema;
