/**
 * The database's cells on the search map (ol-map.ts composes them), drawn instead of pins when a
 * search has many matches: a badge with the count, or the only listing's price pill. What to ask
 * for and when, and which answer may draw, is cell-loader.ts's; this draws what it hands over.
 */
import Feature from 'ol/Feature.js';
import type View from 'ol/View.js';
import { boundingExtent, type Extent } from 'ol/extent.js';
import Point from 'ol/geom/Point.js';
import VectorLayer from 'ol/layer/Vector.js';
import { fromLonLat } from 'ol/proj.js';
import type { Size } from 'ol/size.js';
import VectorSource from 'ol/source/Vector.js';
import type { Style } from 'ol/style.js';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { feedCells, mergeCells, tileView, type CellFeed, type CellLoader, type MapCell } from './cell-loader.ts';
import { clusterStyle } from './map-styles.ts';

/** What a cells' feed tells: the total drawn, a failure; and, to fit the view first, where every match is (or that there is none). */
export interface CellEvents {
  onDrawn?: (count: number) => void;
  onError: (error: unknown) => void;
  fit?: { extent: (extent: Extent) => void; empty: () => void };
}

export interface CellLayer {
  readonly layer: VectorLayer<VectorSource<Feature<Point>>>;
  /** the cells drawn now (a cell of one listing by its id) */
  readonly source: VectorSource<Feature<Point>>;
  /** whether a loader feeds the cells now (between start and stop) */
  readonly active: boolean;
  /** Clears the cells and asks the loader for the visible ones from now on (and after each schedule), drawing each answer. */
  start(loader: CellLoader, events: CellEvents): void;
  /** Asks again for the visible cells, after the view moved (debounced by the feed). */
  schedule(): void;
  /** Stops asking; what is drawn stays. */
  stop(): void;
  /** Removes the cells drawn. */
  clear(): void;
}

/**
 * Creates the cells' layer (hidden until shown) for a view: `size()` the map's size, `zoom()` the
 * view's zoom, `pinStyle` draws a cell of one listing, `onRedraw` hears each redraw before it happens.
 */
export function createCells(options: {
  view: View;
  size: () => Size | undefined;
  zoom: () => number;
  pinStyle: (feature: Feature) => Style;
  onRedraw: () => void;
  zIndex: number;
}): CellLayer {
  const { view, pinStyle } = options;
  const source = new VectorSource<Feature<Point>>();
  const layer = new VectorLayer({
    source,
    zIndex: options.zIndex,
    visible: false,
    style: (f) => {
      const count = f.get('count') as number;
      return count === 1 ? pinStyle(f as Feature) : clusterStyle(count, false);
    },
  });
  /** The server's cells (cell-loader.ts): what is asked for, when, and which answer may draw. */
  let feed: CellFeed | null = null;
  const draw = (list: MapCell[]) => {
    options.onRedraw();
    source.clear();
    // badges that would overlap at this zoom (closer than 44 px) are drawn as one
    const reach = 44 * (view.getResolution() ?? 1);
    source.addFeatures(
      mergeCells(list, reach, (lng, lat) => fromLonLat([lng, lat])).map((c) => {
        const f = new Feature({
          geometry: new Point(fromLonLat([c.lng, c.lat])),
          count: c.count,
          bounds: c.bounds,
          id: c.id,
          label: c.priceLabel ?? formatPricePill(c.priceFrom ?? 0),
          approximate: c.approximate,
          price: c.priceFrom,
        });
        if (c.id) f.setId(c.id);
        return f;
      }),
    );
  };
  /** the visible area widened to whole tiles of the zoom */
  const cellView = () => {
    const size = options.size();
    return tileView(size ? view.calculateExtent(size) : [0, 0, 0, 0], options.zoom());
  };

  return {
    layer,
    source,
    get active() {
      return feed !== null;
    },
    start(loader, events) {
      source.clear();
      const fit = events.fit;
      feed = feedCells({
        loader,
        view: cellView,
        show: (list) => {
          draw(list);
          events.onDrawn?.(list.reduce((n, c) => n + c.count, 0));
        },
        onError: events.onError,
        ...(fit && {
          fit: (world: MapCell[]) =>
            fit.extent(
              boundingExtent(
                world.flatMap((c) => [fromLonLat([c.bounds[0], c.bounds[1]]), fromLonLat([c.bounds[2], c.bounds[3]])]),
              ),
            ),
          empty: fit.empty,
        }),
      });
    },
    schedule() {
      feed?.schedule();
    },
    stop() {
      feed?.stop();
      feed = null;
    },
    clear() {
      source.clear();
    },
  };
}
