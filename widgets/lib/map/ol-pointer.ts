/**
 * What the pointer does on the search map (ol-map.ts composes it): a click on a pin opens its
 * listing, on a cluster or a cell zooms into it, or spreads its pins out where zooming cannot part
 * them (docs/product.md §9); a hover marks the listing both ways. While the visitor draws an area
 * (ol-draw.ts) neither is heard.
 */
import Feature from 'ol/Feature.js';
import type OlMap from 'ol/Map.js';
import type View from 'ol/View.js';
import { boundingExtent, getCenter, getHeight, getWidth } from 'ol/extent.js';
import Point from 'ol/geom/Point.js';
import { unByKey } from 'ol/Observable.js';
import { fromLonLat } from 'ol/proj.js';
import type { MapOptions } from './ol-map.ts';
import type { CellLayer } from './ol-cells.ts';
import { DEFAULT_ZOOM, type ViewMoves } from './ol-moves.ts';
import { pinLabel, type PinHit, type PinLayers } from './ol-pins.ts';
import type { SpreadLayer } from './ol-spread.ts';

type Hit = PinHit & { cell?: Feature<Point> };

interface Layers {
  map: OlMap;
  view: View;
  pins: PinLayers;
  cells: CellLayer;
  spread: SpreadLayer;
  moves: ViewMoves;
}

/** Listens to the pointer on the map; the returned function stops it. */
export function listenToPointer({ map, view, pins, cells, spread, moves }: Layers, options: MapOptions): () => void {
  const pinAt = (pixel: number[]): Hit | undefined => {
    let hit: Hit | undefined;
    map.forEachFeatureAtPixel(
      pixel,
      (f, layer) => {
        if (layer === spread.layer) {
          hit = spread.hit(f as Feature);
          return hit ? true : undefined;
        }
        if (layer === cells.layer) {
          hit = (f.get('count') as number) === 1 ? { id: f.get('id') as string } : { cell: f as Feature<Point> };
          return true;
        }
        hit = pins.hit(f as Feature);
        return true;
      },
      { hitTolerance: 4, layerFilter: (l) => pins.owns(l) || l === spread.layer || l === cells.layer },
    );
    return hit;
  };
  const lastZooms = (zoom: number) => zoom >= (view.getMaxZoom() ?? 19) - 1;

  /** a cell zooms to its listings' bounds; on one spot (or at the last zooms) they spread out */
  const openCell = (cell: Feature<Point>) => {
    const bounds = cell.get('bounds') as [number, number, number, number];
    const [w, s, e, n] = bounds;
    const extent = boundingExtent([fromLonLat([w, s]), fromLonLat([e, n])]);
    const zoom = view.getZoom() ?? DEFAULT_ZOOM;
    if (!(getWidth(extent) < 1 && getHeight(extent) < 1) && !lastZooms(zoom)) return moves.zoomInto(extent, zoom);
    const at = (cell.getGeometry() as Point).getCoordinates();
    options
      .onExpand?.(bounds)
      .then((list) =>
        spread.spread(
          list.map(
            (p) =>
              new Feature({
                geometry: new Point(fromLonLat([p.lng, p.lat])),
                id: p.id,
                label: pinLabel(p),
                approximate: p.approximate,
              }),
          ),
          at,
        ),
      )
      .catch((error: unknown) => console.warn('[exp] the listings of a cluster did not load:', error));
  };

  /** a cluster zooms in while zooming can still separate its pins; on one spot they spread out */
  const openCluster = (members: Feature[]) => {
    const extent = boundingExtent(members.map((m) => (m.getGeometry() as Point).getCoordinates()));
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
    options.target.style.cursor = hit ? 'pointer' : '';
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
