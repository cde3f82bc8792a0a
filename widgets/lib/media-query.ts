import { useSyncExternalStore } from 'react';

/** one list per query, shared by every element that asks */
const lists = new Map<string, MediaQueryList>();

function listFor(query: string): MediaQueryList | undefined {
  if (typeof matchMedia !== 'function') return undefined;
  let list = lists.get(query);
  if (!list) lists.set(query, (list = matchMedia(query)));
  return list;
}

/**
 * Whether a media query matches the page now, kept live (a phone turned, a window resized). False
 * where there is no `matchMedia` (a render on the server). The query reads the viewport, which
 * needs no layout, where an element's own width (its container queries) would.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = listFor(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => listFor(query)?.matches ?? false,
    () => false,
  );
}
