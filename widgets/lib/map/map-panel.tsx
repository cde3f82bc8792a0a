/**
 * The map beside the list (docs/product.md §2, §4, §5, §8, §9; docs/decisions.md #3, #20), shared
 * by <exp-property-search> and <exp-property-map>. It shows every listing matching the filters, not
 * only the page: up to 2,000 matches as pins clustered in the browser (the light call, loaded once
 * per search: a page or sort change never reloads it); above that, the database's clusters of the
 * visible area (public.listing_clusters), asked for again as the visitor pans and zooms. If the
 * clusters cannot be had, the 5,000 newest pins. States 'Loading map...', ready, 'Error loading map'; when the map fails it falls back
 * to the simplified map (a list of 6), says so in a toast, and tries the real map once more after
 * 2 s. OpenLayers loads only when a map is shown; its labels and tiles follow the element live.
 */
import type { ReadonlySignal } from '@preact/signals-react';
import { memo, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { formatCount } from '../../../core/protocol/format.ts';
import type { Property } from '../../../core/protocol/listing.ts';
import { MAP_POINTS_LIMIT, type SearchFilters } from '../data/listings.ts';
import { useElement } from '../element.tsx';
import type { LngLat } from '../../../core/protocol/polygon.ts';
import { lazyChunk } from '../lazy-chunk.ts';
import { whenIdle } from '../main-thread.ts';
import { useStableCallback } from '../stable-callback.ts';
import {
  DrawButtons,
  MapCredit,
  MAP_HEIGHTS,
  SearchAreaButtons,
  SimplifiedMap,
  ZoomControls,
} from './map-controls.tsx';
import type { AreaTool } from './ol-draw.ts';
import type { MapController } from './ol-map.ts';
import { MapPopup } from './map-popup.tsx';
import { MapIcon } from '../ui/icons/map.tsx';
import { useMap, type MapInputs } from './use-map.ts';
import { useMapData } from './use-map-data.ts';

export interface MapPanelProps {
  filters: SearchFilters;
  /** the exact count of the search, once known (null while a page or a new search loads) */
  total: number | null;
  /** the page's properties (the fallback list and richer popups) */
  properties: Property[];
  /** the listing hovered (its pin drawn larger): read by the map alone, so a hover draws nothing else */
  hoveredId: ReadonlySignal<string | null>;
  onOpen: (id: string) => void;
  onHover: (id: string | null) => void;
  /** 'Search this area' (a bbox) and clearing it (undefined); omitted for maps without a search */
  onSearchArea?: (bbox: [number, number, number, number] | undefined) => void;
  areaActive?: boolean;
  /** the drawn area of the search, and drawing or removing one; omitted for maps without a search */
  polygon?: LngLat[] | undefined;
  onDrawArea?: (polygon: LngLat[] | undefined) => void;
  tileUrl?: string | undefined;
  /** the tiles' credit (the element's `tile-attribution`): OpenStreetMap's when none */
  tileAttribution?: string | undefined;
  /** no 'No Properties Found' toast: the search has said why it is empty (a place that is no place) */
  quietWhenEmpty?: boolean;
  /**
   * On a phone (the element narrower than 640 px) the map waits behind "Show the map", and nothing
   * of it is downloaded, asked for or drawn until the visitor asks (docs/product.md §2): the search's.
   */
  foldable?: boolean;
}

/** The visitor showed the map on a phone: it stays shown in this tab (the next search, the next page). */
const SHOWN_KEY = 'exp-map-shown';

function shownBefore(): boolean {
  try {
    return sessionStorage.getItem(SHOWN_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberShown(shown: boolean): void {
  try {
    if (shown) sessionStorage.setItem(SHOWN_KEY, '1');
    else sessionStorage.removeItem(SHOWN_KEY);
  } catch {
    // storage refused (a partner's sandbox, private mode): shown for this page only
  }
}

/** Renders again only when its own props change (not when the detail opens beside it). */
export const MapPanel = memo(function MapPanel(props: MapPanelProps) {
  const { t, toaster } = useElement();
  const [mode, setMode] = useState<'real' | 'fallback'>('real');
  const [attempt, setAttempt] = useState(1);
  const { foldable = false } = props;
  // unfolded on a phone (by the visitor, now or earlier in this tab); elsewhere the fold is never seen
  const [open, setOpen] = useState(!foldable);
  const toggle = useRef<HTMLButtonElement>(null);
  // the tab's memory is read where the fold is seen (a phone) once the page is idle: a page's first
  // read of its session storage took 15 ms of the element's first render on this host
  useEffect(() => {
    if (!foldable) return;
    return whenIdle(() => {
      if (toggle.current?.getClientRects().length && shownBefore()) setOpen(true);
    });
  }, [foldable]);
  // the map has come near the viewport shown: its data is asked for from then on
  const [near, setNear] = useState(!foldable);
  const onNear = useStableCallback(() => setNear(true));
  const mapId = useId();
  const filtersKey = JSON.stringify(props.filters);
  const data = useMapData(filtersKey, props.total, props.properties, props.quietWhenEmpty, near);

  const fail = (reason: string, error?: unknown) => {
    console.error(`[exp] ${reason}`, error ?? '');
    setMode('fallback');
    toaster.show({
      title: { key: 'map.warningTitle' },
      description: { key: 'map.warningText' },
      variant: 'destructive',
    });
  };
  // after a failure the real map is tried once more, 2 s later
  useEffect(() => {
    if (mode !== 'fallback' || attempt > 1) return;
    const timer = setTimeout(() => {
      setAttempt(2);
      setMode('real');
    }, 2000);
    return () => clearTimeout(timer);
  }, [mode, attempt]);

  return (
    <div className="flex flex-col gap-2" part="map-panel">
      {foldable ? (
        <button
          ref={toggle}
          type="button"
          part="map-toggle"
          aria-expanded={open}
          aria-controls={mapId}
          onClick={() => {
            setOpen(!open);
            rememberShown(!open);
          }}
          className="cq-sm:hidden flex items-center justify-center gap-2 h-12 rounded-brand border border-line bg-surface px-4 text-base font-semibold text-ink cursor-pointer hover:bg-surface-subtle"
        >
          <MapIcon size={20} />
          {t(open ? 'map.hide' : 'map.show')}
        </button>
      ) : null}
      <div id={mapId} className={`flex-col gap-2 ${open ? 'flex' : 'hidden cq-sm:flex'}`}>
        {mode === 'real' ? (
          <RealMap
            key={attempt}
            {...props}
            filtersKey={filtersKey}
            pins={data.pins}
            cells={data.cells}
            onExpand={data.expand}
            onCellsError={data.cellsError}
            noPins={data.noPins && !props.quietWhenEmpty}
            onFail={fail}
            onNear={onNear}
          />
        ) : (
          <SimplifiedMap properties={props.properties} onOpen={props.onOpen} />
        )}
        {data.capped && data.pins ? (
          <p className="m-0 text-sm text-ink-muted" part="map-note">
            {t('map.capped', {
              shown: formatCount(Math.min(data.pins.length, MAP_POINTS_LIMIT)),
              total: formatCount(data.total ?? 0),
            })}
          </p>
        ) : null}
      </div>
    </div>
  );
});

/** drawing an area (ol-draw.ts): its own chunk, loaded the first time a visitor draws or a search has a drawn area */
const loadDrawChunk = lazyChunk(() => import('./ol-draw.ts'));

/**
 * The drawn area on the map: shown (editable) while the search has one, drawn anew on request.
 * `drawing` is true from the button until the area is drawn or drawing is cancelled; `armed`, once
 * the drawing tool is there to take it (its chunk loads on the first use).
 */
function useAreaTool(
  controller: { current: Pick<MapController, 'map'> | null },
  ready: boolean,
  polygon: LngLat[] | undefined,
  onDrawArea: ((p: LngLat[] | undefined) => void) | undefined,
  target: { current: HTMLElement | null },
) {
  const [drawing, setDrawing] = useState(false);
  const [tool, setTool] = useState<AreaTool | null>(null);
  const onChange = useStableCallback((p: LngLat[] | undefined) => onDrawArea?.(p));
  const wanted = Boolean(onDrawArea) && ready && (drawing || Boolean(polygon));
  useEffect(() => {
    if (!wanted || tool) return;
    let cancelled = false;
    loadDrawChunk()
      .then(({ areaTool }) => {
        const map = controller.current?.map;
        if (cancelled || !map) return;
        const color =
          (target.current && getComputedStyle(target.current).getPropertyValue('--exp-color-primary').trim()) ||
          '#123c69';
        setTool(areaTool(map, { color, onChange }));
      })
      .catch((error: unknown) => {
        console.error('[exp] the drawing tools did not load:', error);
        setDrawing(false);
      });
    return () => {
      cancelled = true;
    };
  }, [wanted, tool, controller, target, onChange]);
  useEffect(() => () => tool?.dispose(), [tool]);
  useEffect(() => tool?.show(polygon), [tool, polygon]);
  // the tool takes the first corner (or the finger) once its chunk is there: the hint says so only then
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (!drawing || !tool) return;
    tool.draw(() => setDrawing(false));
    setArmed(true);
    return () => setArmed(false);
  }, [drawing, tool]);
  return {
    drawing,
    armed: drawing && armed,
    start: () => setDrawing(true),
    cancel: () => (tool ? tool.cancel() : setDrawing(false)),
  };
}

type RealMapProps = MapPanelProps &
  Omit<MapInputs, 'hoveredId' | 'onOpen' | 'onHover' | 'areaActive' | 'tileUrl'> & { noPins: boolean };

function RealMap(props: RealMapProps) {
  const { properties, onOpen, onSearchArea, areaActive, noPins, polygon, onDrawArea } = props;
  const { t } = useElement();
  const { target, controller, status, moved, setMoved, popupId, popupElement } = useMap(props);
  const area = useAreaTool(controller, status === 'ready', polygon, onDrawArea, target);
  const labelId = useId();
  const pin = popupId ? (props.pins?.find((p) => p.id === popupId) ?? controller.current?.pinOf(popupId)) : undefined;
  return (
    <div className={`relative overflow-hidden rounded-brand border border-line bg-[#dbe8f0] ${MAP_HEIGHTS}`} part="map">
      <div
        ref={target}
        className="absolute inset-0"
        role="region"
        aria-labelledby={labelId}
        tabIndex={0}
        data-status={status}
      />
      <span id={labelId} className="exp-sr-only">
        {t('map.label')}
      </span>
      {status === 'ready' ? (
        <>
          <ZoomControls zoomBy={(delta) => controller.current?.zoomBy(delta)} />
          <MapCredit attribution={props.tileAttribution} />
        </>
      ) : null}
      {status === 'loading' ? (
        <div
          className="absolute inset-0 flex items-center justify-center bg-surface-subtle text-ink-muted"
          role="status"
        >
          {t('map.loading')}
        </div>
      ) : null}
      {status === 'error' ? (
        <div
          className="absolute inset-0 flex items-center justify-center bg-surface-subtle font-semibold text-danger"
          role="alert"
        >
          {t('map.error')}
        </div>
      ) : null}
      {status === 'ready' && noPins ? (
        <div
          className="absolute left-3 right-3 bottom-10 rounded-md bg-surface/95 px-3 py-2 text-sm text-ink shadow"
          role="status"
          part="map-message"
        >
          {t('map.noCoordinates')}
        </div>
      ) : null}
      {status === 'ready' && onDrawArea ? (
        <DrawButtons
          drawing={area.drawing}
          armed={area.armed}
          drawn={Boolean(polygon)}
          onDraw={area.start}
          onCancel={area.cancel}
          onClear={() => onDrawArea(undefined)}
        />
      ) : null}
      {status === 'ready' && onSearchArea && !area.drawing && (moved || areaActive) ? (
        <SearchAreaButtons
          moved={moved}
          areaActive={Boolean(areaActive)}
          onSearch={() => {
            setMoved(false);
            onSearchArea(controller.current?.visibleBbox());
          }}
          onClear={() => onSearchArea(undefined)}
        />
      ) : null}
      {createPortal(
        pin ? (
          <MapPopup key={pin.id} pin={pin} property={properties.find((p) => p.id === pin.id)} onOpen={onOpen} />
        ) : null,
        popupElement,
      )}
    </div>
  );
}
