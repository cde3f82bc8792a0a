/**
 * The OpenLayers map, in its own lazily loaded chunk: the controller that map-panel.tsx drives.
 * It composes the map's behaviours, one module each: the pins (clustered in the browser above 10:
 * ol-pins.ts, ol-cluster.ts), the database's cells (ol-cells.ts; what to ask for and when:
 * cell-loader.ts), pins that share a spot spread out (ol-spread.ts), the popup (ol-popup.ts), what
 * the pointer does (ol-pointer.ts) and how the view moves (ol-moves.ts), over the outline and with
 * the interactions of map-base.ts. The pins, cells and spread are one layer of marks
 * (marks-layer.ts; how each looks: map-styles.ts).
 */
import OlMap from 'ol/Map.js';
import View from 'ol/View.js';
import { boundingExtent, isEmpty, type Extent } from 'ol/extent.js';
import { fromLonLat, toLonLat } from 'ol/proj.js';
import type { CellLoader } from './cell-loader.ts';
import { yieldToMain } from '../main-thread.ts';
import { interactions, loadOutline, underlay, type Underlay } from './map-base.ts';
import { prepareMap } from './map-styles.ts';
import { createMarks, type Coordinate, type Marks } from './marks-layer.ts';
import { createCells, type CellHit, type CellLayer } from './ol-cells.ts';
import { DEFAULT_ZOOM, QUITO_CENTER, createMoves } from './ol-moves.ts';
import { createPins, type PinLayers } from './ol-pins.ts';
import { listenToPointer } from './ol-pointer.ts';
import { createPopup } from './ol-popup.ts';
import { createSpread, type SpreadLayer } from './ol-spread.ts';

export type { CellLoader };

/** more pins than this are clustered (docs/product.md §9) */
export const CLUSTER_ABOVE = 10;

export interface MapPin {
  id: string;
  lat: number;
  lng: number;
  price: number;
  approximate: boolean;
  /** its price was cut lately (core/protocol/listing.ts recentPriceCut): the pill says ↓ */
  reduced?: boolean;
  /** it has an open house to come (docs/visits.md "Open houses"): the pill says ⌂ */
  openHouse?: boolean;
  /** its price as the pill says it when not a sale's ("$850/month": core/protocol/listing.ts listingPrice) */
  priceLabel?: string;
}

export interface MapOptions {
  shadowRoot: ShadowRoot | null;
  tileUrl?: string | undefined;
  onPinClick: (id: string) => void;
  onHover: (id: string | null) => void;
  /** the visitor panned or zoomed (not our own fitting) */
  onUserMove: () => void;
  /** the popup's element, filled by the caller */
  popup: HTMLElement;
  /** the listings of a cell whose listings sit on one spot ([west, south, east, north] of the cell's listings) */
  onExpand?: (bounds: [number, number, number, number]) => Promise<MapPin[]>;
}

export interface MapController {
  /**
   * Puts the map into its container (once), in the frame after the container's size is known
   * (use-map.ts): the map measures it, and a layout that is still fresh costs nothing.
   */
  attach(target: HTMLElement): void;
  /**
   * Draws these pins instead of what was there: among the marks up to CLUSTER_ABOVE, else in the
   * browser's clusters, whose features are made a slice at a time (a phone stays responsive with
   * 2,000 pins); resolves once they are on the map (false: a newer call won).
   */
  setPins(pins: MapPin[], fit: boolean): Promise<boolean>;
  /**
   * Draws the database's clusters instead of pins: the loader is asked for the visible cells
   * after each pan or zoom (debounced, cached per zoom and area, a newer view always wins). With
   * `fit`, the view first fits every match. `onDrawn` hears the total drawn; `onError` a failure.
   */
  setCells(
    loader: CellLoader,
    fit: boolean,
    events: { onDrawn?: (count: number) => void; onError: (error: unknown) => void },
  ): void;
  /** a pin (or a cell's only listing) on the map now */
  pinOf(id: string): MapPin | undefined;
  /** a tile URL template (undefined: OpenStreetMap) */
  setTileUrl(url: string | undefined): void;
  setHighlight(id: string | null): void;
  showPopup(id: string | null): void;
  /** [west, south, east, north] of what is visible */
  visibleBbox(): [number, number, number, number];
  zoomBy(delta: number): void;
  updateSize(): void;
  dispose(): void;
  readonly map: OlMap;
}

