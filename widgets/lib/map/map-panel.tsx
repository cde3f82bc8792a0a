/**
 * The map beside the list (SPEC points 2, 4, 5, 8, 9; DESIGN decision 3), shared by
 * <exp-property-search> and <exp-property-map>. It shows every listing matching the filters (the
 * light call, up to 5,000), not only the page; states 'Loading map...', ready, 'Error loading map';
 * when the map fails it falls back to the simplified map (a list of 6), says so in a toast, and
 * tries the real map once more after 2 s. OpenLayers loads only when a map is shown.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { getClients } from '../data/client.ts';
import { getListing, getMapPoints, MAP_POINTS_LIMIT, type MapPoint, type SearchFilters } from '../data/listings.ts';
import { useElement } from '../element.tsx';
import { formatCount, formatPrice } from '../format.ts';
import { coordinate, fallbackPosition, mapListing, type Property } from '../listing/mapping.ts';
import { PropertyPlaceholder } from '../listing/placeholder.tsx';
import { placeholderIndex } from '../listing/mapping.ts';
import { SearchIcon } from '../ui/icons.tsx';
import { lazyChunk } from '../lazy-chunk.ts';
import type { MapController, MapPin } from './ol-map.ts';

/** OpenLayers and our map code: loaded with the first map, retried under a new URL after a failure */
const loadMapChunk = lazyChunk(() => import('./ol-map.ts'));

export const MAP_HEIGHTS = 'h-[400px] cq-md:h-[600px] cq-lg:h-[800px]';
const CONTAINER_RETRIES = 3;

export interface MapPanelProps {
  filters: SearchFilters;
  /** the exact count of the search, once known */
  total: number | null;
  /** the page's properties (the fallback list and richer popups) */
  properties: Property[];
  hoveredId: string | null;
  selectedId: string | null;
  onOpen: (id: string) => void;
  onHover: (id: string | null) => void;
  /** 'Search this area' (a bbox) and clearing it (undefined); omitted for maps without a search */
  onSearchArea?: (bbox: [number, number, number, number] | undefined) => void;
  areaActive?: boolean;
  tileUrl?: string | undefined;
}

/** A listing's position for the map: its own when usable, else approximate (DESIGN decision 3). */
export function pinFor(point: Pick<MapPoint, 'id' | 'lat' | 'lng' | 'geo_lat' | 'geo_lon' | 'city' | 'price'>): MapPin {
  const id = String(point.id);
  const lat = coordinate(point.lat, 90) ?? coordinate(point.geo_lat, 90);
  const lng = coordinate(point.lng, 180) ?? coordinate(point.geo_lon, 180);
  if (lat !== undefined && lng !== undefined) return { id, lat, lng, price: Number(point.price) || 0, approximate: false };
  const [fLat, fLng] = fallbackPosition(id, point.city);
  return { id, lat: fLat, lng: fLng, price: Number(point.price) || 0, approximate: true };
}

