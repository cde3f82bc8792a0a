/**
 * Drawing an area on the map (docs/decisions.md #27), in its own chunk: loaded the first time a
 * visitor draws, or when the search already has a drawn area. A polygon by clicks or taps (a click
 * on the first point or a double click ends it), a freehand lasso with a finger or a pen; the area
 * shown with its corners to drag (Modify); every change reported as [lng, lat] points, simplified to
 * at most POLYGON_POINTS.max (core/protocol/polygon.ts validPolygon decides what is an area).
 */
import Feature from 'ol/Feature.js';
import type OlMap from 'ol/Map.js';
import type MapBrowserEvent from 'ol/MapBrowserEvent.js';
import Polygon from 'ol/geom/Polygon.js';
import Draw from 'ol/interaction/Draw.js';
import Modify from 'ol/interaction/Modify.js';
import VectorLayer from 'ol/layer/Vector.js';
import { fromLonLat, toLonLat } from 'ol/proj.js';
import VectorSource from 'ol/source/Vector.js';
import Fill from 'ol/style/Fill.js';
import Stroke from 'ol/style/Stroke.js';
import Style from 'ol/style/Style.js';
import CircleStyle from 'ol/style/Circle.js';
import { POLYGON_POINTS, validPolygon, type LngLat } from '../../../core/protocol/polygon.ts';

/** the ring as [lng, lat] points, fewer corners as needed (a lasso has hundreds) */
function toPoints(geometry: Polygon, resolution: number): LngLat[] | undefined {
  let tolerance = resolution * 2;
  let ring = geometry.simplify(tolerance) as Polygon;
  for (let i = 0; i < 12 && (ring.getCoordinates()[0]?.length ?? 0) > POLYGON_POINTS.max + 1; i++) {
    tolerance *= 2;
    ring = geometry.simplify(tolerance) as Polygon;
  }
  return validPolygon((ring.getCoordinates()[0] ?? []).map((c) => toLonLat(c) as LngLat));
}

export interface AreaOptions {
  /** the theme's colour for the outline */
  color: string;
  /** a new or edited area (undefined: what was drawn is no area, e.g. a line) */
  onChange: (points: LngLat[] | undefined) => void;
}

export interface AreaTool {
  /** shows this area, editable (undefined: none) */
  show(points: LngLat[] | undefined): void;
  /** starts drawing a new area; `onEnd` hears when drawing stops (drawn or cancelled) */
  draw(onEnd: () => void): void;
  /** stops drawing without an area */
  cancel(): void;
  dispose(): void;
}

export function areaTool(map: OlMap, options: AreaOptions): AreaTool {
  const source = new VectorSource<Feature<Polygon>>();
  const style = new Style({
    stroke: new Stroke({ color: options.color, width: 3 }),
    fill: new Fill({ color: 'rgba(18, 60, 105, 0.08)' }),
    image: new CircleStyle({
      radius: 6,
      fill: new Fill({ color: '#ffffff' }),
      stroke: new Stroke({ color: options.color, width: 2 }),
    }),
  });
  const layer = new VectorLayer({ source, style, zIndex: 2 });
  map.addLayer(layer);
  const modify = new Modify({ source, pixelTolerance: 14 });
  modify.on('modifyend', (e) => {
    const f = e.features.item(0) as Feature<Polygon> | undefined;
    const geometry = f?.getGeometry();
    if (geometry) options.onChange(toPoints(geometry, map.getView().getResolution() ?? 1));
  });
  map.addInteraction(modify);

  let drawing: { draw: Draw; onEnd: () => void } | null = null;
  const stop = () => {
    if (!drawing) return;
    const { draw, onEnd } = drawing;
    drawing = null;
    map.removeInteraction(draw);
    map.set('expDrawing', false);
    modify.setActive(true);
    onEnd();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && drawing) {
      e.stopPropagation();
      stop();
    }
  };
  const viewport = map.getViewport() as HTMLElement | undefined;
  viewport?.addEventListener('keydown', onKey);

  return {
    show(points) {
      source.clear();
      if (points)
        source.addFeature(new Feature(new Polygon([[...points, points[0] as LngLat].map((p) => fromLonLat(p))])));
    },
    draw(onEnd) {
      if (drawing) return;
      modify.setActive(false);
      const draw = new Draw({
        type: 'Polygon',
        style,
        // a finger or a pen draws a lasso; a mouse clicks corners
        freehandCondition: (e: MapBrowserEvent) =>
          (e.originalEvent as PointerEvent).pointerType === 'touch' ||
          (e.originalEvent as PointerEvent).pointerType === 'pen',
      });
      draw.on('drawend', (e) => {
        const geometry = e.feature.getGeometry() as Polygon;
        const points = toPoints(geometry, map.getView().getResolution() ?? 1);
        // the new area replaces the old; the source is filled again from the search's filters
        setTimeout(() => {
          stop();
          options.onChange(points);
        }, 0);
      });
      drawing = { draw, onEnd };
      // the map's own clicks (a pin, a cluster) wait while the visitor draws (ol-map.ts)
      map.set('expDrawing', true);
      map.addInteraction(draw);
    },
    cancel: stop,
    dispose() {
      stop();
      viewport?.removeEventListener('keydown', onKey);
      map.removeInteraction(modify);
      map.removeLayer(layer);
    },
  };
}
