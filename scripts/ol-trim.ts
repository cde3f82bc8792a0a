/**
 * OpenLayers modules the map chunk carries but our map never runs, replaced at build time by stubs
 * that say so if they were ever reached (about 6 KB gzip of the map chunk):
 *  - the flat-style compiler (an expression language): our styles are Style objects and functions;
 *  - raster reprojection: our tiles are Web Mercator, as the view is;
 *  - UTM projections by code: we name no projection but Web Mercator and lon/lat;
 *  - the default controls and interactions the Map constructor falls back on: ours are given
 *    explicitly (widgets/lib/map/ol-map.ts), without rotation;
 *  - a vector layer's pixel hit detection (`layer.getFeatures(pixel)`): we find features with
 *    `map.forEachFeatureAtPixel`, which needs none of it (and it would pull in the immediate
 *    renderer, which only the browser's cluster animation uses, in its own chunk);
 *  - the vector stack the map's renderer reaches for vector layers alone: whether a layer is one
 *    that declutters its labels (none of ours does), and the expiry of the icons' cache (only the
 *    browser's clusters make icons, of our own canvases, which map-styles.ts keeps). The map's own
 *    marks are drawn without OpenLayers' vector layers (widgets/lib/map/marks-layer.ts), so these
 *    two imports were all that brought features, styles, geometries' rendering and the spatial
 *    index into the map's chunk (about 7 KB gzip); the clusters' and the drawing tool's chunks get
 *    the real modules, through their own imports;
 *  - the polygon class the view builds from an extent to fit it (`view.fit(extent)`), of which the
 *    fit reads only the corners: a polygon would bring the geometries' classes and their flat
 *    algorithms (about 3 KB gzip), which only drawing an area uses (in its own chunk).
 */
import type { Plugin } from 'vite';

interface Trim {
  /** the stub's name (one module, whichever OpenLayers module imports it) */
  name: string;
  /** the imports as written in OpenLayers' source, each with the module that imports it (its path in the package) */
  from: Array<[source: string, importer: string]>;
  stub: string;
}

const unbundled = (what: string) => `throw new Error('${what} is not bundled with the exp- map (scripts/ol-trim.ts)')`;

export const OL_TRIMS: Trim[] = [
  {
    name: 'flat-styles',
    from: [['../render/canvas/style.js', 'layer/BaseVector.js']],
    stub: `export function flatStyleLikeToStyleFunction() { ${unbundled('Flat styles')}; }`,
  },
  {
    name: 'reproj-tile',
    from: [
      ['../reproj/Tile.js', 'source/TileImage.js'],
      ['../../reproj/Tile.js', 'renderer/canvas/TileLayer.js'],
    ],
    stub: `export default class ReprojTile { constructor() { ${unbundled('Tile reprojection')}; } }`,
  },
  {
    name: 'utm',
    from: [['./proj/utm.js', 'proj.js']],
    stub: 'export function makeProjection() { return null; }\nexport function makeTransforms() { return null; }',
  },
  {
    name: 'default-controls',
    from: [['./control/defaults.js', 'Map.js']],
    stub: `export function defaults() { ${unbundled('The default controls')}; }`,
  },
  {
    name: 'hit-detection',
    from: [['../../render/canvas/hitdetect.js', 'renderer/canvas/VectorLayer.js']],
    stub: `export const HIT_DETECT_RESOLUTION = 0.5;\nexport function createHitDetectionImageData() { ${unbundled('Pixel hit detection')}; }\nexport function hitDetect() { ${unbundled('Pixel hit detection')}; }`,
  },
  {
    name: 'no-decluttering-layer',
    from: [['../layer/BaseVector.js', 'renderer/Composite.js']],
    // \`layer instanceof BaseVectorLayer && layer.getDeclutter()\`: never true for our layers
    stub: 'export default class NoDeclutteringLayer {}',
  },
  {
    name: 'icon-cache-kept',
    from: [['../style/IconImageCache.js', 'renderer/Map.js']],
    stub: 'export const shared = { canExpireCache: () => false, expire() {} };',
  },
  {
    name: 'extent-corners',
    from: [['./geom/Polygon.js', 'View.js']],
    // View.fit reads getFlatCoordinates and getStride (rotatedExtentForGeometry); it rotates only a circle's
    stub: `export function fromExtent(e) {
  const flat = [e[0], e[1], e[0], e[3], e[2], e[3], e[2], e[1], e[0], e[1]];
  return { getFlatCoordinates: () => flat, getStride: () => 2, rotate() { ${unbundled('Fitting a circle')}; } };
}`,
  },
  {
    name: 'default-interactions',
    from: [['./interaction/defaults.js', 'Map.js']],
    stub: `export function defaults() { ${unbundled('The default interactions')}; }`,
  },
];

export function olTrim(): Plugin {
  const prefix = '\0ol-trim:';
  return {
    name: 'exp-ol-trim',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return undefined;
      const from = importer.replace(/\\/g, '/');
      const trim = OL_TRIMS.find((t) => t.from.some(([s, i]) => s === source && from.endsWith(`/ol/${i}`)));
      return trim ? `${prefix}${trim.name}` : undefined;
    },
    load(id) {
      return id.startsWith(prefix) ? OL_TRIMS.find((t) => `${prefix}${t.name}` === id)?.stub : undefined;
    },
  };
}
