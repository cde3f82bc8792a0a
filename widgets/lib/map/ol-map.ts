/**
 * The OpenLayers map, in its own lazily loaded chunk: price pills, clusters (animated, ol-ext) when
 * there are more than 10 pins, pins spread out when a cluster sits on one spot, a popup anchor,
 * hover both ways, "moved by the visitor" for 'Search this area', and Ecuador's outline under the
 * tiles so pins never float on white when tiles cannot load.
 */
import Feature from 'ol/Feature.js';
import OlMap from 'ol/Map.js';
import Overlay from 'ol/Overlay.js';
import View from 'ol/View.js';
import { boundingExtent, buffer, getCenter, getHeight, getWidth, isEmpty, type Extent } from 'ol/extent.js';
import LineString from 'ol/geom/LineString.js';
import Point from 'ol/geom/Point.js';
import Polygon from 'ol/geom/Polygon.js';
import Kinetic from 'ol/Kinetic.js';
import DoubleClickZoom from 'ol/interaction/DoubleClickZoom.js';
import DragPan from 'ol/interaction/DragPan.js';
import KeyboardPan from 'ol/interaction/KeyboardPan.js';
import KeyboardZoom from 'ol/interaction/KeyboardZoom.js';
import MouseWheelZoom from 'ol/interaction/MouseWheelZoom.js';
import PinchZoom from 'ol/interaction/PinchZoom.js';
import TileLayer from 'ol/layer/Tile.js';
import VectorLayer from 'ol/layer/Vector.js';
import { fromLonLat, toLonLat } from 'ol/proj.js';
import type Cluster from 'ol/source/Cluster.js';
import VectorSource from 'ol/source/Vector.js';
import XYZ from 'ol/source/XYZ.js';
import { Circle as CircleStyle, Fill, Icon, Stroke, Style, Text } from 'ol/style.js';
import type { StyleFunction } from 'ol/style/Style.js';
import type BaseLayer from 'ol/layer/Base.js';
import outline, { type Outline } from 'virtual:ecuador-outline';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { lazyChunk } from '../lazy-chunk.ts';
import { inSlices } from '../main-thread.ts';
import { adoptSheet, sheetFor } from '../styles.ts';

export const QUITO_CENTER: [number, number] = [-78.4678, -0.1807];
export const DEFAULT_ZOOM = 12;
export const FIT_MAX_ZOOM = 16;
/** more pins than this are clustered (docs/product.md §9) */
export const CLUSTER_ABOVE = 10;
export const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

export interface MapPin {
  id: string;
  lat: number;
  lng: number;
  price: number;
  approximate: boolean;
}

/** A grid cell from the database (public.listing_clusters): a cluster, or one listing with its price. */
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
}

/** What the map asks the database for: the cells of a zoom over an area ([west, south, east, north]). */
export type CellLoader = (view: { zoom: number; bbox: [number, number, number, number] }, signal: AbortSignal) => Promise<MapCell[]>;

/** The cells are asked for after the view has rested this long (ms). */
export const CELLS_DEBOUNCE = 30;
const CELL_CACHE = 60;