/** What the test build adds to the controller (import.meta.env.EXP_TEST_HOOKS; never in the production bundle). */
export interface MapTestHooks {
  /** number of clusters and pins drawn now */
  stats(): { clusters: number[]; singles: number };
  /** the database's cells drawn now: each one's count and where it is, in CSS pixels of the map */
  cells(): Array<{ count: number; pixel: [number, number] }>;
  /** the pins spread out around the spot they share, where each is drawn (CSS pixels of the map) */
  spread(): Array<{ id: string; pixel: [number, number] }>;
  /** where a pin is drawn, in CSS pixels of the map */
  pixelOf(id: string): [number, number] | undefined;
  /** where a place is, in CSS pixels of the map */
  pixelAt(lng: number, lat: number): [number, number];
  /** the pills of the listings drawn one by one (pins, or the database's cells of one) */
  singleLabels(): string[];
  /** whether Ecuador's outline is drawn under the tiles (map-base.ts underlay) */
  outlineShown(): boolean;
  /** how many tiles have failed to load since the map was made (heard after the underlay heard them) */
  tileErrors(): number;
  /** the tiles the view shows now: their zoom level and the range of their x and y */
  viewTiles(): { z: number; x: [number, number]; y: [number, number] };
  /** the listing whose pin is drawn highlighted (a card or the pin hovered), or null */
  highlighted(): string | null;
}

/**
 * How long the tiles wait for the view's first place (a search's fit) before they are asked for
 * where the map opened: data slower than this no longer leaves the map without streets.
 */
const PLACE_WAIT_MS = 4000;

/**
 * Makes the map a piece per task, so that a slow phone's main thread is never held for all of it at
 * once (a single task of 100 to 200 ms at 4x CPU: docs/benchmarks.md "Measured apart"): the outline
 * asked for; the tiles' and the outline's layers; the marks' layer and the view; then the map,
 * without its container (`attach` puts it in). Resolves null when `live()` says, between two
 * pieces, that it is no longer wanted.
 */
export async function createMap(options: MapOptions, live: () => boolean = () => true): Promise<MapController | null> {
  /** the next piece, in a task of its own, if the map is still wanted */
  const next = async () => {
    await yieldToMain();
    return live();
  };
  prepareMap(options.shadowRoot);
  // the layer takes the outline when it comes (ecuadorOutline); a failure there is its to tell
  void Promise.resolve(loadOutline()).catch(() => {});
  if (!(await next())) return null;

  const under = underlay(options.tileUrl);
  // The tiles wait for the view's first place: a search fits its matches as soon as it knows where
  // they are, and the tiles of where the map opens (Quito at zoom 12) were asked for, drawn and
  // thrown away, each frame a canvas the page sends again (docs/benchmarks.md "Measured apart").
  // The outline is drawn meanwhile; the wait starts when the map is in its container.
  const [, tiles] = under.layers;
  tiles.setVisible(false);
  let tilesShown = false;
  let placeWait: ReturnType<typeof setTimeout> | undefined;
  const placed = () => {
    if (tilesShown) return;
    tilesShown = true;
    clearTimeout(placeWait);
    tiles.setVisible(true);
  };
  if (!(await next())) return null;

  let highlighted: string | null = null;
  const view = new View({ center: fromLonLat(QUITO_CENTER), zoom: DEFAULT_ZOOM, maxZoom: 19, minZoom: 3 });
  const redraw = () => marks.changed();
  const pins = createPins({ highlighted: () => highlighted, zIndex: 3, map: () => map, redraw });
  const spread = createSpread({ view, look: pins.look, redraw });
  // the database's cells (many matches): a badge with the count, or the only listing's price pill
  const cells = createCells({
    view,
    size: () => map.getSize(),
    zoom: () => view.getZoom() ?? DEFAULT_ZOOM,
    look: pins.look,
    onRedraw: () => spread.clear(),
    redraw,
  });
  // the plain pins or the cells, and a spread above them, over the browser's clusters (zIndex 3)
  const marks: Marks<CellHit> = createMarks<CellHit>({
    zIndex: 4,
    shapes: () => [...cells.shapes(), ...pins.shapes(), ...spread.shapes()],
  });
  /** where a listing's pin is, or its cell when it is a cell's only listing */
  const placeOf = (id: string): Coordinate | undefined => (pins.byId(id) ?? cells.byId(id))?.at;
  const popup = createPopup(options.popup, (id) => spread.pointOf(id) ?? placeOf(id));
  if (!(await next())) return null;

  const map = new OlMap({
    layers: [...under.layers, marks.layer],
    overlays: [popup.overlay],
    view,
    // the zoom buttons and the tiles' credit are the element's own (map-panel.tsx): in its language and theme
    controls: [],
    interactions: interactions(),
  });

  // a spread stands in the map's units at the zoom it was made for: a zoom gathers it up, a pan keeps
  // it (the popup panning itself into view as the visitor points at a spread pin took the pin away
  // from under the pointer before the click)
  let spreadResolution = view.getResolution();
  const moves = createMoves(map, view, (byVisitor) => {
    const resolution = view.getResolution();
    if (resolution !== spreadResolution) spread.clear();
    spreadResolution = resolution;
    if (cells.active) cells.schedule();
    if (byVisitor) options.onUserMove();
  });
  // the view's first place, and each after: the tiles may come (a failing data call leaves them to the wait)
  const fitTo = (extent: Extent) => {
    moves.fitTo(extent);
    placed();
  };
  const fitEmpty = () => {
    moves.fitEmpty();
    placed();
  };
  const stopPointer = listenToPointer({ map, view, marks, pins, spread, moves }, options);
  // the latest setPins or setCells: an older setPins still making its features gives up
  let pinsTicket = 0;
  let disposed = false;

  /** the cells instead of the pins, or the pins instead of the cells */
  const showCells = (on: boolean) => {
    cells.setVisible(on);
    pins.setVisible(!on);
  };

  const controller: MapController = {
    map,
    attach(target) {
      if (map.getTarget()) return;
      map.setTarget(target);
      if (!tilesShown) placeWait = setTimeout(placed, PLACE_WAIT_MS);
    },
    setCells(loader, fit, events) {
      pinsTicket++;
      cells.stop();
      showCells(true);
      if (!fit) placed();
      cells.start(loader, { ...events, ...(fit && { fit: { extent: fitTo, empty: fitEmpty } }) });
    },
    pinOf(id) {
      const drawn = pins.byId(id) ?? cells.byId(id);
      if (!drawn) return undefined;
      const [lng, lat] = toLonLat([...drawn.at]);
      return { id, lat: lat!, lng: lng!, price: drawn.price, approximate: drawn.approximate };
    },
    async setPins(list, fit) {
      const ticket = ++pinsTicket;
      const live = () => ticket === pinsTicket && !disposed;
      cells.stop();
      cells.clear();
      spread.clear();
      if (!fit) placed();
      const drawn = pins.make(list);
      if (!(await pins.draw(drawn, list.length > CLUSTER_ABOVE, live))) return false;
      showCells(false);
      if (!fit) return true;
      if (!list.length) {
        fitEmpty();
        return true;
      }
      const extent: Extent = boundingExtent(drawn.map((p) => [...p.at]));
      if (isEmpty(extent) && list.length) return true;
      fitTo(extent);
      return true;
    },
    setTileUrl(url) {
      under.setTileUrl(url);
    },
    setHighlight(id) {
      if (id === highlighted) return;
      highlighted = id;
      pins.changed();
    },
    showPopup(id) {
      popup.show(id);
    },
    visibleBbox() {
      const [w, s, e, n] = view.calculateExtent(map.getSize());
      const [west, south] = toLonLat([w!, s!]);
      const [east, north] = toLonLat([e!, n!]);
      return [west!, south!, east!, north!];
    },
    zoomBy(delta) {
      const zoom = view.getZoom() ?? DEFAULT_ZOOM;
      view.animate({
        zoom: Math.max(view.getMinZoom(), Math.min(view.getMaxZoom(), Math.round(zoom) + delta)),
        duration: 250,
      });
    },
    updateSize() {
      map.updateSize();
    },
    dispose() {
      disposed = true;
      clearTimeout(placeWait);
      cells.stop();
      stopPointer();
      moves.dispose();
      popup.show(null);
      map.setTarget(undefined);
      map.dispose();
    },
  };
  if (import.meta.env.EXP_TEST_HOOKS)
    Object.assign(
      controller,
      testHooks(map, pins, cells, spread, placeOf, under, () => highlighted),
    );
  return controller;
}