export function MapPanel(props: MapPanelProps) {
  const { t, toaster, api } = useElement();
  const [mode, setMode] = useState<'real' | 'fallback'>('real');
  const [attempt, setAttempt] = useState(1);
  const [pins, setPins] = useState<MapPin[] | null>(null);
  const [capped, setCapped] = useState(false);
  const filtersKey = JSON.stringify(props.filters);
  const rest = getClients(api).rest;

  // every matching listing, not only the page (the light call)
  useEffect(() => {
    if (props.total === null) return;
    const controller = new AbortController();
    getMapPoints(rest, props.filters, props.total, controller.signal)
      .then(({ points, capped: more }) => {
        setPins(points.map(pinFor));
        setCapped(more);
      })
      .catch((error: unknown) => {
        if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) return;
        console.error('[exp] map points:', error);
        setPins(props.properties.map((p) => ({ id: p.id, lat: p.lat, lng: p.lng, price: p.price, approximate: p.approximate })));
        setCapped(false);
      });
    return () => controller.abort();
  }, [filtersKey, props.total]); // eslint-disable-line react-hooks/exhaustive-deps

  // nothing to draw once the data is in: the spec's message and toast
  const noPins = pins !== null && pins.length === 0;
  useEffect(() => {
    if (noPins) toaster.show({ title: { key: 'map.noPropertiesTitle' }, description: { key: 'map.noPropertiesText' } });
  }, [noPins, filtersKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const fail = (reason: string, error?: unknown) => {
    console.error(`[exp] ${reason}`, error ?? '');
    setMode('fallback');
    toaster.show({ title: { key: 'map.warningTitle' }, description: { key: 'map.warningText' }, variant: 'destructive' });
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
      {mode === 'real' ? (
        <RealMap key={attempt} {...props} pins={pins} capped={capped} noPins={noPins} onFail={fail} />
      ) : (
        <SimplifiedMap properties={props.properties} onOpen={props.onOpen} />
      )}
      {capped && pins ? <p className="m-0 text-sm text-ink-muted" part="map-note">{t('map.capped', { shown: formatCount(Math.min(pins.length, MAP_POINTS_LIMIT)), total: formatCount(props.total ?? 0) })}</p> : null}
    </div>
  );
}

interface RealMapProps extends MapPanelProps {
  pins: MapPin[] | null;
  capped: boolean;
  noPins: boolean;
  onFail: (reason: string, error?: unknown) => void;
}

function RealMap({ pins, properties, hoveredId, onOpen, onHover, onSearchArea, areaActive, tileUrl, noPins, onFail, filters }: RealMapProps) {
  const { t, shadowRoot, api } = useElement();
  const target = useRef<HTMLDivElement>(null);
  const controller = useRef<MapController | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [moved, setMoved] = useState(false);
  const [popupId, setPopupId] = useState<string | null>(null);
  const [popupElement] = useState(() => document.createElement('div'));
  const callbacks = useRef({ onOpen, onHover });
  callbacks.current = { onOpen, onHover };
  const labelId = useId();

  useEffect(() => {
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // the container may not be there or not laid out yet: retry, then give up (SPEC point 4)
    const init = (tries: number) => {
      if (disposed) return;
      const el = target.current;
      if (!el) {
        if (tries < CONTAINER_RETRIES) timer = setTimeout(() => init(tries + 1), 300);
        else fail('Map container not found');
        return;
      }
      if (!el.offsetWidth || !el.offsetHeight) {
        if (tries < CONTAINER_RETRIES) timer = setTimeout(() => init(tries + 1), 500);
        else fail('Container has zero dimensions');
        return;
      }
      loadMapChunk()
        .then(({ createMap }) => {
          if (disposed) return;
          controller.current = createMap({
            target: el,
            shadowRoot,
            tileUrl,
            popup: popupElement,
            labels: { zoomIn: t('map.zoomIn'), zoomOut: t('map.zoomOut'), attribution: t('map.attribution'), tilesCredit: t('map.tilesCredit') },
            onPinClick: (id) => callbacks.current.onOpen(id),
            onHover: (id) => {
              setPopupId(id);
              callbacks.current.onHover(id);
            },
            onUserMove: () => setMoved(true),
          });
          // a handle for tests and debugging in the console: the element's map, not a global
          Object.defineProperty(el, 'expMap', { value: controller.current, configurable: true });
          setStatus('ready');
        })
        .catch((error: unknown) => fail('Error initializing map', error));
    };
    const fail = (reason: string, error?: unknown) => {
      if (disposed) return;
      setStatus('error');
      onFail(reason, error);
    };
    init(0);
    const resize = new ResizeObserver(() => controller.current?.updateSize());
    if (target.current) resize.observe(target.current);
    return () => {
      disposed = true;
      clearTimeout(timer);
      resize.disconnect();
      controller.current?.dispose();
      controller.current = null;
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // markers are rebuilt when the properties change; the view fits a new search
  const fitKey = useRef('');
  const filtersKey = JSON.stringify(filters);
  useEffect(() => {
    if (status !== 'ready' || !pins || !controller.current) return;
    const fit = fitKey.current !== filtersKey;
    fitKey.current = filtersKey;
    // 'Search this area' keeps the visitor's view instead of fitting to the results
    controller.current.setPins(pins, fit && !areaActive);
    if (fit) setMoved(false);
    const stats = controller.current.stats();
    target.current?.setAttribute('data-pins', String(pins.length));
    target.current?.setAttribute('data-approximate', String(pins.filter((p) => p.approximate).length));
    target.current?.setAttribute('data-clusters', stats.clusters.join(','));
  }, [status, pins, filtersKey]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    controller.current?.setHighlight(hoveredId);
  }, [hoveredId, status]);

  useEffect(() => {
    if (!controller.current) return;
    const update = () => {
      const stats = controller.current?.stats();
      if (stats) target.current?.setAttribute('data-clusters', stats.clusters.join(','));
    };
    controller.current.map.on('rendercomplete', update);
    return () => controller.current?.map.un('rendercomplete', update);
  }, [status]);

  useEffect(() => {
    controller.current?.showPopup(popupId);
  }, [popupId]);

  const pin = popupId ? pins?.find((p) => p.id === popupId) : undefined;
  return (
    <div className={`relative overflow-hidden rounded-brand border border-line bg-[#dbe8f0] ${MAP_HEIGHTS}`} part="map">
      <div ref={target} className="absolute inset-0" role="region" aria-labelledby={labelId} tabIndex={0} data-status={status} />
      <span id={labelId} className="exp-sr-only">
        {t('map.label')}
      </span>
      {status === 'loading' ? <div className="absolute inset-0 flex items-center justify-center bg-surface-subtle text-ink-muted" role="status">{t('map.loading')}</div> : null}
      {status === 'error' ? <div className="absolute inset-0 flex items-center justify-center bg-surface-subtle font-semibold text-danger" role="alert">{t('map.error')}</div> : null}
      {status === 'ready' && noPins ? (
        <div className="absolute left-3 right-3 bottom-10 rounded-md bg-surface/95 px-3 py-2 text-sm text-ink shadow" role="status" part="map-message">
          {t('map.noCoordinates')}
        </div>
      ) : null}
      {status === 'ready' && onSearchArea && (moved || areaActive) ? (
        <div className="absolute top-3 left-1/2 -translate-x-1/2 flex gap-2 z-[5]">
          {moved ? (
            <button
              type="button"
              onClick={() => {
                setMoved(false);
                onSearchArea(controller.current?.visibleBbox());
              }}
              className="inline-flex items-center gap-1.5 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-primary-contrast shadow-lg cursor-pointer hover:bg-primary-hover"
              part="search-area"
            >
              <SearchIcon size={16} />
              {t('map.searchArea')}
            </button>
          ) : null}
          {areaActive ? (
            <button type="button" onClick={() => onSearchArea(undefined)} className="rounded-full bg-surface px-4 py-2 text-sm font-medium text-ink shadow-lg cursor-pointer hover:bg-surface-subtle" part="clear-area">
              {t('map.clearArea')}
            </button>
          ) : null}
        </div>
      ) : null}
      {createPortal(pin ? <MapPopup pin={pin} property={properties.find((p) => p.id === pin.id)} apiUrl={api.url} onOpen={onOpen} /> : null, popupElement)}
    </div>
  );
}

const popupRows = new Map<string, Promise<Record<string, unknown> | null>>();

/** Photo, price, title and a button to the detail; 280 px wide (240 under 768 px of viewport). */
function MapPopup({ pin, property, apiUrl, onOpen }: { pin: MapPin; property: Property | undefined; apiUrl: string; onOpen: (id: string) => void }) {
  const { t, api } = useElement();
  const [loaded, setLoaded] = useState<Property | undefined>(property);
  useEffect(() => {
    if (property) {
      setLoaded(property);
      return;
    }
    let live = true;
    let request = popupRows.get(pin.id);
    if (!request) {
      request = getListing(getClients(api).rest, pin.id).catch(() => null);
      popupRows.set(pin.id, request);
    }
    void request.then((row) => live && row && setLoaded(mapListing(row, apiUrl, { title: t('listing.defaultTitle'), agentName: t('agent.defaultName') })));
    return () => {
      live = false;
    };
  }, [pin.id, property]); // eslint-disable-line react-hooks/exhaustive-deps
  const p = loaded;
  const photo = p?.images[0];
  const [failed, setFailed] = useState(false);
  const narrow = typeof window !== 'undefined' && window.innerWidth < 768;
  return (
    <div className="exp-root overflow-hidden rounded-brand bg-surface text-ink shadow-xl border border-line" style={{ width: narrow ? 240 : 280 }} part="popup">
      <div className="aspect-video bg-surface-subtle">
        {photo && !failed ? <img src={photo} alt="" className="block w-full h-full object-cover" onError={() => setFailed(true)} /> : <PropertyPlaceholder index={placeholderIndex(pin.id)} label={t('carousel.noPhoto')} />}
      </div>
      <div className="p-3 flex flex-col gap-1">
        <p className="m-0 font-bold">{formatPrice(p?.price ?? pin.price)}</p>
        <p className="m-0 text-sm leading-snug line-clamp-2">{p?.title ?? '\u00a0'}</p>
        {pin.approximate ? <p className="m-0 text-xs text-ink-muted">{t('map.approximate')}</p> : null}
        <button type="button" onClick={() => onOpen(pin.id)} className="mt-1 rounded-md bg-primary px-3 py-1.5 text-sm font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover">
          {t('map.viewDetails')}
        </button>
      </div>
    </div>
  );
}

/** When the map cannot load: the first 6 properties as a list (SPEC point 9). */
function SimplifiedMap({ properties, onOpen }: { properties: Property[]; onOpen: (id: string) => void }) {
  const { t } = useElement();
  const shown = useMemo(() => properties.slice(0, 6), [properties]);
  return (
    <div className={`rounded-brand border border-line bg-surface p-4 overflow-y-auto ${MAP_HEIGHTS}`} part="map-fallback" data-fallback="true">
      <p className="m-0 mb-3 font-semibold text-ink">{t('map.fallbackHeading')}</p>
      <ul className="list-none m-0 p-0 flex flex-col gap-2">
        {shown.map((p) => (
          <li key={p.id}>
            <button type="button" onClick={() => onOpen(p.id)} className="w-full text-left rounded-md border border-line bg-surface px-3 py-2 cursor-pointer hover:bg-surface-subtle">
              <span className="block font-semibold text-ink">{formatPrice(p.price)}</span>
              <span className="block text-sm text-ink line-clamp-1">{p.title}</span>
              <span className="block text-xs text-ink-muted">
                {[p.city, p.approximate ? t('map.approximate') : ''].filter(Boolean).join(' · ')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
