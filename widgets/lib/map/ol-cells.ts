/**
 * The database's cells on the search map (ol-map.ts composes them), drawn instead of pins when a
 * search has many matches: a badge with the count, or the only listing's price pill. What to ask
 * for and when, and which answer may draw, is cell-loader.ts's; this draws what it hands over.
 */
import type View from 'ol/View.js';
import { boundingExtent, type Extent } from 'ol/extent.js';
import { fromLonLat } from 'ol/proj.js';
import type { Size } from 'ol/size.js';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { feedCells, mergeCells, tileView, type CellFeed, type CellLoader, type MapCell } from './cell-loader.ts';
import { badgeZ } from './map-styles.ts';
import type { Coordinate, Shape } from './marks-layer.ts';
import type { PinHit, PinLook } from './ol-pins.ts';

/** A cell drawn: where (Web Mercator), its count, its listings' bounds, and its only listing's pill. */
export interface DrawnCell {
  readonly at: Coordinate;
  readonly count: number;
  readonly bounds: [number, number, number, number];
  /** the cell's only listing */
  readonly id: string | null;
  readonly label: string;
  readonly approximate: boolean;
  readonly price: number;
}

/** What is under the pointer among the cells: the only listing of a cell of one, or a cell. */
export type CellHit = PinHit & { cell?: DrawnCell };

/** What a cells' feed tells: the total drawn, a failure; and, to fit the view first, where every match is (or that there is none). */
export interface CellEvents {
  onDrawn?: (count: number) => void;
  onError: (error: unknown) => void;
  fit?: { extent: (extent: Extent) => void; empty: () => void };
}

export interface CellLayer {
  /** the cells drawn now */
  readonly list: readonly DrawnCell[];
  /** A cell of one listing drawn now, by the listing's id. */
  byId(id: string): DrawnCell | undefined;
  /** What the marks' layer draws of the cells now: a badge with the count, or the only listing's pill. */
  shapes(): Array<Shape<CellHit>>;
  /** Shows the cells or hides them. */
  setVisible(on: boolean): void;
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
 * Creates the cells (hidden until shown) for a view: `size()` the map's size, `zoom()` the view's
 * zoom, `look` draws a cell of one listing as its pin, `onRedraw` hears each redraw before it
 * happens, `redraw` asks the marks' layer to draw again.
 */
export function createCells(options: {
  view: View;
  size: () => Size | undefined;
  zoom: () => number;
  look: PinLook;
  onRedraw: () => void;
  redraw: () => void;
}): CellLayer {
  const { view, look } = options;
  let drawn: DrawnCell[] = [];
  let byId = new Map<string, DrawnCell>();
  let visible = false;
  /** The server's cells (cell-loader.ts): what is asked for, when, and which answer may draw. */
  let feed: CellFeed | null = null;
  const replace = (list: DrawnCell[]) => {
    drawn = list;
    byId = new Map(list.flatMap((c) => (c.id ? [[c.id, c]] : [])));
    options.redraw();
  };
  const draw = (list: MapCell[]) => {
    options.onRedraw();
    // badges that would overlap at this zoom (closer than 44 px) are drawn as one
    const reach = 44 * (view.getResolution() ?? 1);
    replace(
      mergeCells(list, reach, (lng, lat) => fromLonLat([lng, lat])).map((c) => ({
        at: fromLonLat([c.lng, c.lat]),
        count: c.count,
        bounds: c.bounds,
        id: c.id,
        label: c.priceLabel ?? formatPricePill(c.priceFrom ?? 0),
        approximate: c.approximate,
        price: c.priceFrom ?? 0,
      })),
    );
  };
  /** the visible area widened to whole tiles of the zoom */
  const cellView = () => {
    const size = options.size();
    return tileView(size ? view.calculateExtent(size) : [0, 0, 0, 0], options.zoom());
  };

  return {
    get list() {
      return drawn;
    },
    byId: (id) => byId.get(id),
    shapes() {
      if (!visible) return [];
      return drawn.map((c): Shape<CellHit> => {
        if (c.count === 1 && c.id) {
          return {
            kind: 'image',
            at: c.at,
            ...look({ id: c.id, label: c.label, approximate: c.approximate }),
            item: { id: c.id },
          };
        }
        return {
          kind: 'badge',
          at: c.at,
          count: c.count,
          highlighted: false,
          z: badgeZ(c.count, false),
          item: { cell: c },
        };
      });
    },
    setVisible(on) {
      visible = on;
      options.redraw();
    },
    get active() {
      return feed !== null;
    },
    start(loader, events) {
      replace([]);
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
      replace([]);
    },
  };
}
