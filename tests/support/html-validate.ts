/**
 * html-validate (the HTML standard's content models, attributes and accessibility rules) as the
 * crawler test runs it over every server-rendered page: its recommended rules, with these turned
 * off, each for its reason:
 */
import { HtmlValidate, type ConfigData } from 'html-validate';

export const HTML_VALIDATE_CONFIG: ConfigData = {
  extends: ['html-validate:recommended'],
  rules: {
    // style only: '<!doctype html>' is how the HTML standard itself writes the doctype
    'doctype-style': 'off',
    // style only: '<meta ... />' (what vite writes) and '<meta ...>' are the same element
    'void-style': 'off',
    // the heroes' background videos are muted, decorative (aria-hidden), attached only after the
    // page has loaded and never under prefers-reduced-motion or Save-Data (site/lib/media.ts):
    // 'autoplay' is what lets a muted loop play at all
    'no-autoplay': 'off',
    // HTML's attribute names are case-insensitive; the pages' parts are rendered by React
    // (server/pages/html.tsx), which writes hrefLang, srcSet and fetchPriority as React names them
    'attr-case': ['error', { style: ['lowercase', 'camelcase'] }],
  },
};

export const htmlValidate = new HtmlValidate(HTML_VALIDATE_CONFIG);

/** Every message html-validate has for a page, one line each (none: the page conforms). */
export async function htmlProblems(html: string, name: string): Promise<string[]> {
  const report = await htmlValidate.validateString(html, name);
  return report.results.flatMap((r) =>
    r.messages.map(
      (m) => `${name}:${m.line}:${m.column} ${m.ruleId}: ${m.message}${m.selector ? ` (${m.selector})` : ''}`,
    ),
  );
}
