/**
 * Text handling shared by the data calls: LIKE escaping and PostgREST quoting for values inside
 * or=(...). Folding for search is one rule with the database's (../../../core/protocol/text.ts).
 */

/**
 * A visitor's text inside a LIKE/ILIKE pattern: %, _ and \ lose their special meaning. PostgREST
 * reads every * of a like pattern as %, with no way to escape it, so a * becomes _ (one
 * character: the * itself, or any other); where a * must be taken literally, use matchLiteral.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c).replace(/\*/g, () => '_');
}

/** A visitor's text as a regular expression (PostgREST's match/imatch) that matches it literally, * included. */
export function matchLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => '\\' + c);
}

/** A value inside PostgREST's or=(...) list: double-quoted, with " and \ escaped. */
export function quoteForLogic(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => '\\' + c)}"`;
}
