/**
 * The theme every element reads: CSS custom properties set on the element (or any ancestor) by the
 * host page. Their defaults are the brand's. The documentation (docs/elements.md, custom-elements.json) is
 * generated from this list and theme-docs.ts (which must describe every one of them), so it cannot
 * drift from what the styles use; the descriptions stay out of the bundle.
 */
export const THEME_DEFAULTS = {
  '--exp-color-primary': '#123c69',
  '--exp-color-primary-hover': '#0d2c4d',
  '--exp-color-primary-contrast': '#ffffff',
  '--exp-color-accent': '#c8102e',
  '--exp-color-accent-contrast': '#ffffff',
  '--exp-color-ink': '#0f172a',
  '--exp-color-muted': '#475569',
  '--exp-color-surface': '#ffffff',
  '--exp-color-surface-subtle': '#f1f5f9',
  '--exp-color-border': '#e2e8f0',
  '--exp-color-danger': '#b91c1c',
  '--exp-color-success': '#15803d',
  '--exp-color-focus': '#2563eb',
  '--exp-font-family':
    'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  '--exp-radius': '12px',
  '--exp-spacing': '4px',
} as const;

export type ThemeVariable = keyof typeof THEME_DEFAULTS;

/** `var(--exp-x, default)` */
export function themeVar(name: ThemeVariable): string {
  return `var(${name}, ${THEME_DEFAULTS[name]})`;
}

/** Tailwind's spacing steps, as multiples of --exp-spacing (Tailwind's unit is 4px). */
const STEPS = [
  0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72,
  80, 96,
];
export const spacingScale: Record<string, string> = {
  px: '1px',
  0: '0px',
  ...Object.fromEntries(STEPS.map((n) => [String(n), `calc(${themeVar('--exp-spacing')} * ${n})`])),
};

/** rem is relative to the HOST page's <html> font size, which we do not control: use px. */
export function remToPx(declarations: string): string {
  return declarations.replace(/(-?\d*\.?\d+)rem\b/g, (_, n: string) => `${+(parseFloat(n) * 16).toFixed(4)}px`);
}
