/**
 * Text or an attribute value made safe for HTML: what the server's pages, the site's build and the
 * e-mails write into markup. The one escape they all use.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** An attribute list for a tag of a prepared template: `name="value"` pairs, escaped, skipping undefined, null and false. */
export function attrs(values: Record<string, string | number | boolean | undefined | null>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${escapeHtml(v)}"`))
    .join('');
}
