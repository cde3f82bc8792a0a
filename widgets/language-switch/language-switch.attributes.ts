import type { AttrSchema } from '../lib/attributes.ts';

export const languageSwitchAttributes = {
  /** 'light' for white text over photos and video, 'dark' on light backgrounds. */
  tone: { type: 'enum', values: ['dark', 'light'], default: 'dark' },
  /** Restore and remember the visitor's choice (localStorage and ?lang=); 'false' only switches <html lang>. */
  persist: { type: 'boolean', default: true },
} as const satisfies AttrSchema;
