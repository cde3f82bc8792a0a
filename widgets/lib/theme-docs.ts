/**
 * What each theme variable of theme.ts is for: the documentation's half of the theme (docs/elements.md,
 * custom-elements.json), kept out of the bundle. Typed by the variables, so none goes undescribed.
 */
import { THEME_DEFAULTS, type ThemeVariable } from './theme.ts';

const DESCRIPTIONS: Record<ThemeVariable, string> = {
  '--exp-color-primary': 'Brand colour: buttons, links, price headers, the current language.',
  '--exp-color-primary-hover': 'Buttons under the pointer.',
  '--exp-color-primary-contrast': 'Text on the brand colour.',
  '--exp-color-accent': 'Accent colour (highlights, the light Join button).',
  '--exp-color-accent-contrast': 'Text on the accent colour.',
  '--exp-color-ink': 'Text.',
  '--exp-color-muted': 'Secondary text.',
  '--exp-color-surface': 'Cards, dialogs and fields.',
  '--exp-color-surface-subtle': 'Quiet backgrounds (placeholders, hovered rows).',
  '--exp-color-border': 'Borders and dividers.',
  '--exp-color-danger': 'Errors.',
  '--exp-color-success': 'Confirmations.',
  '--exp-color-focus': 'The keyboard focus ring.',
  '--exp-font-family': 'Font of the element.',
  '--exp-radius': 'Corner radius of cards and dialogs.',
  '--exp-spacing':
    'The spacing unit: every padding, gap and margin is a multiple of it (5px makes everything a quarter roomier).',
};

/** Every theme variable with its default and description, in the order of theme.ts. */
export const THEME = Object.fromEntries(
  Object.entries(THEME_DEFAULTS).map(([name, value]) => [
    name,
    { default: value, description: DESCRIPTIONS[name as ThemeVariable] },
  ]),
) as Record<ThemeVariable, { default: string; description: string }>;
