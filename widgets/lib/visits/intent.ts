/**
 * Whether a listing's detail opens with "Schedule a visit" open: the map popup's "Schedule a visit"
 * asks it for the listing it opens, and an address ending in #visit (the visitor's mail's "ask for
 * another time") asks it on the listing's page.
 */
let pending: string | null = null;

/** The next detail of this listing opens with the visit's times. */
export function requestVisit(id: string): void {
  pending = id;
}

/** Whether this listing's detail was asked to open with them (the map's ask is used once). */
export function takeVisitIntent(id: string): boolean {
  if (pending === id) {
    pending = null;
    return true;
  }
  return typeof location !== 'undefined' && location.hash === '#visit';
}
