/**
 * What lies under the maps' listings (ol-map.ts, ol-location.ts): the tiles, Ecuador and its
 * neighbours drawn under them, so pins never float on white when tiles cannot load, and how the
 * visitor moves the map.
 */
import Kinetic from 'ol/Kinetic.js';
import DoubleClickZoom from 'ol/interaction/DoubleClickZoom.js';
import DragPan from 'ol/interaction/DragPan.js';
import KeyboardPan from 'ol/interaction/KeyboardPan.js';
import KeyboardZoom from 'ol/interaction/KeyboardZoom.js';
import MouseWheelZoom from 'ol/interaction/MouseWheelZoom.js';
import PinchZoom from 'ol/interaction/PinchZoom.js';
import type Layer from 'ol/layer/Layer.js';
import TileLayer from 'ol/layer/Tile.js';
import { fromLonLat } from 'ol/proj.js';
import XYZ from 'ol/source/XYZ.js';
import outline, { type Outline } from 'virtual:ecuador-outline';
import { OUTLINE_STYLES } from './map-styles.ts';
import { createMarks, type Coordinate } from './marks-layer.ts';

/**
 * The tiles when an element names none (its `tile-url`): OpenStreetMap's own, for development only
 * (docs/deployment.md, "Map tiles"; the server says so at start in production: server/config.ts).
 */
const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * OpenLayers' default interactions without rotation (a listings map keeps north up) and without
 * shift-drag box zoom: pan (with kinetic), pinch, double click, and the wheel and the keyboard
 * unless `still` (a small map inside a page or dialog that scrolls: the wheel scrolls it, and the
 * keyboard zooms with its buttons).
 */
export function interactions(still = false) {
  const moves = [new DoubleClickZoom(), new DragPan({ kinetic: new Kinetic(-0.005, 0.05, 100) }), new PinchZoom()];
  return still ? moves : [...moves, new KeyboardPan(), new KeyboardZoom(), new MouseWheelZoom()];
}

/** The tiles of a map and the outline under them. */
export interface Underlay {
  /** the outline, then the tiles (the map's first two layers) */
  readonly layers: [Layer, TileLayer];
  /** another provider's tiles (an element's new `tile-url`): the outline again until its first tile */
  setTileUrl(url: string | undefined): void;
}

/**
 * The tiles (`url`, else OpenStreetMap's own) and, under them, the outline, drawn only while it
 * can be seen: until the first tile has come, and again from the first that fails. Tiles that load
 * hide it, and every frame of a map (one each time a tile arrives) drew it all the same: a third of
 * a frame's work at 4x CPU (docs/benchmarks.md "Measured apart"). The tiles appear without
 * fading in, one frame each instead of a frame every 16 ms for 150 ms.
 */
export function underlay(url: string | undefined): Underlay {
  const source = new XYZ({ url: url || OSM_TILES, crossOrigin: 'anonymous', maxZoom: 19, transition: 0 });
  const outline = ecuadorOutline();
  let failed = false;
  // a tile asked for before the provider changed speaks of the provider before (its key is that one's)
  source.on('tileloadend', (e) => {
    if (!failed && e.tile.key === source.getKey()) outline.setVisible(false);
  });
  source.on('tileloaderror', (e) => {
    if (e.tile.key !== source.getKey()) return;
    failed = true;
    outline.setVisible(true);
  });
  return {
    layers: [outline, new TileLayer({ source, zIndex: 1 })],
    setTileUrl(next) {
      const template = next || OSM_TILES;
      if (source.getUrls()?.[0] === template) return;
      failed = false;
      outline.setVisible(true);
      source.setUrl(template);
    },
  };
}

/** The outline's rings, fetched once for every map of the page (a failure is asked for again by the next map). */
let outlineLoad: Promise<Outline> | undefined;

/**
 * Ecuador's outline in degrees: in the chunk when small enough, else fetched beside it. A map asks
 * for it in a task of its own before it makes its layers (ol-map.ts createMap): starting the fetch
 * is a few milliseconds of a slow phone's main thread.
 */
export function loadOutline(): Outline | Promise<Outline> {
  if (outline.data) return outline.data;
  outlineLoad ??= fetch(outline.url)
    .then((r) => (r.ok ? (r.json() as Promise<Outline>) : Promise.reject(new Error(`outline: ${r.status}`))))
    .catch((error: unknown) => {
      outlineLoad = undefined;
      throw error;
    });
  return outlineLoad;
}

/** The outline's layer (marks-layer.ts). */
function ecuadorOutline(): Layer {
  let rings: { ecuador: Coordinate[][]; neighbours: Coordinate[][] } | null = null;
  const project = (o: Outline) => {
    const mercator = (list: Outline['ecuador']) => list.map((ring) => ring.map((c) => fromLonLat(c)));
    rings = { ecuador: mercator(o.ecuador), neighbours: mercator(o.neighbours) };
    marks.changed();
  };
  const marks = createMarks<never>({
    zIndex: 0,
    shapes: () =>
      rings
        ? [
            { kind: 'rings', rings: rings.neighbours, style: OUTLINE_STYLES.neighbour },
            { kind: 'rings', rings: rings.ecuador, style: OUTLINE_STYLES.ecuador },
          ]
        : [],
  });
  const loaded = loadOutline();
  if (loaded instanceof Promise)
    loaded.then(project).catch((error: unknown) => console.warn('[exp] the map outline did not load:', error));
  else project(loaded);
  return marks.layer;
}
