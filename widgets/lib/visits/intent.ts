/**
 * Whether a listing's detail opens with "Schedule a visit" open: the map popup's "Schedule a visit"
 * asks it for the listing it opens, and an address ending in #visit (the visitor's mail's "ask for
 * another time") asks it on the listing's page.
 */
import { useEffect, useState } from 'react';

let pending: string | null = null;

/** The next detail of this listing opens with the visit's times. */
export function requestVisit(id: string): void {
  pending = id;
}

/**
 * Whether this listing's detail was asked to open at its times. Read while rendering, so it only
 * reads: React may render the detail in the background and throw that render away (an update
 * arriving meanwhile, a sibling suspending), then render it afresh. The map's ask is used once the
 * detail is on screen, in an effect, which runs for a render that was kept.
 */
export function useVisitIntent(id: string): boolean {
  const [asked] = useState(() => pending === id || (typeof location !== 'undefined' && location.hash === '#visit'));
  useEffect(() => {
    if (asked && pending === id) pending = null;
  }, [asked, id]);
  return asked;
}
