/**
 * Text handling shared by the data calls: regular-expression escaping and PostgREST quoting for values inside
 * or=(...). Folding for search is one rule with the database's (../../../core/protocol/text.ts).
 */

/** A visitor's text as a regular expression (PostgREST's match/imatch) that matches it literally, * included. */
export function matchLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => '\\' + c);
}

/** A value inside PostgREST's or=(...) list: double-quoted, with " and \ escaped. */
export function quoteForLogic(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => '\\' + c)}"`;
}
