/**
 * Reading a database function's JSON answer (numbers may come as numbers or as numeric text, a
 * missing value as null): one set of readers for every parse* of core/protocol.
 */

/** A number as the answer gives it (`12`, `"12.50"`). */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

/** A number, or null where the answer has none (null, missing, empty). */
export const optNum = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : num(v));

/** A text, empty where the answer has none. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** The rows of a list the answer gives (none where it gives no list), each read as an object. */
export const records = (v: unknown): Array<Record<string, unknown>> =>
  (Array.isArray(v) ? v : []).map((r) => (r ?? {}) as Record<string, unknown>);
