/**
 * The search map's pins (ol-map.ts composes them): one layer of price pills, or the browser's
 * clusters above CLUSTER_ABOVE (ol-cluster.ts, its own chunk, loaded the first time it is needed),
 * the style of each pin (its pill; highlighted, approximate or plain: map-styles.ts) and the
 * features made a slice at a time, so a phone stays responsive with 2,000 pins.
 */
import Feature from 'ol/Feature.js';
import type OlMap from 'ol/Map.js';
import Point from 'ol/geom/Point.js';
import type BaseLayer from 'ol/layer/Base.js';
import VectorLayer from 'ol/layer/Vector.js';
import { fromLonLat } from 'ol/proj.js';
import type Cluster from 'ol/source/Cluster.js';
import VectorSource from 'ol/source/Vector.js';
import type { Style } from 'ol/style.js';
import type { StyleFunction } from 'ol/style/Style.js';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { lazyChunk } from '../lazy-chunk.ts';
import { inSlices } from '../main-thread.ts';
import { clusterStyle, pinStyle } from './map-styles.ts';
import type { MapPin } from './ol-map.ts';

/** The browser's clustering (ol-cluster.ts): its own chunk, for small searches only */
const loadClusterChunk = lazyChunk(() => import('./ol-cluster.ts'));

/** A pin's pill: its price, with ⌂ when it has an open house to come and ↓ when the price was cut lately. */
export function pinLabel(p: MapPin): string {
  return `${p.openHouse ? '⌂ ' : ''}${p.reduced ? '↓ ' : ''}${p.priceLabel ?? formatPricePill(p.price)}`;
}

/** What is under the pointer on the pins' layers: a pin (its listing's id), or a cluster's members. */
export interface PinHit {
  id?: string;
  cluster?: Feature[];
}

export interface PinLayers {
  /** the pins drawn now, each by its listing's id */
  readonly source: VectorSource<Feature<Point>>;
  /** the plain layer (10 pins or fewer, or when the clusters did not load) */
  readonly layer: VectorLayer<VectorSource<Feature<Point>>>;
  /** the browser's clusters, once more than CLUSTER_ABOVE pins were drawn (the test hooks count them) */
  readonly clusters: { layer: BaseLayer; source: Cluster } | null;
  /** whether the pins drawn now are clustered */
  readonly clustered: boolean;
  /** A pin's style: its pill, on top when it is the highlighted one, dashed when its position is approximate. */
  style(feature: Feature): Style;
  /** Makes the features of these pins a slice at a time; undefined once `live()` says they are no longer wanted. */
  make(pins: MapPin[], live: () => boolean): Promise<Array<Feature<Point>> | undefined>;
  /** Draws these features instead of what was there, in clusters when `cluster` (loading ol-cluster.ts first); false if `live()` turned false meanwhile. */
  draw(features: Array<Feature<Point>>, cluster: boolean, live: () => boolean): Promise<boolean>;
  /** Shows the pins (plain or clustered, as drawn) or hides them. */
  setVisible(on: boolean): void;
  /** Whether a layer is one of the pins' layers. */
  owns(layer: unknown): boolean;
  /** What a feature found on the pins' layers stands for. */
  hit(feature: Feature): PinHit;
  /** Draws every pin again (the highlighted one changed). */
  changed(): void;
}

/** Creates the pins' plain layer (`highlighted()`: the listing drawn on top); the clusters' layer is added to the map when first needed. */
export function createPins(options: { highlighted: () => string | null; zIndex: number; map: () => OlMap }): PinLayers {
  const { highlighted, zIndex } = options;
  const source = new VectorSource<Feature<Point>>();
  // the browser's clusters (ol-cluster.ts), made the first time more than 10 pins are drawn
  let clusters: { layer: BaseLayer; source: Cluster } | null = null;
  let clustered = false;
  const style = (f: Feature): Style =>
    pinStyle(
      f.get('label') as string,
      f.get('id') === highlighted() ? 'hover' : f.get('approximate') ? 'approximate' : 'normal',
    );
  const clusteredStyle = (cluster: Feature) => {
    const members = cluster.get('features') as Feature[] | undefined;
    if (!members || members.length === 1) return style(members?.[0] ?? cluster);
    const on = highlighted();
    return clusterStyle(members.length, on !== null && members.some((m) => m.get('id') === on));
  };
  const plain = new VectorLayer({ source, style: (f) => style(f as Feature), zIndex, visible: false });

  return {
    source,
    layer: plain,
    get clusters() {
      return clusters;
    },
    get clustered() {
      return clustered;
    },
    style,
    async make(pins, live) {
      const features: Array<Feature<Point>> = [];
      const made = await inSlices(
        pins,
        (p) => {
          const f = new Feature<Point>(new Point(fromLonLat([p.lng, p.lat])));
          f.setProperties({ id: p.id, label: pinLabel(p), approximate: p.approximate, price: p.price }, true);
          f.setId(p.id);
          features.push(f);
        },
        live,
      );
      return made ? features : undefined;
    },
    async draw(features, cluster, live) {
      if (cluster && !clusters) {
        try {
          const { clusterLayer } = await loadClusterChunk();
          if (!live()) return false;
          clusters ??= clusterLayer(source, clusteredStyle as StyleFunction, zIndex);
          options.map().addLayer(clusters.layer);
        } catch (error) {
          // every pin is still drawn, one by one
          console.warn('[exp] the map clusters did not load:', error);
          cluster = false;
        }
      }
      source.clear();
      source.addFeatures(features);
      clustered = cluster;
      return true;
    },
    setVisible(on) {
      clusters?.layer.setVisible(on && clustered);
      plain.setVisible(on && !clustered);
    },
    owns: (layer) => layer === plain || layer === clusters?.layer,
    hit(f) {
      const members = f.get('features') as Feature[] | undefined;
      if (members && members.length > 1) return { cluster: members };
      return { id: ((members?.[0] ?? f) as Feature).get('id') as string };
    },
    changed() {
      clusters?.layer.changed();
      plain.changed();
    },
  };
}
