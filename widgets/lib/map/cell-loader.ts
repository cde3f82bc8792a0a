/**
 * The database's clusters for the view the visitor looks at (public.listing_clusters), without
 * OpenLayers: which cells to ask for (whole 256 px tiles of the zoom, so views that differ a little
 * share answers), when (after the view rests), what is kept (the last 60 views), which answer may
 * still draw (a newer view always wins), and a fit's order (the whole world first, then the view
 * fitted to its bounds). The map (ol-map.ts) draws what this hands it.
 */

/** A grid cell from the database: a cluster, or one listing with its price. */
export interface MapCell {
  count: number;
  lat: number;
  lng: number;
  /** the members' bounds, for zooming into the cell */
  bounds: [number, number, number, number];
  priceFrom: number | null;
  priceTo: number | null;
  /** the cell's only listing */
  id: string | null;
  approximate: boolean;
  /** its pill when it is not the price alone (a rent's: "$850/month") */
  priceLabel?: string;
}

/** [west, south, east, north] in degrees */
export type Bbox = [number, number, number, number];

/** What the map asks the database for: the cells of a zoom over an area. */
export type CellLoader = (view: { zoom: number; bbox: Bbox }, signal: AbortSignal) => Promise<MapCell[]>;

/** The cells are asked for after the view has rested this long (ms). */
const CELLS_DEBOUNCE = 30;
/** views whose answers are kept */
const CELL_CACHE = 60;
/** the whole world, asked for once to fit every match */
export const WORLD: Bbox = [-180, -85.0511, 180, 85.0511];

const HALF_WORLD = 20037508.342789244;
const RADIUS = 6378137;
const lonOf = (x: number) => (x / RADIUS) * (180 / Math.PI);
const latOf = (y: number) => (2 * Math.atan(Math.exp(y / RADIUS)) - Math.PI / 2) * (180 / Math.PI);

/** A view to ask for: a key for the cache, the zoom and the area in degrees. */
export interface CellView {
  key: string;
  zoom: number;
  bbox: Bbox;
}

/**
 * The visible extent (Web Mercator metres: [minX, minY, maxX, maxY]) widened to whole 256 px tiles
 * of the rounded zoom.
 */
export function tileView(extent: readonly number[], zoom: number): CellView {
  const z = Math.max(0, Math.min(20, Math.round(zoom)));
  const [minX = 0, minY = 0, maxX = 0, maxY = 0] = extent;
  const tile = (2 * HALF_WORLD) / 2 ** z;
  const x0 = Math.max(0, Math.floor((minX + HALF_WORLD) / tile));
  const x1 = Math.min(2 ** z, Math.ceil((maxX + HALF_WORLD) / tile));
  const y0 = Math.max(0, Math.floor((minY + HALF_WORLD) / tile));
  const y1 = Math.min(2 ** z, Math.ceil((maxY + HALF_WORLD) / tile));
  const at = (i: number) => -HALF_WORLD + i * tile;
  return {
    key: `${z}/${x0}/${y0}/${x1}/${y1}`,
    zoom: z,
    bbox: [lonOf(at(x0)), latOf(at(y0)), lonOf(at(x1)), latOf(at(y1))],
  };
}

/**
 * Neighbouring cells whose badges would overlap (their positions, as `project` places them, closer
 * than `reach` in each direction) become one: counts, bounds and prices add up exactly, the
 * position is the members' mean.
 */
