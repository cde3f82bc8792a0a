/**
 * The attribute of an element's own JSON-LD script, a child of its host: the element keeps that one
 * script to what it shows (widgets/lib/structured-data.ts), and a page the server wrote it into
 * first (server/pages/search-results.tsx) has one, never two. A file of its own: the builders
 * (structured-data.ts) are a chunk the elements load only when a page asks for JSON-LD.
 */
export const STRUCTURED_DATA_MARK = 'data-exp-structured-data';
