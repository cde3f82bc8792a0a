import type { AttrSchema } from '../lib/attributes.ts';

export const agentAreaAttributes = {
  /** Calling code that replaces a leading 0 in leads' phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
} as const satisfies AttrSchema;
