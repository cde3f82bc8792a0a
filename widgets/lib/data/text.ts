/**
 * Text handling shared by the data calls: the same accent folding as the database's
 * search_fold(), LIKE escaping, and PostgREST quoting for values inside or=(...).
 */

/** Lower case without the accents Spanish uses (matches public.search_fold in the schema). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** A visitor's text matched literally by LIKE/ILIKE: %, _ and \ lose their special meaning. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** A value inside PostgREST's or=(...) list: double-quoted, with " and \ escaped. */
export function quoteForLogic(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => '\\' + c)}"`;
}
