/**
 * A page's static texts written into its HTML, for the build (English, the first paint) and the
 * server (each page's language at its own address): every `data-i18n="key"` element's text and
 * every `data-i18n-attr="attribute:key;..."` attribute, escaped. The markers stay, so the page
 * script can still switch the texts live.
 */
import { escapeHtml } from './protocol/html.ts';
import { hasText, translate, type Dict } from './translate.ts';

export { escapeHtml };

const unescapeAttr = (s: string) =>
  s
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;|&#60;/g, '<')
    .replace(/&gt;|&#62;/g, '>')
    .replace(/&amp;|&#38;/g, '&');

function paramsOf(attrs: string): Record<string, unknown> {
  const m = /\bdata-i18n-params='([^']*)'/.exec(attrs) ?? /\bdata-i18n-params="([^"]*)"/.exec(attrs);
  return m ? (JSON.parse(unescapeAttr(m[1] as string)) as Record<string, unknown>) : {};
}

/**
 * Fills the static texts of a page in one language (`dict`, in `lang`); returns the HTML and the
 * keys it used. With `check` (the build: the other languages' dictionaries), a key missing in any
 * of them is an error; without (the server), a missing key shows the key.
 */
export function fillTexts(
  html: string,
  dict: Dict,
  check?: Record<string, Dict>,
  lang = 'en',
): { html: string; keys: string[] } {
  const keys: string[] = [];
  const text = (key: string, params: Record<string, unknown>) => {
    keys.push(key);
    if (check && [[lang, dict] as const, ...Object.entries(check)].some(([l, d]) => !hasText(d, key, l)))
      throw new Error(`site text "${key}" is missing in a locale file`);
    // the same engine, texts and placeholders as the page script uses at run time
    return translate(dict, key, params, lang);
  };
  let out = html.replace(
    /<([a-z][\w-]*)\b([^>]*?\sdata-i18n="([^"]+)"[^>]*)>([^<]*)<\/\1>/g,
    (_m, tag: string, attrs: string, key: string) =>
      `<${tag}${attrs}>${escapeHtml(text(key, paramsOf(attrs)))}</${tag}>`,
  );
  out = out.replace(
    /<([a-z][\w-]*)\b([^>]*?\sdata-i18n-attr="([^"]+)"[^>]*)>/g,
    (_m, tag: string, attrs: string, spec: string) => {
      let next = attrs;
      for (const pair of spec.split(';')) {
        const [attr, key] = pair.split(':').map((s) => s.trim()) as [string, string];
        if (!attr || !key) continue;
        const value = escapeHtml(text(key, paramsOf(attrs)));
        const existing = new RegExp(`\\s${attr}="[^"]*"`);
        // a function replacer: the text is data, never a replacement pattern ($&, $1)
        next = existing.test(next) ? next.replace(existing, () => ` ${attr}="${value}"`) : ` ${attr}="${value}"${next}`;
      }
      return `<${tag}${next}>`;
    },
  );
  return { html: out, keys };
}
