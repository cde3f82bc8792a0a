/**
 * What the pointer does on the search map (ol-map.ts composes it): a click on a pin opens its
 * listing, on a cluster or a cell zooms into it, or spreads its pins out where zooming cannot part
 * them (docs/product.md §9); a hover marks the listing both ways. While the visitor draws an area
 * (ol-draw.ts) neither is heard.
 */
import type OlMap from 'ol/Map.js';
import type View from 'ol/View.js';
import { boundingExtent, getCenter, getHeight, getWidth } from 'ol/extent.js';
import { unByKey } from 'ol/Observable.js';
import { fromLonLat } from 'ol/proj.js';
import type { Marks } from './marks-layer.ts';
import type { MapOptions } from './ol-map.ts';
import type { CellHit, DrawnCell } from './ol-cells.ts';
import { DEFAULT_ZOOM, type ViewMoves } from './ol-moves.ts';
import { pinLabel, type DrawnPin, type PinLayers } from './ol-pins.ts';
import type { SpreadLayer } from './ol-spread.ts';

interface Layers {
  map: OlMap;
  view: View;
  /** the marks' layer: the plain pins, the cells and the spread (ol-map.ts) */
  marks: Marks<CellHit>;
  pins: PinLayers;
  spread: SpreadLayer;
  moves: ViewMoves;
}

/** Listens to the pointer on the map; the returned function stops it. */
export function listenToPointer({ map, view, marks, pins, spread, moves }: Layers, options: MapOptions): () => void {
  // the marks (a spread above all) over the browser's clusters, 4 px around each
  const pinAt = (pixel: number[]): CellHit | undefined => marks.hit(pixel, 4) ?? pins.clusterHit(pixel);
  const lastZooms = (zoom: number) => zoom >= (view.getMaxZoom() ?? 19) - 1;

  /** a cell zooms to its listings' bounds; on one spot (or at the last zooms) they spread out */
  const openCell = (cell: DrawnCell) => {
    const bounds = cell.bounds;
    const [w, s, e, n] = bounds;
    const extent = boundingExtent([fromLonLat([w, s]), fromLonLat([e, n])]);
    const zoom = view.getZoom() ?? DEFAULT_ZOOM;
    if (!(getWidth(extent) < 1 && getHeight(extent) < 1) && !lastZooms(zoom)) return moves.zoomInto(extent, zoom);
    options
      .onExpand?.(bounds)
      .then((list) =>
        spread.spread(
          list.map((p) => ({ id: p.id, label: pinLabel(p), approximate: p.approximate })),
          cell.at,
        ),
      )
      .catch((error: unknown) => console.warn('[exp] the listings of a cluster did not load:', error));
  };

  /** a cluster zooms in while zooming can still separate its pins; on one spot they spread out */
  const openCluster = (members: readonly DrawnPin[]) => {
    const extent = boundingExtent(members.map((m) => [...m.at]));
    const zoom = view.getZoom() ?? DEFAULT_ZOOM;
    if ((getWidth(extent) < 1 && getHeight(extent) < 1) || lastZooms(zoom)) spread.spread(members, getCenter(extent));
    else moves.zoomInto(extent, zoom);
  };

  const click = map.on('singleclick', (e) => {
    if (map.get('expDrawing')) return;
    const hit = pinAt(e.pixel);
    if (!hit) spread.clear();
    else if (hit.id) options.onPinClick(hit.id);
    else if (hit.cell) openCell(hit.cell);
    else openCluster(hit.cluster ?? []);
  });

  let hovered: string | null = null;
  const hover = (id: string | null) => {
    if (id === hovered) return;
    hovered = id;
    options.onHover(id);
  };
  const move = map.on('pointermove', (e) => {
    if (e.dragging || map.get('expDrawing')) return;
    const hit = pinAt(e.pixel);
    const target = map.getTargetElement() as HTMLElement | null;
    if (target) target.style.cursor = hit ? 'pointer' : '';
    hover(hit?.id ?? null);
  });
  const leave = () => hover(null);
  const viewport = map.getViewport() as HTMLElement | undefined;
  viewport?.addEventListener('pointerleave', leave);
  return () => {
    unByKey([click, move]);
    viewport?.removeEventListener('pointerleave', leave);
  };
}
