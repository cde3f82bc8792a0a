/**
 * The theme every element reads: CSS custom properties set on the element (or any ancestor) by the
 * host page. Their defaults are the brand's. The documentation (README, custom-elements.json) is
 * generated from this list, so it cannot drift from what the styles use.
 */
export const THEME = {
  '--exp-color-primary': { default: '#123c69', description: 'Brand colour: buttons, links, price headers, the current language.' },
  '--exp-color-primary-hover': { default: '#0d2c4d', description: 'Buttons under the pointer.' },
  '--exp-color-primary-contrast': { default: '#ffffff', description: 'Text on the brand colour.' },
  '--exp-color-accent': { default: '#c8102e', description: 'Accent colour (highlights, the light Join button).' },
  '--exp-color-accent-contrast': { default: '#ffffff', description: 'Text on the accent colour.' },
  '--exp-color-ink': { default: '#0f172a', description: 'Text.' },
  '--exp-color-muted': { default: '#475569', description: 'Secondary text.' },
  '--exp-color-surface': { default: '#ffffff', description: 'Cards, dialogs and fields.' },
  '--exp-color-surface-subtle': { default: '#f1f5f9', description: 'Quiet backgrounds (placeholders, hovered rows).' },
  '--exp-color-border': { default: '#e2e8f0', description: 'Borders and dividers.' },
  '--exp-color-danger': { default: '#b91c1c', description: 'Errors.' },
  '--exp-color-success': { default: '#15803d', description: 'Confirmations.' },
  '--exp-color-focus': { default: '#2563eb', description: 'The keyboard focus ring.' },
  '--exp-font-family': { default: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif', description: 'Font of the element.' },
  '--exp-radius': { default: '12px', description: 'Corner radius of cards and dialogs.' },
  '--exp-spacing': { default: '4px', description: 'The spacing unit: every padding, gap and margin is a multiple of it (5px makes everything a quarter roomier).' },
} as const;

export type ThemeVariable = keyof typeof THEME;

/** `var(--exp-x, default)` */
export function themeVar(name: ThemeVariable): string {
  return `var(${name}, ${THEME[name].default})`;
}

/** Tailwind's spacing steps, as multiples of --exp-spacing (Tailwind's unit is 4px). */
const STEPS = [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80, 96];
export const spacingScale: Record<string, string> = { px: '1px', 0: '0px', ...Object.fromEntries(STEPS.map((n) => [String(n), `calc(${themeVar('--exp-spacing')} * ${n})`])) };

/** rem is relative to the HOST page's <html> font size, which we do not control: use px. */
export function remToPx(declarations: string): string {
  return declarations.replace(/(-?\d*\.?\d+)rem\b/g, (_, n: string) => `${+(parseFloat(n) * 16).toFixed(4)}px`);
}
