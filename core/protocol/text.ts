/**
 * Rules the browser and the database must apply alike, written once (docs/decisions.md #8 and
 * #3). The database's twins, public.search_fold() and public.parse_coordinate() in
 * supabase/schemas/01_text.sql, follow the same rules; tests/contract/rules.test.ts runs one table of cases through
 * both and requires the same answers. This file is imported by the widgets, our server and the
 * deployed function: keep it free of anything but plain TypeScript.
 */

/**
 * Text folded for searching: Unicode decomposition (NFD), combining marks dropped, A-Z lowered.
 * 'Cumbayá' and 'CUMBAYA' both become 'cumbaya'; ñ becomes n, ü u. Only A-Z is lowered, so the
 * answer is the same whatever the database's collation.
 */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/**
 * A coordinate as listing feeds send it: a plain decimal, '.' or ',' as the decimal mark, an
 * optional sign, optionally no digit before the mark ('.5'); no exponent, nothing else.
 */
const COORDINATE_PATTERN = /^\s*[-+]?([0-9]+([.,][0-9]+)?|[.,][0-9]+)\s*$/;

/** The number a coordinate stands for when it is one within ±maxAbs, else null. */
export function parseCoordinate(value: unknown, maxAbs: number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= maxAbs ? value : null;
  if (typeof value !== 'string' || !COORDINATE_PATTERN.test(value)) return null;
  const n = Number(value.trim().replace(',', '.'));
  return Number.isFinite(n) && Math.abs(n) <= maxAbs ? n : null;
}
