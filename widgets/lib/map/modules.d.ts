/** ol-ext has no typings; the one class we use, as we use it. */
declare module 'ol-ext/layer/AnimatedCluster' {
  import VectorLayer from 'ol/layer/Vector.js';
  import type Feature from 'ol/Feature.js';
  import type { StyleLike } from 'ol/style/Style.js';
  import type Cluster from 'ol/source/Cluster.js';
  export default class AnimatedCluster extends VectorLayer {
    constructor(options: {
      source: Cluster;
      style?: StyleLike | ((f: Feature) => unknown);
      animationDuration?: number;
      zIndex?: number;
      visible?: boolean;
    });
  }
}

/** Ecuador and its neighbours' outline, made at build time (scripts/ecuador-outline.ts). */
declare module 'virtual:ecuador-outline' {
  export interface Outline {
    ecuador: Array<Array<[number, number]>>;
    neighbours: Array<Array<[number, number]>>;
  }
  /** the data itself (single-file bundle, development) or where to fetch it (chunked build) */
  const outline: { data: Outline; url?: undefined } | { url: string; data?: undefined };
  export default outline;
}

interface ImportMetaEnv {
  /** true only in the test build (dist/test-widgets): the map's test hooks. */
  readonly EXP_TEST_HOOKS?: boolean;
}