export interface MapOptions {
  target: HTMLElement;
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
   * Draws these pins instead of what was there. The features are made a slice at a time (a phone
   * stays responsive with 2,000 pins); resolves once they are on the map (false: a newer call won).
   */
  setPins(pins: MapPin[], fit: boolean): Promise<boolean>;
  /**
   * Draws the database's clusters instead of pins: the loader is asked for the visible cells
   * after each pan or zoom (debounced, cached per zoom and area, a newer view always wins). With
   * `fit`, the view first fits every match. `onDrawn` hears the total drawn; `onError` a failure.
   */
  setCells(loader: CellLoader, fit: boolean, events: { onDrawn?: (count: number) => void; onError: (error: unknown) => void }): void;
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

/** The browser's clustering (ol-cluster.ts): its own chunk, for small searches only */
const loadClusterChunk = lazyChunk(() => import('./ol-cluster.ts'));

const pillCache = new Map<string, Icon>();

/** A rounded price pill drawn once per label and state, as an icon. */
function pill(label: string, state: 'normal' | 'hover' | 'approximate'): Icon {
  const key = `${label}|${state}`;
  let icon = pillCache.get(key);
  if (icon) return icon;
  const ratio = Math.min(2, globalThis.devicePixelRatio || 1);
  const font = '600 12px ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.font = font;
  const w = Math.ceil(ctx.measureText(label).width) + 16;
  const h = 24;
  canvas.width = (w + 2) * ratio;
  canvas.height = (h + 8) * ratio;
  ctx.scale(ratio, ratio);
  const bg = state === 'hover' ? '#123c69' : '#ffffff';
  const fg = state === 'hover' ? '#ffffff' : '#0f172a';
  ctx.beginPath();
  ctx.roundRect(1, 1, w, h, 12);
  ctx.moveTo(w / 2 - 5 + 1, h + 1);
  ctx.lineTo(w / 2 + 1, h + 7);
  ctx.lineTo(w / 2 + 5 + 1, h + 1);
  ctx.fillStyle = bg;
  ctx.shadowColor = 'rgba(15,23,42,0.25)';
  ctx.shadowBlur = 3;
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.lineWidth = 1;
  ctx.strokeStyle = state === 'hover' ? '#123c69' : '#94a3b8';
  if (state === 'approximate') ctx.setLineDash([3, 2]);
  ctx.stroke();
  ctx.fillStyle = fg;
  ctx.font = font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, w / 2 + 1, h / 2 + 1.5);
  icon = new Icon({ img: canvas, width: w + 2, height: h + 8, anchor: [0.5, 1], anchorXUnits: 'fraction', anchorYUnits: 'fraction' });
  pillCache.set(key, icon);
  return icon;
}

const clusterStyles = new Map<string, Style>();

/** Cluster badges: dark grey under 10, black from 10 (docs/product.md §9); one style per size. */
function clusterStyle(size: number, highlighted: boolean): Style {
  const key = `${size}|${highlighted}`;
  let style = clusterStyles.get(key);
  if (!style) {
    const radius = Math.min(30, 13 + Math.log2(size) * 3);
    style = new Style({
      image: new CircleStyle({
        radius,
        fill: new Fill({ color: size < 10 ? '#4b5563' : '#111111' }),
        stroke: new Stroke({ color: highlighted ? '#c8102e' : 'rgba(255,255,255,0.9)', width: highlighted ? 4 : 3 }),
      }),
      text: new Text({ text: String(size), font: '700 13px ui-sans-serif, system-ui, sans-serif', fill: new Fill({ color: '#ffffff' }) }),
      zIndex: highlighted ? 1000 : size,
    });
    clusterStyles.set(key, style);
  }
  return style;
}

/**
 * What of OpenLayers' own CSS (ol/ol.css) our map needs: its controls are ours (map-panel.tsx), so
 * only the viewport's rules. Adopted into the element's shadow root before the map is made
 * (prepareMap): a new sheet means a new style pass of the whole shadow tree, which should happen in
 * the browser's own frame, not forced by the map measuring its container.
 */
const MAP_CSS = `
.ol-viewport, .ol-unselectable { -webkit-touch-callout: none; -webkit-user-select: none; user-select: none; -webkit-tap-highlight-color: transparent; }
.ol-viewport { touch-action: pan-x pan-y; border-radius: inherit; }
.ol-viewport canvas { all: unset; overflow: hidden; }
.ol-selectable { -webkit-touch-callout: default; -webkit-user-select: text; user-select: text; }
.ol-grabbing { cursor: grabbing; }
.ol-grab { cursor: move; cursor: grab; }
.ol-unsupported { display: none; }
`;

export function prepareMap(root: ShadowRoot | null): void {
  if (root) adoptSheet(root, sheetFor(MAP_CSS));
}

/** What the test build adds to the controller (import.meta.env.EXP_TEST_HOOKS; never in the production bundle). */
export interface MapTestHooks {
  /** number of clusters and pins drawn now */
  stats(): { clusters: number[]; singles: number };
  /** where a pin is drawn, in CSS pixels of the map */
  pixelOf(id: string): [number, number] | undefined;
}

/**
 * OpenLayers' default interactions without rotation (a listings map keeps north up) and without
 * shift-drag box zoom: pan (with kinetic), pinch, wheel, double click and the keyboard.
 */
