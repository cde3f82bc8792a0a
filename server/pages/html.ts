/** Writing HTML from data: every value escaped (JSON in scripts: protocol/structured-data.ts jsonLdText). */
import { escapeHtml } from '../../core/fill.ts';

/** An attribute list: `name="value"` pairs, escaped, skipping undefined and false. */
export function attrs(values: Record<string, string | number | boolean | undefined | null>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${escapeHtml(v)}"`))
    .join('');
}
