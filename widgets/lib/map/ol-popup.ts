/**
 * The search map's popup (ol-map.ts composes it): an overlay holding the element the panel fills
 * (map-popup.tsx), pointing at a listing's pin, panned into view when it opens near an edge.
 */
import Overlay from 'ol/Overlay.js';
import type { Coordinate } from './marks-layer.ts';

export interface MapPopup {
  readonly overlay: Overlay;
  /** Points the popup at a listing (`null`, or a listing not on the map: closes it). */
  show(id: string | null): void;
}

/** Creates the overlay for the popup's element; `where(id)` is where a listing's pin is drawn now (undefined: nowhere). */
export function createPopup(element: HTMLElement, where: (id: string) => Coordinate | undefined): MapPopup {
  const overlay = new Overlay({
    element,
    positioning: 'bottom-center',
    offset: [0, -34],
    stopEvent: true,
    autoPan: { margin: 16, animation: { duration: 200 } },
  });
  return {
    overlay,
    show(id) {
      const at = id ? where(id) : undefined;
      overlay.setPosition(at ? [...at] : undefined);
    },
  };
}
