/**
 * The part of negotiator 1.x that the server uses (its own package ships no types, and
 * @types/negotiator describes 0.6, without `preferred`).
 */
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The client's most preferred of `available` (by its q-values; `preferred` orders those of equal q). */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
}
