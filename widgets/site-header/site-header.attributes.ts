import type { AttrSchema } from '../lib/attributes.ts';

export const siteHeaderAttributes = {
  /** 'light': white over the page's photo or video until scrolled; 'dark': the dark logo and Join button always (pages without a hero, /findanagent). */
  tone: { type: 'enum', values: ['light', 'dark'], default: 'light' },
  /** 'fixed' stays at the top of the window (over the hero); 'static' sits in the page's flow. */
  position: { type: 'enum', values: ['fixed', 'static'], default: 'fixed' },
} as const satisfies AttrSchema;
