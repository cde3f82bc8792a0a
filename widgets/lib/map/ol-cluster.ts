/**
 * Pins clustered in the browser, animated as they split and merge (ol-ext's AnimatedCluster over
 * OpenLayers' Cluster source): only for a search of a few hundred matches with more than 10 pins
 * (docs/product.md §9). Its own chunk, loaded by the map when it first needs it: a broad search
 * draws the database's clusters (docs/decisions.md #20) and never downloads this.
 */
import type Feature from 'ol/Feature.js';
import type Point from 'ol/geom/Point.js';
import Cluster from 'ol/source/Cluster.js';
import type VectorSource from 'ol/source/Vector.js';
import type { StyleFunction } from 'ol/style/Style.js';
import AnimatedCluster from 'ol-ext/layer/AnimatedCluster';

/** Cluster pins closer than this many pixels. */
const CLUSTER_DISTANCE = 44;

export function clusterLayer(
  pins: VectorSource<Feature<Point>>,
  style: StyleFunction,
  zIndex: number,
): { layer: AnimatedCluster; source: Cluster } {
  const source = new Cluster({ source: pins, distance: CLUSTER_DISTANCE, minDistance: 12 });
  return { layer: new AnimatedCluster({ source, style, animationDuration: 350, zIndex, visible: false }), source };
}
