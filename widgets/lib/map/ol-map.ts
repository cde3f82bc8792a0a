/**
 * The OpenLayers map, in its own lazily loaded chunk: the controller that map-panel.tsx drives.
 * It holds the layers (the outline and the interactions: map-base.ts; how each feature is drawn:
 * map-styles.ts), draws pins (clustered in the browser above 10, ol-cluster.ts) or the database's
 * cells (what to ask for and when: cell-loader.ts), spreads pins that share a spot, anchors the
 * popup, hovers both ways, and tells the visitor's own moves from ours for 'Search this area'.
 */
import Feature from 'ol/Feature.js';
import OlMap from 'ol/Map.js';
import Overlay from 'ol/Overlay.js';
import View from 'ol/View.js';
import { boundingExtent, buffer, getCenter, getHeight, getWidth, isEmpty, type Extent } from 'ol/extent.js';
import LineString from 'ol/geom/LineString.js';
import Point from 'ol/geom/Point.js';
import TileLayer from 'ol/layer/Tile.js';
import VectorLayer from 'ol/layer/Vector.js';
import { fromLonLat, toLonLat } from 'ol/proj.js';
import type Cluster from 'ol/source/Cluster.js';
import VectorSource from 'ol/source/Vector.js';
import XYZ from 'ol/source/XYZ.js';
import { Fill, Stroke, Style } from 'ol/style.js';
import Polygon from 'ol/geom/Polygon.js';
import type { StyleFunction } from 'ol/style/Style.js';
import type BaseLayer from 'ol/layer/Base.js';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { lazyChunk } from '../lazy-chunk.ts';
import { inSlices } from '../main-thread.ts';
import { feedCells, mergeCells, tileView, type CellFeed, type CellLoader, type MapCell } from './cell-loader.ts';
import { ecuadorOutline, interactions, OSM_TILES } from './map-base.ts';
import { clusterStyle, LEG_STYLE, pinStyle, prepareMap } from './map-styles.ts';

export { prepareMap };
export type { CellLoader };

/*
 * The listing's own small map (ol-location.ts, a chunk of its own) takes OpenLayers through this
 * module: a module two chunks import directly is moved into a third chunk, and the search page
 * would download OpenLayers in more, less compressible pieces (about 2 KB more).
 */
export { Feature, OlMap, View, Point, Polygon, TileLayer, VectorLayer, fromLonLat, VectorSource, XYZ, Fill, Stroke, Style, ecuadorOutline, interactions, OSM_TILES, pinStyle };

/** where the map opens before it knows where the listings are: Quito (core/protocol/places.ts QUITO), as [lng, lat]; written here so the map chunk does not take the places table */
export const QUITO_CENTER: [number, number] = [-78.4678, -0.1807];
export const DEFAULT_ZOOM = 12;
export const FIT_MAX_ZOOM = 16;
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
}

/** A pin's pill: its price, with ↓ when the price was cut lately. */
function pinLabel(p: MapPin): string {
  return `${p.reduced ? '↓ ' : ''}${formatPricePill(p.price)}`;
}

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

/** What the test build adds to the controller (import.meta.env.EXP_TEST_HOOKS; never in the production bundle). */
export interface MapTestHooks {
  /** number of clusters and pins drawn now */
  stats(): { clusters: number[]; singles: number };
  /** where a pin is drawn, in CSS pixels of the map */
  pixelOf(id: string): [number, number] | undefined;
  /** where a place is, in CSS pixels of the map */
  pixelAt(lng: number, lat: number): [number, number];
}

export function createMap(options: MapOptions): MapController {
  prepareMap(options.shadowRoot);
  const tileSource = new XYZ({ url: options.tileUrl || OSM_TILES, crossOrigin: 'anonymous', maxZoom: 19, transition: 150 });
  const tiles = new TileLayer({ source: tileSource, zIndex: 1 });
  const outlineLayer = ecuadorOutline();

  let highlighted: string | null = null;
  const pinsSource = new VectorSource<Feature<Point>>();
  // the browser's clusters (ol-cluster.ts), made the first time more than 10 pins are drawn
  let clusters: { layer: BaseLayer; source: Cluster } | null = null;
  const singleStyle = (f: Feature): Style => pinStyle(f.get('label') as string, f.get('id') === highlighted ? 'hover' : f.get('approximate') ? 'approximate' : 'normal');
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
    style: (f) => (f.get('leg') ? LEG_STYLE : singleStyle(f as Feature)),
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
    // while the visitor draws an area (ol-draw.ts) a click is a corner, not a pin
    if (map.get('expDrawing')) return;
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
          .then((pins) => spread(pins.map((p) => new Feature({ geometry: new Point(fromLonLat([p.lng, p.lat])), id: p.id, label: pinLabel(p), approximate: p.approximate })), at))
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
    if (e.dragging || map.get('expDrawing')) return;
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

  /** The server's cells (cell-loader.ts): what is asked for, when, and which answer may draw. */
  let cells: CellFeed | null = null;
  const showCellLayer = (on: boolean) => {
    cellLayer.setVisible(on);
    clusters?.layer.setVisible(!on && clustered);
    plainLayer.setVisible(!on && !clustered);
  };
  const drawCells = (list: MapCell[]) => {
    spreadSource.clear();
    cellSource.clear();
    // badges that would overlap at this zoom (closer than 44 px) are drawn as one
    const reach = 44 * (view.getResolution() ?? 1);
    cellSource.addFeatures(
      mergeCells(list, reach, (lng, lat) => fromLonLat([lng, lat])).map((c) => {
        const f = new Feature({ geometry: new Point(fromLonLat([c.lng, c.lat])), count: c.count, bounds: c.bounds, id: c.id, label: formatPricePill(c.priceFrom ?? 0), approximate: c.approximate, price: c.priceFrom });
        if (c.id) f.setId(c.id);
        return f;
      }),
    );
  };
  /** the visible area widened to whole tiles of the zoom */
  const cellView = () => {
    const size = map.getSize();
    return tileView(size ? view.calculateExtent(size) : [0, 0, 0, 0], view.getZoom() ?? DEFAULT_ZOOM);
  };

  const controller: MapController = {
    map,
    setCells(loader, fit, events) {
      pinsTicket++;
      cells?.stop();
      showCellLayer(true);
      cellSource.clear();
      cells = feedCells({
        loader,
        view: cellView,
        show: (list) => {
          drawCells(list);
          events.onDrawn?.(list.reduce((n, c) => n + c.count, 0));
        },
        onError: events.onError,
        ...(fit && {
          fit: (world: MapCell[]) => {
            const corners = world.flatMap((c) => [fromLonLat([c.bounds[0], c.bounds[1]]), fromLonLat([c.bounds[2], c.bounds[3]])]);
            asProgram(() => view.fit(buffer(boundingExtent(corners), 50), { padding: [48, 48, 48, 48], maxZoom: FIT_MAX_ZOOM, duration: 0 }));
          },
          empty: () => asProgram(() => view.animate({ center: fromLonLat(QUITO_CENTER), zoom: DEFAULT_ZOOM, duration: 0 })),
        }),
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
          f.setProperties({ id: p.id, label: pinLabel(p), approximate: p.approximate, price: p.price }, true);
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
      pixelAt(lng, lat) {
        const px = map.getPixelFromCoordinate(fromLonLat([lng, lat]));
        return [px[0]!, px[1]!];
      },
    };
    Object.assign(controller, hooks);
  }
  return controller;
}
