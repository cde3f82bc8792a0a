import type { AttrSchema } from '../lib/attributes.ts';

export const siteFooterAttributes = {
  /** Where the site lives, for a footer placed on another site; empty: links stay on this origin. */
  'base-url': { type: 'url' },
} as const satisfies AttrSchema;
