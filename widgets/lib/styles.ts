/**
 * The elements' styles: the utility classes of each element, compiled at build time from twind
 * (our style language; widgets/lib/twind-config.ts, scripts/widget-styles.ts) into one stylesheet
 * per element that its shadow roots adopt, so no CSS-in-JS runtime runs on a visitor's or a
 * partner's page; the base sheet and the components' own CSS.
 */
import { remToPx, themeVar, type ThemeVariable } from './theme.ts';

export { remToPx };

const v = (name: string) => themeVar(`--exp-${name}` as ThemeVariable);

/**
 * What every shadow root gets before the utilities: the host page cannot change our look, since
 * `all: initial` cuts every inherited property (colour, font, line height, letter spacing, ...)
 * at the widget root and we then set our own.
 */
export const baseCss = `
:host { display: block; box-sizing: border-box; }
:host([hidden]) { display: none !important; }
.exp-root {
  all: initial;
  display: block;
  container: exp / inline-size;
  box-sizing: border-box;
  font-family: ${v('font-family')};
  font-size: 16px;
  line-height: 1.5;
  font-weight: 400;
  color: ${v('color-ink')};
  text-align: start;
  -webkit-font-smoothing: antialiased;
  -webkit-text-size-adjust: 100%;
}
.exp-root.exp-inline { display: inline-block; container: none; }
.exp-root :focus-visible { outline: 2px solid ${v('color-focus')}; outline-offset: 2px; }
.exp-toasts { position: fixed; inset: auto 16px 16px 16px; margin: 0; padding: 0; border: 0; background: transparent; overflow: visible; width: auto; height: auto; z-index: 2147483000; color: inherit; }
@media (min-width: 640px) { .exp-toasts { left: auto; width: 360px; } }
/* long lists: the browser lays out and paints only the cards near the viewport */
.exp-offscreen-card { content-visibility: auto; contain-intrinsic-block-size: auto 440px; }
.exp-offscreen-agent { content-visibility: auto; contain-intrinsic-block-size: auto 340px; }
.line-clamp-1, .line-clamp-2 { display: -webkit-box; -webkit-box-orient: vertical; overflow: hidden; }
.line-clamp-1 { -webkit-line-clamp: 1; }
.line-clamp-2 { -webkit-line-clamp: 2; }
.exp-sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0,0,0,0); white-space: nowrap; border: 0; }
@media (prefers-reduced-motion: reduce) {
  .exp-root *, .exp-root *::before, .exp-root *::after { animation-duration: 0.01ms !important; animation-iteration-count: 1 !important; transition-duration: 0.01ms !important; scroll-behavior: auto !important; }
}
`;

const sheets = new Map<string, CSSStyleSheet>();
const ours = new WeakSet<CSSStyleSheet>();

const utilities = new Map<string, CSSStyleSheet>();

/** An element's compiled utilities, one constructable sheet shared by its shadow roots (adopted last). */
export function utilitiesSheet(css: string): CSSStyleSheet {
  let sheet = utilities.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    utilities.set(css, sheet);
  }
  return sheet;
}

/** A constructable stylesheet per CSS text, shared by every element that adopts it. */
export function sheetFor(css: string): CSSStyleSheet {
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(remToPx(css));
    sheets.set(css, sheet);
    ours.add(sheet);
  }
  return sheet;
}

/**
 * Adopts one of our sheets into a shadow root once, after our other sheets and before the
 * utilities, so a utility class on an element still wins over a component's own CSS.
 */
export function adoptSheet(root: ShadowRoot, sheet: CSSStyleSheet): void {
  const current = root.adoptedStyleSheets;
  if (current.includes(sheet)) return;
  let at = 0;
  current.forEach((s, i) => {
    if (ours.has(s)) at = i + 1;
  });
  root.adoptedStyleSheets = [...current.slice(0, at), sheet, ...current.slice(at)];
}
