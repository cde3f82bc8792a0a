/**
 * Text lookup and placeholders, shared by the page script (site/lib/texts.ts) and the build
 * (scripts/site-html.ts), so a page reads the same at build time and after a language switch.
 */
export type Dict = Record<string, unknown>;

export function lookup(dict: Dict, key: string): string | undefined {
  let node: unknown = dict;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Dict)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function translate(dict: Dict, key: string, params: Record<string, unknown> = {}): string {
  const text = lookup(dict, key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    if (!(name in params)) return whole;
    const value = String(params[name]);
    return value.startsWith('@') ? translate(dict, value.slice(1)) : value;
  });
}

