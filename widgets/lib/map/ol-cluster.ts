/**
 * Pins clustered in the browser, animated as they split and merge (ol-ext's AnimatedCluster over
 * OpenLayers' Cluster source): only for a search of a few hundred matches with more than 10 pins
 * (docs/product.md §9). Its own chunk, loaded by the map when it first needs it, with OpenLayers'
 * vector stack (features, styles and their rendering), which the rest of the map does without
 * (marks-layer.ts): a broad search draws the database's clusters (docs/decisions.md #20) and never
 * downloads this. The pills and badges are the same images the marks draw (map-styles.ts), handed
 * over by the pins (ol-pins.ts), so that the drawings stay in the map's chunk alone.
 */
import Feature from 'ol/Feature.js';
import type OlMap from 'ol/Map.js';
import Point from 'ol/geom/Point.js';
import Cluster from 'ol/source/Cluster.js';
import VectorSource from 'ol/source/Vector.js';
import Icon from 'ol/style/Icon.js';
import Style from 'ol/style/Style.js';
import AnimatedCluster from 'ol-ext/layer/AnimatedCluster';
import { inSlices } from '../main-thread.ts';
import type { MarkImage } from './map-styles.ts';
import type { DrawnPin, PinHit, PinLook } from './ol-pins.ts';

/** Cluster pins closer than this many pixels. */
const CLUSTER_DISTANCE = 44;

export interface BrowserClusters {
  readonly layer: AnimatedCluster;
  /** Clusters these pins instead of those before, their features made a slice at a time (a phone stays responsive with 2,000 pins); false once `live()` turned false. */
  set(pins: readonly DrawnPin[], live: () => boolean): Promise<boolean>;
  /** The pin or the cluster under a pixel of the map. */
  hit(map: OlMap, pixel: number[]): PinHit | undefined;
  /** the clusters' sizes and the pins drawn alone (the test hooks) */
  stats(): { clusters: number[]; singles: number };
}

/** Each image of ours as an OpenLayers style, kept as long as map-styles.ts keeps the image (as OpenLayers' cluster example keeps one style per size). */
const styles = new WeakMap<MarkImage, Style>();

function styleOf(image: MarkImage, zIndex: number): Style {
  let style = styles.get(image);
  if (!style) {
    const { canvas, width, height, anchor } = image;
    style = new Style({
      image: new Icon({
        img: canvas,
        width,
        height,
        anchor: [anchor[0] / width, anchor[1] / height],
        anchorXUnits: 'fraction',
        anchorYUnits: 'fraction',
      }),
      zIndex,
    });
    styles.set(image, style);
  }
  return style;
}

export function browserClusters(options: {
  zIndex: number;
  look: PinLook;
  highlighted: () => string | null;
  /** a cluster's badge and its place among the marks (map-styles.ts; a pin's pill is its look) */
  images: {
    badge: (size: number, highlighted: boolean) => MarkImage;
    badgeZ: (size: number, highlighted: boolean) => number;
  };
}): BrowserClusters {
  const { badge, badgeZ } = options.images;
  const pins = new VectorSource<Feature<Point>>();
  const source = new Cluster({ source: pins, distance: CLUSTER_DISTANCE, minDistance: 12 });
  const pinOf = (f: Feature) => f.get('pin') as DrawnPin;
  const style = (cluster: Feature) => {
    const members = cluster.get('features') as Feature[] | undefined;
    if (!members || members.length === 1) {
      const { image, z } = options.look(pinOf(members?.[0] ?? cluster));
      return styleOf(image, z);
    }
    const on = options.highlighted();
    const lit = on !== null && members.some((m) => pinOf(m).id === on);
    return styleOf(badge(members.length, lit), badgeZ(members.length, lit));
  };
  const layer = new AnimatedCluster({
    source,
    style: style as (f: Feature) => Style,
    animationDuration: 350,
    zIndex: options.zIndex,
    visible: false,
  });
  return {
    layer,
    async set(list, live) {
      const features: Array<Feature<Point>> = [];
      const made = await inSlices(
        list,
        (p) => {
          const f = new Feature<Point>(new Point([...p.at]));
          f.set('pin', p, true);
          features.push(f);
        },
        live,
      );
      if (!made) return false;
      pins.clear();
      pins.addFeatures(features);
      return true;
    },
    hit(map, pixel) {
      let hit: PinHit | undefined;
      map.forEachFeatureAtPixel(
        pixel,
        (f) => {
          const members = (f.get('features') as Feature[] | undefined) ?? [f as Feature];
          hit = members.length > 1 ? { cluster: members.map(pinOf) } : { id: pinOf(members[0]!).id };
          return true;
        },
        { hitTolerance: 4, layerFilter: (l) => l === layer },
      );
      return hit;
    },
    stats() {
      const sizes = source.getFeatures().map((f) => (f.get('features') as Feature[]).length);
      const clusters = sizes.filter((n) => n > 1);
      return { clusters, singles: sizes.length - clusters.length };
    },
  };
}
