/**
 * twind's configuration: our style language (Tailwind's utilities with the theme's variables,
 * container-query breakpoints, px instead of rem). Read at build time only: scripts/widget-styles.ts
 * compiles every class the elements use into one stylesheet (widgets/lib/styles.ts).
 */
import { defineConfig, type TwindRule } from '@twind/core';
import presetTailwind from '@twind/preset-tailwind';
import { remToPx, spacingScale, themeVar, type ThemeVariable } from './theme.ts';

const v = (name: string) => themeVar(`--exp-${name}` as ThemeVariable);

/** Breakpoints follow the element's own width (container queries), not the page's. */
/** xs: phones of 384 px and more (the smallest are 320 to 375); the rest as Tailwind's screens */
const containerSizes = { xs: 384, sm: 640, md: 768, lg: 1024, xl: 1280 } as const;

export const twindConfig = defineConfig({
  presets: [presetTailwind()],
  hash: false,
  theme: {
    // every padding, gap and margin scales with --exp-spacing
    spacing: spacingScale,
    extend: {
      colors: {
        primary: {
          DEFAULT: v('color-primary'),
          hover: v('color-primary-hover'),
          contrast: v('color-primary-contrast'),
        },
        accent: { DEFAULT: v('color-accent'), contrast: v('color-accent-contrast') },
        ink: { DEFAULT: v('color-ink'), muted: v('color-muted') },
        surface: { DEFAULT: v('color-surface'), subtle: v('color-surface-subtle') },
        line: v('color-border'),
        danger: v('color-danger'),
        success: v('color-success'),
      },
      borderRadius: { brand: v('radius') },
      fontFamily: { brand: v('font-family') },
    },
  },
  variants: Object.entries(containerSizes).map(
    ([name, px]) => [`cq-${name}`, `@container exp (min-width: ${px}px)`] as [string, string],
  ),
  finalize(rule: TwindRule): TwindRule {
    return rule.d ? { ...rule, d: remToPx(rule.d) } : rule;
  },
});
