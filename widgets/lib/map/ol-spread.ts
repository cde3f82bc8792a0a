/**
 * Pins that share one spot on the search map (ol-map.ts composes them): zooming cannot tell them
 * apart, so they are laid out in a circle around it, each on a leg to the spot, on a layer above
 * the pins and the cells until the view moves or something else is drawn.
 */
import Feature from 'ol/Feature.js';
import type View from 'ol/View.js';
import LineString from 'ol/geom/LineString.js';
import Point from 'ol/geom/Point.js';
import VectorLayer from 'ol/layer/Vector.js';
import VectorSource from 'ol/source/Vector.js';
import type { Style } from 'ol/style.js';
import { LEG_STYLE } from './map-styles.ts';

export interface SpreadLayer {
  readonly layer: VectorLayer;
  /** Lays these pins (features with an id, a label and approximate) out in a circle around `at`, instead of any spread before. */
  spread(members: Feature[], at: number[]): void;
  /** What a feature found on the layer stands for: a spread-out pin's listing, or nothing (a leg). */
  hit(feature: Feature): { id: string } | undefined;
  /** Where a listing's spread-out pin is, if it is spread out now. */
  pointOf(id: string): Point | undefined;
  /** Gathers the spread pins back. */
  clear(): void;
}

/** Creates the layer of spread-out pins for a view (its resolution sets the circle's size); `pinStyle` draws each pin. */
export function createSpread(options: {
  view: View;
  pinStyle: (feature: Feature) => Style;
  zIndex: number;
}): SpreadLayer {
  const source = new VectorSource();
  const layer = new VectorLayer({
    source,
    zIndex: options.zIndex,
    style: (f) => (f.get('leg') ? LEG_STYLE : options.pinStyle(f as Feature)),
  });
  return {
    layer,
    spread(members, at) {
      source.clear();
      const resolution = options.view.getResolution() ?? 1;
      const n = members.length;
      const radius = Math.max(40, n * 9) * resolution;
      members.forEach((m, i) => {
        const angle = (2 * Math.PI * i) / n - Math.PI / 2;
        const pos = [at[0]! + radius * Math.cos(angle), at[1]! + radius * Math.sin(angle)];
        source.addFeature(new Feature({ geometry: new LineString([at, pos]), leg: true }));
        source.addFeature(
          new Feature({
            geometry: new Point(pos),
            id: m.get('id'),
            label: m.get('label'),
            approximate: m.get('approximate'),
          }),
        );
      });
    },
    hit: (f) => (f.get('leg') ? undefined : { id: f.get('id') as string }),
    pointOf(id) {
      const pin = source.getFeatures().find((x) => x.get('id') === id);
      return pin?.getGeometry() as Point | undefined;
    },
    clear() {
      source.clear();
    },
  };
}
