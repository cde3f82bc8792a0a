/**
 * How the search map's view moves (ol-map.ts composes it): it fits what is drawn, opens on Quito
 * when nothing is, zooms into a cluster, and tells the visitor's own pans and zooms from ours, so
 * that only hers offer 'Search this area' (docs/product.md §9).
 */
import type OlMap from 'ol/Map.js';
import type View from 'ol/View.js';
import { buffer, type Extent } from 'ol/extent.js';
import { fromLonLat } from 'ol/proj.js';

/** where the map opens before it knows where the listings are: Quito (core/protocol/places.ts QUITO), as [lng, lat]; written here so the map chunk does not take the places table */
export const QUITO_CENTER: [number, number] = [-78.4678, -0.1807];
export const DEFAULT_ZOOM = 12;
const FIT_MAX_ZOOM = 16;

export interface ViewMoves {
  /** fits the view to what is drawn (Web Mercator) */
  fitTo(extent: Extent): void;
  /** opens on Quito: nothing is drawn */
  fitEmpty(): void;
  /** zooms towards a cluster's or a cell's listings, at most 4 zooms closer than `zoom` */
  zoomInto(extent: Extent, zoom: number): void;
  dispose(): void;
}

const GESTURES = ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const;

/** The moves of `view` on `map`; `onMoveEnd` hears every move that ends, and whether the visitor made it. */
export function createMoves(map: OlMap, view: View, onMoveEnd: (byVisitor: boolean) => void): ViewMoves {
  let programmatic = 0;
  const viewState = () => `${view.getCenter()?.join(',')}|${view.getResolution()}|${view.getRotation()}`;
  const asProgram = (fn: () => void) => {
    const before = viewState();
    programmatic++;
    fn();
    // a change that leaves the view where it was (a fit to the bounds it already shows) ends no
    // move: waiting for a moveend would take the visitor's next gesture for ours
    if (!view.getAnimating() && viewState() === before) {
      programmatic--;
      return;
    }
    // the view settles after animations; moveend of our own changes is not the visitor's
    map.once('moveend', () => setTimeout(() => (programmatic = Math.max(0, programmatic - 1)), 0));
  };
  // only a pan or zoom of the visitor's own counts as moved (not a resize of the window, not a fit)
  let gesture = false;
  const onGesture = () => {
    gesture = true;
  };
  const gestureTarget = map.getViewport() as HTMLElement;
  for (const type of GESTURES) gestureTarget.addEventListener(type, onGesture, { passive: true, capture: true });
  const moved = () => {
    onMoveEnd(!programmatic && gesture);
    if (!programmatic) gesture = false;
  };
  map.on('moveend', moved);
  return {
    fitTo: (extent) =>
      asProgram(() => view.fit(buffer(extent, 50), { padding: [48, 48, 48, 48], maxZoom: FIT_MAX_ZOOM, duration: 0 })),
    fitEmpty: () =>
      asProgram(() => view.animate({ center: fromLonLat(QUITO_CENTER), zoom: DEFAULT_ZOOM, duration: 0 })),
    zoomInto: (extent, zoom) =>
      asProgram(() =>
        view.fit(buffer(extent, 1), {
          duration: 400,
          padding: [60, 60, 60, 60],
          maxZoom: Math.min(view.getMaxZoom(), zoom + 4),
        }),
      ),
    dispose() {
      map.un('moveend', moved);
      for (const type of GESTURES) gestureTarget.removeEventListener(type, onGesture, { capture: true });
    },
  };
}
