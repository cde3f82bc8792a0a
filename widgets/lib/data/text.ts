/**
 * Text handling shared by the data calls: LIKE escaping and PostgREST quoting for values inside
 * or=(...). Folding for search is one rule with the database's (../../../supabase/functions/_shared/protocol/text.ts).
 */

/** A visitor's text matched literally by LIKE/ILIKE: %, _ and \ lose their special meaning. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** A value inside PostgREST's or=(...) list: double-quoted, with " and \ escaped. */
export function quoteForLogic(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => '\\' + c)}"`;
}