function interactions() {
  return [new DoubleClickZoom(), new DragPan({ kinetic: new Kinetic(-0.005, 0.05, 100) }), new PinchZoom(), new KeyboardPan(), new KeyboardZoom(), new MouseWheelZoom()];
}

export function createMap(options: MapOptions): MapController {
  prepareMap(options.shadowRoot);
  const tileSource = new XYZ({ url: options.tileUrl || OSM_TILES, crossOrigin: 'anonymous', maxZoom: 19, transition: 150 });
  const tiles = new TileLayer({ source: tileSource, zIndex: 1 });
  const land = new VectorSource();
  const addOutline = (o: Outline) =>
    land.addFeatures([
      ...o.neighbours.map((ring) => new Feature({ geometry: new Polygon([ring.map((c) => fromLonLat(c))]), kind: 'neighbour' })),
      ...o.ecuador.map((ring) => new Feature({ geometry: new Polygon([ring.map((c) => fromLonLat(c))]), kind: 'ecuador' })),
    ]);
  if (outline.data) addOutline(outline.data);
  else
    fetch(outline.url)
      .then((r) => (r.ok ? (r.json() as Promise<Outline>) : Promise.reject(new Error(`outline: ${r.status}`))))
      .then(addOutline)
      .catch((error: unknown) => console.warn('[exp] the map outline did not load:', error));
  const outlineLayer = new VectorLayer({
    source: land,
    zIndex: 0,
    style: (f) =>
      f.get('kind') === 'ecuador'
        ? new Style({ fill: new Fill({ color: '#f6f3ea' }), stroke: new Stroke({ color: '#9c9684', width: 1.2 }) })
        : new Style({ fill: new Fill({ color: '#eceae3' }), stroke: new Stroke({ color: '#c4bfb0', width: 1 }) }),
  });

  let highlighted: string | null = null;
  const pinsSource = new VectorSource<Feature<Point>>();
  // the browser's clusters (ol-cluster.ts), made the first time more than 10 pins are drawn
  let clusters: { layer: BaseLayer; source: Cluster } | null = null;
  const singleStyle = (f: Feature) => {
    const id = f.get('id') as string;
    return new Style({ image: pill(f.get('label') as string, id === highlighted ? 'hover' : f.get('approximate') ? 'approximate' : 'normal'), zIndex: id === highlighted ? 2000 : 10 });
  };
  const clusteredStyle = (cluster: Feature) => {
    const members = cluster.get('features') as Feature[] | undefined;
    if (!members || members.length === 1) return singleStyle(members?.[0] ?? cluster);
    return clusterStyle(members.length, highlighted !== null && members.some((m) => m.get('id') === highlighted));
  };
  const plainLayer = new VectorLayer({ source: pinsSource, style: (f) => singleStyle(f as Feature), zIndex: 3, visible: false });
  const spreadSource = new VectorSource();
  const spreadLayer = new VectorLayer({
    source: spreadSource,
    zIndex: 4,
    style: (f) => (f.get('leg') ? new Style({ stroke: new Stroke({ color: '#475569', width: 1.5 }) }) : singleStyle(f as Feature)),
  });

  // the database's cells (many matches): a badge with the count, or the only listing's price pill
  const cellSource = new VectorSource<Feature<Point>>();
  const cellLayer = new VectorLayer({
    source: cellSource,
    zIndex: 3,
    visible: false,
    style: (f) => {
      const count = f.get('count') as number;
      return count === 1 ? singleStyle(f as Feature) : clusterStyle(count, false);
    },
  });

  const view = new View({ center: fromLonLat(QUITO_CENTER), zoom: DEFAULT_ZOOM, maxZoom: 19, minZoom: 3 });
  const popup = new Overlay({ element: options.popup, positioning: 'bottom-center', offset: [0, -34], stopEvent: true, autoPan: { margin: 16, animation: { duration: 200 } } });
  const map = new OlMap({
    target: options.target,
    layers: [outlineLayer, tiles, plainLayer, cellLayer, spreadLayer],
    overlays: [popup],
    view,
    // the zoom buttons and the tiles' credit are the element's own (map-panel.tsx): in its language and theme
    controls: [],
    interactions: interactions(),
  });

  let programmatic = 0;
  const viewState = () => `${view.getCenter()?.join(',')}|${view.getResolution()}|${view.getRotation()}`;
  const asProgram = (fn: () => void) => {
    const before = viewState();
    programmatic++;
    fn();
    // a change that leaves the view where it was (a fit to the bounds it already shows) ends no
    // move: waiting for a moveend would take the visitor's next gesture for ours
    if (!view.getAnimating() && viewState() === before) {
      programmatic--;
      return;
    }
    // the view settles after animations; moveend of our own changes is not the visitor's
    map.once('moveend', () => setTimeout(() => (programmatic = Math.max(0, programmatic - 1)), 0));
  };
  // only a pan or zoom of the visitor's own counts as moved (not a resize of the window, not a fit)
  let gesture = false;
  const onGesture = () => {
    gesture = true;
  };
  const gestureTarget = map.getViewport() as HTMLElement;
  for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const) gestureTarget.addEventListener(type, onGesture, { passive: true, capture: true });
  const onMoveEnd = () => {
    spreadSource.clear();
    if (cells) cells.schedule();
    if (!programmatic && gesture) options.onUserMove();
    if (!programmatic) gesture = false;
  };
  map.on('moveend', onMoveEnd);

  let clustered = false;
  // the latest setPins or setCells: an older setPins still making its features gives up
  let pinsTicket = 0;
  let disposed = false;
  type Hit = { id?: string; cluster?: Feature[]; cell?: Feature<Point>; spread?: boolean };
  const pinAt = (pixel: number[]): Hit | undefined => {
    let hit: Hit | undefined;
    map.forEachFeatureAtPixel(
      pixel,
      (f, layer) => {
        if (layer === spreadLayer) {
          if (f.get('leg')) return undefined;
          hit = { id: f.get('id') as string, spread: true };
          return true;
        }
        if (layer === cellLayer) {
          hit = (f.get('count') as number) === 1 ? { id: f.get('id') as string } : { cell: f as Feature<Point> };
          return true;
        }
        const members = f.get('features') as Feature[] | undefined;
        if (members && members.length > 1) hit = { cluster: members };
        else hit = { id: ((members?.[0] ?? f) as Feature).get('id') as string };
        return true;
      },
      { hitTolerance: 4, layerFilter: (l) => l === clusters?.layer || l === plainLayer || l === spreadLayer || l === cellLayer },
    );
    return hit;
  };

  /** Pins on one spot cannot be told apart by zooming: lay them out in a circle around it. */
  const spread = (members: Feature[], at: number[]) => {
    spreadSource.clear();
    const resolution = view.getResolution() ?? 1;
    const n = members.length;
    const radius = Math.max(40, n * 9) * resolution;
    members.forEach((m, i) => {
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      const pos = [at[0]! + radius * Math.cos(angle), at[1]! + radius * Math.sin(angle)];
      spreadSource.addFeature(new Feature({ geometry: new LineString([at, pos]), leg: true }));
      spreadSource.addFeature(new Feature({ geometry: new Point(pos), id: m.get('id'), label: m.get('label'), approximate: m.get('approximate') }));
    });
  };

  map.on('singleclick', (e) => {
    const hit = pinAt(e.pixel);
    if (!hit) {
      spreadSource.clear();
      return;
    }
    if (hit.id) {
      options.onPinClick(hit.id);
      return;
    }
    if (hit.cell) {
      // a cell zooms to its listings' bounds; on one spot (or at the last zooms) they spread out
      const [w, s, e, n] = hit.cell.get('bounds') as [number, number, number, number];
      const extent = boundingExtent([fromLonLat([w, s]), fromLonLat([e, n])]);
      const zoom = view.getZoom() ?? DEFAULT_ZOOM;
      if ((getWidth(extent) < 1 && getHeight(extent) < 1) || zoom >= (view.getMaxZoom() ?? 19) - 1) {
        const at = (hit.cell.getGeometry() as Point).getCoordinates();
        options
          .onExpand?.(hit.cell.get('bounds') as [number, number, number, number])
          .then((pins) => spread(pins.map((p) => new Feature({ geometry: new Point(fromLonLat([p.lng, p.lat])), id: p.id, label: formatPricePill(p.price), approximate: p.approximate })), at))
          .catch((error: unknown) => console.warn('[exp] the listings of a cluster did not load:', error));
      } else asProgram(() => view.fit(buffer(extent, 1), { duration: 400, padding: [60, 60, 60, 60], maxZoom: Math.min(view.getMaxZoom(), zoom + 4) }));
      return;
    }
    const members = hit.cluster ?? [];
    const extent = boundingExtent(members.map((m) => (m.getGeometry() as Point).getCoordinates()));
    const zoom = view.getZoom() ?? DEFAULT_ZOOM;
    // a cluster zooms in while zooming can still separate its pins; on one spot they spread out
    if (getWidth(extent) < 1 && getHeight(extent) < 1) spread(members, getCenter(extent));
    else if (zoom >= (view.getMaxZoom() ?? 19) - 1) spread(members, getCenter(extent));
    else asProgram(() => view.fit(buffer(extent, 1), { duration: 400, padding: [60, 60, 60, 60], maxZoom: Math.min(view.getMaxZoom(), zoom + 4) }));
  });

  let hovered: string | null = null;
  map.on('pointermove', (e) => {
    if (e.dragging) return;
    const hit = pinAt(e.pixel);
    options.target.style.cursor = hit ? 'pointer' : '';
    const id = hit?.id ?? null;
    if (id !== hovered) {
      hovered = id;
      options.onHover(id);
    }
  });
  const onLeave = () => {
    if (hovered !== null) {
      hovered = null;
      options.onHover(null);
    }
  };
  const viewport = map.getViewport() as HTMLElement | undefined;
  viewport?.addEventListener('pointerleave', onLeave);

  /** The server's cells: what is drawn, what is cached, and which request may still draw. */
  let cells: { schedule(): void; stop(): void } | null = null;
  const showCellLayer = (on: boolean) => {
    cellLayer.setVisible(on);
    clusters?.layer.setVisible(!on && clustered);
    plainLayer.setVisible(!on && !clustered);
  };
  /**
   * Neighbouring cells whose badges would overlap (their listings' mean positions closer than the
   * cluster distance) are drawn as one: counts, bounds and prices add up exactly.
   */
  const mergeCells = (list: MapCell[]): MapCell[] => {
    const resolution = view.getResolution() ?? 1;
    const reach = 44 * resolution;
    const kept: Array<{ cell: MapCell; at: number[] }> = [];
    for (const cell of [...list].sort((a, b) => b.count - a.count)) {
      const at = fromLonLat([cell.lng, cell.lat]);
      const near = kept.find((k) => Math.abs(k.at[0]! - at[0]!) < reach && Math.abs(k.at[1]! - at[1]!) < reach);
      if (!near) {
        kept.push({ cell, at });
        continue;
      }
      const a = near.cell;
      const count = a.count + cell.count;
      const low = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.min(x, y));
      const high = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.max(x, y));
      near.cell = {
        count,
        lat: (a.lat * a.count + cell.lat * cell.count) / count,
        lng: (a.lng * a.count + cell.lng * cell.count) / count,
        bounds: [Math.min(a.bounds[0], cell.bounds[0]), Math.min(a.bounds[1], cell.bounds[1]), Math.max(a.bounds[2], cell.bounds[2]), Math.max(a.bounds[3], cell.bounds[3])],
        priceFrom: low(a.priceFrom, cell.priceFrom),
        priceTo: high(a.priceTo, cell.priceTo),
        id: null,
        approximate: a.approximate && cell.approximate,
      };
      near.at = fromLonLat([near.cell.lng, near.cell.lat]);
    }
    return kept.map((k) => k.cell);
  };
  const drawCells = (list: MapCell[]) => {
    spreadSource.clear();
    cellSource.clear();
    cellSource.addFeatures(
      mergeCells(list).map((c) => {
        const f = new Feature({ geometry: new Point(fromLonLat([c.lng, c.lat])), count: c.count, bounds: c.bounds, id: c.id, label: formatPricePill(c.priceFrom ?? 0), approximate: c.approximate, price: c.priceFrom });
        if (c.id) f.setId(c.id);
        return f;
      }),
    );
  };
  /** the visible area widened to whole 256 px tiles of the zoom, so views that differ a little share answers */
  const cellView = () => {
    const zoom = Math.max(0, Math.min(20, Math.round(view.getZoom() ?? DEFAULT_ZOOM)));
    const size = map.getSize();
    const [minX, minY, maxX, maxY] = size ? view.calculateExtent(size) : [0, 0, 0, 0];
    const tile = (2 * 20037508.342789244) / 2 ** zoom;
    const left = -20037508.342789244;
    const x0 = Math.max(0, Math.floor((minX! - left) / tile));
    const x1 = Math.min(2 ** zoom, Math.ceil((maxX! - left) / tile));
    const y0 = Math.max(0, Math.floor((minY! - left) / tile));
    const y1 = Math.min(2 ** zoom, Math.ceil((maxY! - left) / tile));
    const [west, south] = toLonLat([left + x0 * tile, left + y0 * tile]);
    const [east, north] = toLonLat([left + x1 * tile, left + y1 * tile]);
    return { key: `${zoom}/${x0}/${y0}/${x1}/${y1}`, zoom, bbox: [west!, south!, east!, north!] as [number, number, number, number] };
  };

  const controller: MapController = {
    map,
    setCells(loader, fit, events) {
      pinsTicket++;
      cells?.stop();
      showCellLayer(true);
      const cache = new Map<string, MapCell[]>();
      let timer: ReturnType<typeof setTimeout> | undefined;
      let pending: AbortController | undefined;
      let pendingKey = '';
      let latest = 0;
      let stopped = false;
      // the whole world's call of a fit is on its way: the view it will fit to loads after it, and
      // a move before (the map's first render, a resize) neither loads nor cancels it
      let fitting = false;
      const show = (list: MapCell[]) => {
        drawCells(list);
        events.onDrawn?.(list.reduce((n, c) => n + c.count, 0));
      };
      const load = () => {
        if (stopped) return;
        const v = cellView();
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
            events.onError(error);
          });
      };
      const state = {
        schedule() {
          clearTimeout(timer);
          if (!fitting) timer = setTimeout(load, CELLS_DEBOUNCE);
        },
        stop() {
          stopped = true;
          clearTimeout(timer);
          pending?.abort();
        },
      };
      cells = state;
      cellSource.clear();
      if (!fit) return state.schedule();
      // every match: the whole world at a low zoom, then the view fitted to the matches' bounds
      const abort = new AbortController();
      pending = abort;
      fitting = true;
      loader({ zoom: 2, bbox: [-180, -85.0511, 180, 85.0511] }, abort.signal)
        .then((list) => {
          if (stopped || cells !== state) return;
          pending = undefined;
          fitting = false;
          if (!list.length) {
            asProgram(() => view.animate({ center: fromLonLat(QUITO_CENTER), zoom: DEFAULT_ZOOM, duration: 0 }));
            show([]);
            return;
          }
          const corners = list.flatMap((c) => [fromLonLat([c.bounds[0], c.bounds[1]]), fromLonLat([c.bounds[2], c.bounds[3]])]);
          asProgram(() => view.fit(buffer(boundingExtent(corners), 50), { padding: [48, 48, 48, 48], maxZoom: FIT_MAX_ZOOM, duration: 0 }));
          // the fitted view's cells, at once (a fit that does not move the view ends no move)
          clearTimeout(timer);
          load();
        })
        .catch((error: unknown) => {
          fitting = false;
          if (!abort.signal.aborted && !stopped) events.onError(error);
        });
    },
    pinOf(id) {
      const f = (pinsSource.getFeatureById(id) ?? cellSource.getFeatureById(id)) as Feature<Point> | null;
      if (!f) return undefined;
      const [lng, lat] = toLonLat(f.getGeometry()!.getCoordinates());
      return { id, lat: lat!, lng: lng!, price: Number(f.get('price') ?? 0), approximate: Boolean(f.get('approximate')) };
    },
    async setPins(pins, fit) {
      const ticket = ++pinsTicket;
      cells?.stop();
      cells = null;
      cellSource.clear();
      spreadSource.clear();
      const features: Array<Feature<Point>> = [];
      const made = await inSlices(
        pins,
        (p) => {
          const f = new Feature<Point>(new Point(fromLonLat([p.lng, p.lat])));
          f.setProperties({ id: p.id, label: formatPricePill(p.price), approximate: p.approximate, price: p.price }, true);
          f.setId(p.id);
          features.push(f);
        },
        () => ticket === pinsTicket && !disposed,
      );
      if (!made) return false;
      let cluster = pins.length > CLUSTER_ABOVE;
      if (cluster && !clusters) {
        try {
          const { clusterLayer } = await loadClusterChunk();
          if (ticket !== pinsTicket || disposed) return false;
          clusters ??= clusterLayer(pinsSource, clusteredStyle as StyleFunction, 3);
          map.addLayer(clusters.layer);
        } catch (error) {
          // every pin is still drawn, one by one
          console.warn('[exp] the map clusters did not load:', error);
          cluster = false;
        }
      }
      pinsSource.clear();
      pinsSource.addFeatures(features);
      clustered = cluster;
      showCellLayer(false);
      if (!fit) return true;
      if (!pins.length) {
        asProgram(() => view.animate({ center: fromLonLat(QUITO_CENTER), zoom: DEFAULT_ZOOM, duration: 0 }));
        return true;
      }
      const extent: Extent = boundingExtent(features.map((f) => f.getGeometry()!.getCoordinates()));
      if (isEmpty(extent) && pins.length) return true;
      asProgram(() => view.fit(buffer(extent, 50), { padding: [48, 48, 48, 48], maxZoom: FIT_MAX_ZOOM, duration: 0 }));
      return true;
    },
    setTileUrl(url) {
      const next = url || OSM_TILES;
      if (tileSource.getUrls()?.[0] !== next) tileSource.setUrl(next);
    },
    setHighlight(id) {
      if (id === highlighted) return;
      highlighted = id;
      clusters?.layer.changed();
      plainLayer.changed();
      cellLayer.changed();
      spreadLayer.changed();
    },
    showPopup(id) {
      const f = id ? ((pinsSource.getFeatureById(id) ?? cellSource.getFeatureById(id)) as Feature<Point> | null) : null;
      const spreadFeature = id ? spreadSource.getFeatures().find((x) => x.get('id') === id) : undefined;
      const geometry = (spreadFeature?.getGeometry() as Point | undefined) ?? f?.getGeometry();
      popup.setPosition(geometry ? geometry.getCoordinates() : undefined);
    },
    visibleBbox() {
      const [w, s, e, n] = view.calculateExtent(map.getSize());
      const [west, south] = toLonLat([w!, s!]);
      const [east, north] = toLonLat([e!, n!]);
      return [west!, south!, east!, north!];
    },
    zoomBy(delta) {
      const zoom = view.getZoom() ?? DEFAULT_ZOOM;
      view.animate({ zoom: Math.max(view.getMinZoom(), Math.min(view.getMaxZoom(), Math.round(zoom) + delta)), duration: 250 });
    },
    updateSize() {
      map.updateSize();
    },
    dispose() {
      disposed = true;
      cells?.stop();
      viewport?.removeEventListener('pointerleave', onLeave);
      map.un('moveend', onMoveEnd);
      for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const) gestureTarget.removeEventListener(type, onGesture, { capture: true });
      popup.setPosition(undefined);
      map.setTarget(undefined);
      map.dispose();
    },
  };
  if (import.meta.env.EXP_TEST_HOOKS) {
    const hooks: MapTestHooks = {
      stats() {
        if (cells) {
          const counts = cellSource.getFeatures().map((f) => f.get('count') as number);
          return { clusters: counts.filter((n) => n > 1), singles: counts.filter((n) => n === 1).length };
        }
        if (!clustered) return { clusters: [], singles: pinsSource.getFeatures().length };
        const all = clusters?.source.getFeatures() ?? [];
        const sizes = all.map((f) => (f.get('features') as Feature[]).length).filter((n) => n > 1);
        return { clusters: sizes, singles: all.length - sizes.length };
      },
      pixelOf(id) {
        const f = (pinsSource.getFeatureById(id) ?? cellSource.getFeatureById(id)) as Feature<Point> | null;
        const px = f ? map.getPixelFromCoordinate(f.getGeometry()!.getCoordinates()) : undefined;
        return px ? [px[0]!, px[1]!] : undefined;
      },
    };
    Object.assign(controller, hooks);
  }
  return controller;
}
