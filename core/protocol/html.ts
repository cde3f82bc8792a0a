/**
 * Text or an attribute value made safe for HTML: what the server's pages, the site's build and the
 * e-mails write into markup. The one escape they all use.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
