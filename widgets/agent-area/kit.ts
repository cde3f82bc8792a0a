/**
 * What her site kit writes (./site-kit.tsx, docs/agent-area.md "Site kit"): the element's
 * attributes for her website and the snippet she pastes.
 */
import { attrs as htmlAttrs } from '../../core/protocol/html.ts';
import { THEME_DEFAULTS } from '../lib/theme.ts';

export const KINDS = ['exp-property-search', 'exp-agent-profile', 'exp-home-valuation'] as const;
export type Kind = (typeof KINDS)[number];
/** The brokerage's own primary colour (the theme's default), what an element shows when she picks none. */
export const DEFAULT_COLOR = THEME_DEFAULTS['--exp-color-primary'];
export const HEX = /^#[0-9a-f]{6}$/i;

/** The element's attributes for her site: hers, in her language and colour. */
export function kitAttributes(kind: Kind, agentId: number, lang: 'en' | 'es', color: string): Array<[string, string]> {
  const attrs: Array<[string, string]> = [];
  if (kind === 'exp-agent-profile') attrs.push(['agent-id', String(agentId)]);
  else attrs.push(['lead-agent-id', String(agentId)]);
  attrs.push(['lang', lang]);
  if (HEX.test(color) && color.toLowerCase() !== DEFAULT_COLOR)
    attrs.push(['style', `--exp-color-primary: ${color.toLowerCase()}`]);
  return attrs;
}

/** The snippet she pastes: the script once, then the element (attribute values escaped for HTML). */
export function kitSnippet(scriptUrl: string, kind: Kind, attrs: Array<[string, string]>): string {
  return `<script type="module"${htmlAttrs({ src: scriptUrl })}></script>\n<${kind}${htmlAttrs(Object.fromEntries(attrs))}></${kind}>`;
}