export function mergeCells(
  list: readonly MapCell[],
  reach: number,
  project: (lng: number, lat: number) => number[],
): MapCell[] {
  const kept: Array<{ cell: MapCell; at: number[] }> = [];
  const low = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.min(x, y));
  const high = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.max(x, y));
  for (const cell of [...list].sort((a, b) => b.count - a.count)) {
    const at = project(cell.lng, cell.lat);
    const near = kept.find((k) => Math.abs(k.at[0]! - at[0]!) < reach && Math.abs(k.at[1]! - at[1]!) < reach);
    if (!near) {
      kept.push({ cell, at });
      continue;
    }
    const a = near.cell;
    const count = a.count + cell.count;
    near.cell = {
      count,
      lat: (a.lat * a.count + cell.lat * cell.count) / count,
      lng: (a.lng * a.count + cell.lng * cell.count) / count,
      bounds: [
        Math.min(a.bounds[0], cell.bounds[0]),
        Math.min(a.bounds[1], cell.bounds[1]),
        Math.max(a.bounds[2], cell.bounds[2]),
        Math.max(a.bounds[3], cell.bounds[3]),
      ],
      priceFrom: low(a.priceFrom, cell.priceFrom),
      priceTo: high(a.priceTo, cell.priceTo),
      id: null,
      approximate: a.approximate && cell.approximate,
    };
    near.at = project(near.cell.lng, near.cell.lat);
  }
  return kept.map((k) => k.cell);
}

export interface CellFeed {
  /** a view has rested: ask for its cells (debounced) */
  schedule(): void;
  stop(): void;
}

export interface CellFeedOptions {
  loader: CellLoader;
  /** the view the visitor looks at now */
  view: () => CellView;
  /** draw these cells (an answer for the view the visitor looks at) */
  show: (list: MapCell[]) => void;
  onError: (error: unknown) => void;
  /**
   * With a fit: the whole world's cells arrived (never empty); move the view to their bounds. Its
   * cells are asked for right after, whether or not the move ends in a move event.
   */
  fit?: (world: MapCell[]) => void;
  /** the whole world had no match: show the empty default view */
  empty?: () => void;
  debounce?: number;
}

/** Starts feeding the map with cells: at once for a fit, else after the view rests. */
export function feedCells(options: CellFeedOptions): CellFeed {
  const { loader, view, show, onError } = options;
  const wait = options.debounce ?? CELLS_DEBOUNCE;
  const cache = new Map<string, MapCell[]>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | undefined;
  let pendingKey = '';
  let latest = 0;
  let stopped = false;
  // the whole world's call of a fit is on its way: the view it will fit to loads after it, and a
  // move before (the map's first render, a resize) neither loads nor cancels it
  let fitting = false;

  const load = () => {
    if (stopped) return;
    const v = view();
    // the same view already on its way
    if (pending && !pending.signal.aborted && pendingKey === v.key) return;
    const ticket = ++latest;
    pending?.abort();
    pending = undefined;
    const known = cache.get(v.key);
    if (known) {
      cache.delete(v.key);
      cache.set(v.key, known);
      show(known);
      return;
    }
    const abort = new AbortController();
    pending = abort;
    pendingKey = v.key;
    loader({ zoom: v.zoom, bbox: v.bbox }, abort.signal)
      .then((list) => {
        if (pending === abort) pending = undefined;
        cache.set(v.key, list);
        if (cache.size > CELL_CACHE) cache.delete(cache.keys().next().value as string);
        // an older answer never replaces a newer view's
        if (ticket === latest && !stopped) show(list);
      })
      .catch((error: unknown) => {
        if (pending === abort) pending = undefined;
        if (abort.signal.aborted || stopped) return;
        onError(error);
      });
  };

  const feed: CellFeed = {
    schedule() {
      clearTimeout(timer);
      if (!fitting && !stopped) timer = setTimeout(load, wait);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      pending?.abort();
    },
  };

  if (!options.fit) {
    feed.schedule();
    return feed;
  }
  // every match: the whole world at a low zoom, then the view fitted to the matches' bounds
  const fit = options.fit;
  const abort = new AbortController();
  pending = abort;
  pendingKey = '';
  fitting = true;
  loader({ zoom: 2, bbox: WORLD }, abort.signal)
    .then((list) => {
      if (stopped) return;
      pending = undefined;
      fitting = false;
      if (!list.length) {
        options.empty?.();
        show([]);
        return;
      }
      fit(list);
      // the fitted view's cells, at once (a fit that does not move the view ends no move)
      clearTimeout(timer);
      load();
    })
    .catch((error: unknown) => {
      fitting = false;
      if (!abort.signal.aborted && !stopped) onError(error);
    });
  return feed;
}
