/**
 * The search map's pins (ol-map.ts composes them): price pills among the map's marks
 * (marks-layer.ts), or the browser's clusters above CLUSTER_ABOVE (ol-cluster.ts, its own chunk
 * with OpenLayers' vector stack, loaded the first time it is needed); the look of each pin (its
 * pill; highlighted, approximate or plain: map-styles.ts).
 */
import type OlMap from 'ol/Map.js';
import { fromLonLat } from 'ol/proj.js';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { lazyChunk } from '../lazy-chunk.ts';
import { badge, badgeZ, pill, pinZ, type MarkImage, type PinState } from './map-styles.ts';
import type { Coordinate, Shape } from './marks-layer.ts';
import type { BrowserClusters } from './ol-cluster.ts';
import type { MapPin } from './ol-map.ts';

/** The browser's clustering (ol-cluster.ts): its own chunk, for small searches only */
const loadClusterChunk = lazyChunk(() => import('./ol-cluster.ts'));

/** A pin's pill: its price, with ⌂ when it has an open house to come and ↓ when the price was cut lately. */
export function pinLabel(p: MapPin): string {
  return `${p.openHouse ? '⌂ ' : ''}${p.reduced ? '↓ ' : ''}${p.priceLabel ?? formatPricePill(p.price)}`;
}

/** A listing drawn as a pill: where (Web Mercator), and what its pill says. */
export interface DrawnPin {
  readonly id: string;
  readonly at: Coordinate;
  readonly label: string;
  readonly approximate: boolean;
  readonly price: number;
}

/** What is under the pointer where pins are drawn: a pin (its listing's id), or a cluster's members. */
export interface PinHit {
  id?: string;
  cluster?: readonly DrawnPin[];
}

/** A listing's pill, highlighted or not, and its place among the marks: what the marks and the clusters draw. */
export type PinLook = (pin: Pick<DrawnPin, 'id' | 'label' | 'approximate'>) => { image: MarkImage; z: number };

export interface PinLayers {
  /** the pins drawn now, plain or clustered */
  readonly list: readonly DrawnPin[];
  /** the browser's clusters, once more than CLUSTER_ABOVE pins were drawn (the test hooks count them) */
  readonly clusters: BrowserClusters | null;
  /** whether the pins drawn now are clustered */
  readonly clustered: boolean;
  /** A pin's look: its pill, on top when it is the highlighted one, dashed when its position is approximate. */
  look: PinLook;
  /** The pins for these listings (where, and what their pills say). */
  make(pins: readonly MapPin[]): DrawnPin[];
  /** Draws these pins instead of what was there, in clusters when `cluster` (loading ol-cluster.ts first); false if `live()` turned false meanwhile. */
  draw(pins: DrawnPin[], cluster: boolean, live: () => boolean): Promise<boolean>;
  /** What the marks' layer draws of the pins now: the plain pins, when they are shown and not clustered. */
  shapes(): Array<Shape<PinHit>>;
  /** Shows the pins (plain or clustered, as drawn) or hides them. */
  setVisible(on: boolean): void;
  /** The clusters' pin or cluster under a pixel (the plain pins are found among the marks). */
  clusterHit(pixel: number[]): PinHit | undefined;
  /** Draws every pin again (the highlighted one changed). */
  changed(): void;
  /** A pin drawn now, by its listing's id. */
  byId(id: string): DrawnPin | undefined;
}

/** The pins (`highlighted()`: the listing drawn on top); the clusters' layer is added to the map when first needed. */
export function createPins(options: {
  highlighted: () => string | null;
  zIndex: number;
  map: () => OlMap;
  /** the marks' layer asked to draw again */
  redraw: () => void;
}): PinLayers {
  const { highlighted, zIndex } = options;
  let list: DrawnPin[] = [];
  let byId = new Map<string, DrawnPin>();
  // the browser's clusters (ol-cluster.ts), made the first time more than 10 pins are drawn
  let clusters: BrowserClusters | null = null;
  let clustered = false;
  let visible = false;
  const look: PinLook = (p) => {
    const state: PinState = p.id === highlighted() ? 'hover' : p.approximate ? 'approximate' : 'normal';
    return { image: pill(p.label, state), z: pinZ(state) };
  };

  return {
    get list() {
      return list;
    },
    get clusters() {
      return clusters;
    },
    get clustered() {
      return clustered;
    },
    look,
    make: (pins) =>
      pins.map((p) => ({
        id: p.id,
        at: fromLonLat([p.lng, p.lat]),
        label: pinLabel(p),
        approximate: p.approximate,
        price: p.price,
      })),
    async draw(pins, cluster, live) {
      if (cluster && !clusters) {
        try {
          const { browserClusters } = await loadClusterChunk();
          if (!live()) return false;
          clusters ??= browserClusters({ zIndex, look, highlighted, images: { badge, badgeZ } });
          options.map().addLayer(clusters.layer);
        } catch (error) {
          // every pin is still drawn, one by one
          console.warn('[exp] the map clusters did not load:', error);
          cluster = false;
        }
      }
      if (cluster && clusters && !(await clusters.set(pins, live))) return false;
      if (!cluster) clusters?.set([], live);
      list = pins;
      byId = new Map(pins.map((p) => [p.id, p]));
      clustered = cluster;
      options.redraw();
      return true;
    },
    shapes() {
      if (!visible || clustered) return [];
      return list.map((p) => {
        return { kind: 'image', at: p.at, ...look(p), item: { id: p.id } };
      });
    },
    setVisible(on) {
      visible = on;
      clusters?.layer.setVisible(on && clustered);
      options.redraw();
    },
    clusterHit: (pixel) => (visible && clustered ? clusters?.hit(options.map(), pixel) : undefined),
    changed() {
      clusters?.layer.changed();
      options.redraw();
    },
    byId: (id) => byId.get(id),
  };
}
