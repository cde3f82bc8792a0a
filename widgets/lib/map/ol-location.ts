/**
 * A listing's place on a small map (location-map.tsx; its own lazily loaded chunk, taking
 * OpenLayers from the chunk it shares with the search's map: vite.config.ts OPENLAYERS): the
 * listing's price pill where it is (marks-layer.ts), or a shaded circle where it may be when its position is
 * approximate (docs/decisions.md #3), over the same outline of Ecuador as the search's map, so it
 * never shows a blank box when tiles cannot load.
 * No mouse-wheel zoom: the map sits in a scrolling page or dialog, and the wheel must scroll it.
 */
import OlMap from 'ol/Map.js';
import View from 'ol/View.js';
import { boundingExtent } from 'ol/extent.js';
import { fromLonLat, toLonLat } from 'ol/proj.js';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { APPROXIMATE_RADIUS_M } from '../../../core/protocol/places.ts';
import { interactions, underlay } from './map-base.ts';
import { CIRCLE_STYLE, pill, prepareMap } from './map-styles.ts';
import { createMarks, type Coordinate } from './marks-layer.ts';

export interface LocationOptions {
  target: HTMLElement;
  shadowRoot: ShadowRoot | null;
  lat: number;
  lng: number;
  price: number;
  approximate: boolean;
  tileUrl?: string | undefined;
  /** the pin's words instead of the price (a seller's home: "Here") */
  label?: string;
  /** a click moves the pin there and says where (the valuation's "drop a pin") */
  onPick?: (lat: number, lng: number) => void;
}

export interface LocationController {
  zoomBy(delta: number): void;
  updateSize(): void;
  dispose(): void;
  /** what is drawn: the pin, or the circle of an approximate position */
  readonly kind: 'pin' | 'circle';
  readonly map: OlMap;
}

/** How close the map opens on an exact position (streets and their names readable). */
const LOCATION_ZOOM = 16;

export function createLocationMap(options: LocationOptions): LocationController {
  prepareMap(options.shadowRoot);
  const center = fromLonLat([options.lng, options.lat]);
  const kind = options.approximate ? 'circle' : 'pin';
  // a ring of 64 corners (Web Mercator stretches distances by 1 / cos(latitude): on the equator
  // barely, but exactly)
  const radius = APPROXIMATE_RADIUS_M / Math.cos((options.lat * Math.PI) / 180);
  const circle: Coordinate[] | undefined = options.approximate
    ? Array.from({ length: 65 }, (_, i) => [
        center[0]! + radius * Math.cos((i / 64) * 2 * Math.PI),
        center[1]! + radius * Math.sin((i / 64) * 2 * Math.PI),
      ])
    : undefined;
  let pin: Coordinate = center;
  const label = options.label ?? formatPricePill(options.price);
  const marks = createMarks<null>({
    zIndex: 3,
    shapes: () =>
      circle
        ? [{ kind: 'rings', rings: [circle], style: CIRCLE_STYLE }]
        : [{ kind: 'image', at: pin, image: pill(label, 'normal'), z: 0, item: null }],
  });
  const view = new View({ center, zoom: LOCATION_ZOOM, maxZoom: 19, minZoom: 5 });
  const map = new OlMap({
    target: options.target,
    controls: [],
    // the wheel scrolls the page; keyboards zoom with the buttons beside it (location-map.tsx)
    interactions: interactions(true),
    layers: [...underlay(options.tileUrl).layers, marks.layer],
    view,
  });
  // what the map shows, on its box (a pin or a circle, and how close), for the page and its tests
  const zoomNow = () => options.target.setAttribute('data-zoom', String(Math.round(view.getZoom() ?? LOCATION_ZOOM)));
  map.on('moveend', zoomNow);
  const pick = options.onPick;
  if (pick)
    map.on('singleclick', (event) => {
      pin = event.coordinate;
      marks.changed();
      const [lng, lat] = toLonLat(event.coordinate) as [number, number];
      pick(lat, lng);
    });
  if (circle)
    view.fit(boundingExtent(circle.map((c) => [...c])), {
      size: map.getSize() ?? [400, 240],
      padding: [24, 24, 24, 24],
      maxZoom: LOCATION_ZOOM,
    });
  return {
    kind,
    map,
    zoomBy: (delta) => view.animate({ zoom: (view.getZoom() ?? LOCATION_ZOOM) + delta, duration: 200 }),
    updateSize: () => map.updateSize(),
    dispose: () => {
      map.setTarget(undefined);
      map.dispose();
    },
  };
}
