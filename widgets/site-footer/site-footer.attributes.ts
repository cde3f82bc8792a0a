import type { AttrSchema } from '../lib/attributes.ts';

export const siteFooterAttributes = {} as const satisfies AttrSchema;
