import { useSyncExternalStore } from 'react';

/**
 * Whether a media query matches the page now, kept live (a phone turned, a window resized); false
 * in a render on the server. The query reads the viewport, which needs no layout, where an
 * element's own width (its container queries) would.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => matchMedia(query).matches,
    () => false,
  );
}