/** The test build's view into the map (import.meta.env.EXP_TEST_HOOKS: never in the production bundle). */
function testHooks(
  map: OlMap,
  pins: PinLayers,
  cells: CellLayer,
  spread: SpreadLayer,
  placeOf: (id: string) => Coordinate | undefined,
  under: Underlay,
  highlighted: () => string | null,
): MapTestHooks {
  let tileErrors = 0;
  under.layers[1].getSource()?.on('tileloaderror', () => tileErrors++);
  const pixel = (at: Coordinate): [number, number] => {
    const px = map.getPixelFromCoordinate([...at]);
    return [px[0]!, px[1]!];
  };
  return {
    outlineShown: () => under.layers[0].getVisible(),
    highlighted,
    viewTiles() {
      const grid = under.layers[1].getSource()!.getTileGrid()!;
      const z = grid.getZForResolution(map.getView().getResolution()!);
      const range = grid.getTileRangeForExtentAndZ(map.getView().calculateExtent(map.getSize()), z);
      return { z, x: [range.minX, range.maxX], y: [range.minY, range.maxY] };
    },
    tileErrors: () => tileErrors,
    stats() {
      if (cells.active) {
        const counts = cells.list.map((c) => c.count);
        return { clusters: counts.filter((n) => n > 1), singles: counts.filter((n) => n === 1).length };
      }
      if (!pins.clustered) return { clusters: [], singles: pins.list.length };
      return pins.clusters?.stats() ?? { clusters: [], singles: 0 };
    },
    cells: () => cells.list.map((c) => ({ count: c.count, pixel: pixel(c.at) })),
    spread: () => spread.pins.map((p) => ({ id: p.id, pixel: pixel(p.at) })),
    pixelOf(id) {
      const at = placeOf(id);
      return at ? pixel(at) : undefined;
    },
    pixelAt: (lng, lat) => pixel(fromLonLat([lng, lat])),
    singleLabels() {
      const drawn = cells.active ? cells.list.filter((c) => c.count === 1) : pins.list;
      return drawn.map((c) => c.label);
    },
  };
}
