/**
 * What a page carries for one of its elements to start from instead of asking (the server writes it:
 * server/pages/listed-pages.ts, listing-page.tsx; docs/product.md "In the page's HTML"): the JSON of
 * the `<script type="application/json">` with `mark` among the host's own children, or undefined
 * (none, or not JSON). Each element checks that it answers its own question before taking it.
 */
export function pageAnswer(host: HTMLElement, mark: string): unknown {
  try {
    return JSON.parse(host.querySelector(`:scope>script[${mark}]`)?.textContent ?? '');
  } catch {
    return undefined;
  }
}

/** Rows of a table as the data API answers them: objects, in an array. */
export const isRows = (v: unknown): v is Array<Record<string, unknown>> =>
  Array.isArray(v) && v.every((r) => r && typeof r == 'object');
