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
import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { getClients } from '../data/client.ts';
import { getMapClusters, getMapPoints, MAP_POINTS_LIMIT, SERVER_CLUSTERS_ABOVE, type MapPoint, type SearchFilters } from '../data/listings.ts';
import { useElement, useStyles } from '../element.tsx';
import { formatCount, formatPrice } from '../../../core/protocol/format.ts';
import { lazyChunk } from '../lazy-chunk.ts';
import { whenIdle } from '../main-thread.ts';
import { listingPosition, type Property } from '../../../core/protocol/listing.ts';
import { SearchIcon } from '../ui/icons/search.tsx';
import { preloadPropertyDialog } from '../listing/lazy-property-dialog.tsx';
import { MapPopup } from './map-popup.tsx';
import type { CellLoader, createMap as CreateMap, MapController, MapPin } from './ol-map.ts';

/** OpenLayers and our map code: loaded with the first map, retried under a new URL after a failure */
const loadMapChunk = lazyChunk(() => import('./ol-map.ts'));

export const MAP_HEIGHTS = 'h-[400px] cq-md:h-[600px] cq-lg:h-[800px]';
const CONTAINER_RETRIES = 3;

export interface MapPanelProps {
  filters: SearchFilters;
  /** the exact count of the search, once known (null while a page or a new search loads) */
  total: number | null;
  /** the page's properties (the fallback list and richer popups) */
  properties: Property[];
  hoveredId: string | null;
  onOpen: (id: string) => void;
  onHover: (id: string | null) => void;
  /** 'Search this area' (a bbox) and clearing it (undefined); omitted for maps without a search */
  onSearchArea?: (bbox: [number, number, number, number] | undefined) => void;
  areaActive?: boolean;
  tileUrl?: string | undefined;
}

/** A listing's pin: its position (approximate when it has no usable coordinates) and price. */
export function pinFor(point: MapPoint): MapPin {
  return { id: String(point.id), price: Number(point.price) || 0, ...listingPosition(point as unknown as Record<string, unknown>) };
}

/**
 * The count of the search for these filters: while a page of the same search loads, the element's
 * count is briefly unknown, and the one already known still holds.
 */
function useCountOf(filtersKey: string, total: number | null): number | null {
  const [known, setKnown] = useState<{ key: string; total: number } | null>(null);
  if (total !== null && (known?.key !== filtersKey || known.total !== total)) setKnown({ key: filtersKey, total });
  return total ?? (known?.key === filtersKey ? known.total : null);
}

/** Renders again only when its own props change (not when the detail opens beside it). */
export const MapPanel = memo(function MapPanel(props: MapPanelProps) {
  const { t, toaster, api } = useElement();
  const [mode, setMode] = useState<'real' | 'fallback'>('real');
  const [attempt, setAttempt] = useState(1);
  const [pins, setPins] = useState<MapPin[] | null>(null);
  const [capped, setCapped] = useState(false);
  // the clusters failed once (a backend without the function): pins from then on
  const [cellsFailed, setCellsFailed] = useState(false);
  const filtersKey = JSON.stringify(props.filters);
  const filters = useMemo(() => JSON.parse(filtersKey) as SearchFilters, [filtersKey]);
  const total = useCountOf(filtersKey, props.total);
  const rest = getClients(api).rest;
  // the test build lets a test lower the threshold, so the default seed can show the clusters
  const above = import.meta.env.EXP_TEST_HOOKS ? Number((globalThis as { expClustersAbove?: number }).expClustersAbove ?? SERVER_CLUSTERS_ABOVE) : SERVER_CLUSTERS_ABOVE;
  const many = total !== null && total > above && !cellsFailed;
  const cells = useMemo<CellLoader | null>(
    () =>
      many
        ? (view, signal) =>
            getMapClusters(rest, filters, view, signal).then((list) =>
              list.map((c) => ({ count: c.count, lat: c.lat, lng: c.lng, bounds: [c.lng_min, c.lat_min, c.lng_max, c.lat_max], priceFrom: c.price_from, priceTo: c.price_to, id: c.id === null ? null : String(c.id), approximate: c.approximate })),
            )
        : null,
    [many, rest, filters],
  );
  // the listings of a cluster on one spot, to spread them out
  const expand = useMemo(
    () => (bounds: [number, number, number, number]) => {
      const [w, s, e, n] = bounds;
      return getMapPoints(rest, { ...filters, bbox: [w - 1e-6, s - 1e-6, e + 1e-6, n + 1e-6] }, 50).then(({ points }) => points.map(pinFor));
    },
    [rest, filters],
  );
  const cellsError = useMemo(
    () => (error: unknown) => {
      console.error('[exp] map clusters:', error);
      setCellsFailed(true);
    },
    [],
  );
  // the page's properties, for the pins when the map's own call fails
  const pageProperties = useRef(props.properties);
  pageProperties.current = props.properties;

  // every matching listing, not only the page (the light call): once per search
  useEffect(() => {
    if (total === null) return;
    if (many) {
      setPins(null);
      setCapped(false);
      return;
    }
    const controller = new AbortController();
    getMapPoints(rest, filters, total, controller.signal)
      .then(({ points, capped: more }) => {
        setPins(points.map(pinFor));
        setCapped(more);
      })
      .catch((error: unknown) => {
        if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) return;
        console.error('[exp] map points:', error);
        setPins(pageProperties.current.map((p) => ({ id: p.id, lat: p.lat, lng: p.lng, price: p.price, approximate: p.approximate })));
        setCapped(false);
      });
    return () => controller.abort();
  }, [rest, filters, total, many]);

  // nothing to draw once the data is in: the message and a toast, once per search
  const noPins = pins !== null && pins.length === 0;
  useEffect(() => {
    if (noPins) toaster.show({ title: { key: 'map.noPropertiesTitle' }, description: { key: 'map.noPropertiesText' } });
  }, [noPins, filtersKey, toaster]);

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
        <RealMap key={attempt} {...props} filtersKey={filtersKey} pins={many ? null : pins} cells={cells} onExpand={expand} onCellsError={cellsError} noPins={noPins} onFail={fail} />
      ) : (
        <SimplifiedMap properties={props.properties} onOpen={props.onOpen} />
      )}
      {capped && pins ? <p className="m-0 text-sm text-ink-muted" part="map-note">{t('map.capped', { shown: formatCount(Math.min(pins.length, MAP_POINTS_LIMIT)), total: formatCount(total ?? 0) })}</p> : null}
    </div>
  );
});

interface RealMapProps extends MapPanelProps {
  filtersKey: string;
  pins: MapPin[] | null;
  /** the database's clusters, when there are many matches */
  cells: CellLoader | null;
  onExpand: (bounds: [number, number, number, number]) => Promise<MapPin[]>;
  onCellsError: (error: unknown) => void;
  noPins: boolean;
  onFail: (reason: string, error?: unknown) => void;
}

/** The credit's link in the theme's colour. */
const creditCss = `.exp-map-credit a { color: var(--exp-color-primary, #123c69); }`;

function RealMap({ pins, cells, onExpand, onCellsError, properties, hoveredId, onOpen, onHover, onSearchArea, areaActive, tileUrl, noPins, onFail, filtersKey }: RealMapProps) {
  useStyles(creditCss);
  const { t, shadowRoot } = useElement();
  const target = useRef<HTMLDivElement>(null);
  const controller = useRef<MapController | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [moved, setMoved] = useState(false);
  const [popupId, setPopupId] = useState<string | null>(null);
  const [popupElement] = useState(() => document.createElement('div'));
  const labelId = useId();
  // what the map is built with, and the callbacks it calls: always the latest
  const latest = useRef({ onOpen, onHover, onFail, onExpand, tileUrl });
  latest.current = { onOpen, onHover, onFail, onExpand, tileUrl };

  useEffect(() => {
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;
    const observers: Array<IntersectionObserver | ResizeObserver> = [];
    const fail = (reason: string, error?: unknown) => {
      if (disposed) return;
      setStatus('error');
      latest.current.onFail(reason, error);
    };
    const create = (el: HTMLElement, createMap: typeof CreateMap) => {
      try {
        controller.current = createMap({
          target: el,
          shadowRoot,
          tileUrl: latest.current.tileUrl,
          popup: popupElement,
          onPinClick: (id) => latest.current.onOpen(id),
          onHover: (id) => {
            if (id) preloadPropertyDialog();
            setPopupId(id);
            latest.current.onHover(id);
          },
          onUserMove: () => setMoved(true),
          onExpand: (bounds) => latest.current.onExpand(bounds),
        });
      } catch (error) {
        fail('Error initializing map', error);
        return;
      }
      if (import.meta.env.EXP_TEST_HOOKS) Object.defineProperty(el, 'expMap', { value: controller.current, configurable: true });
      const resize = new ResizeObserver(() => controller.current?.updateSize());
      resize.observe(el);
      observers.push(resize);
      setStatus('ready');
    };
    /**
     * The container's size is read from a ResizeObserver, which hears it after the browser's own
     * layout: nothing here forces a layout of the element in the middle of a task. The map is made
     * in the frame after, while the layout is still fresh. A container without a size is looked at again
     * (docs/product.md §4), then given up.
     */
    const build = (el: HTMLElement, createMap: typeof CreateMap, tries: number) => {
      const sized = new ResizeObserver((entries) => {
        const box = entries[entries.length - 1]?.contentRect;
        sized.disconnect();
        if (disposed) return;
        // made in the next frame: making it inside the observer's callback would resize what it observes
        if (box && box.width > 0 && box.height > 0) frame = requestAnimationFrame(() => !disposed && create(el, createMap));
        else if (tries < CONTAINER_RETRIES) timer = setTimeout(() => build(el, createMap, tries + 1), 500);
        else fail('Container has zero dimensions');
      });
      observers.push(sized);
      sized.observe(el);
    };
    // OpenLayers is fetched once the page is idle, and the map made when its panel comes near the
    // viewport: the first screen of a phone is not held up by a map below it
    const load = () => {
      const el = target.current;
      if (!el || disposed) return;
      loadMapChunk()
        .then(({ createMap, prepareMap }) => {
          if (disposed) return;
          prepareMap(shadowRoot);
          build(el, createMap, 0);
        })
        .catch((error: unknown) => fail('Error initializing map', error));
    };
    const cancelIdle = whenIdle(() => void loadMapChunk().catch(() => {}), 3000);
    // the container may not be there yet: look again, then give up (docs/product.md §4)
    const watch = (tries: number) => {
      if (disposed) return;
      const el = target.current;
      if (!el) {
        if (tries < CONTAINER_RETRIES) timer = setTimeout(() => watch(tries + 1), 300);
        else fail('Map container not found');
        return;
      }
      const near = new IntersectionObserver(
        (entries) => {
          if (!entries.some((e) => e.isIntersecting)) return;
          near.disconnect();
          load();
        },
        { rootMargin: '600px 0px' },
      );
      observers.push(near);
      near.observe(el);
    };
    watch(0);
    return () => {
      disposed = true;
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      cancelIdle();
      for (const o of observers) o.disconnect();
      controller.current?.dispose();
      controller.current = null;
    };
  }, [shadowRoot, popupElement]);

  // a new tile-url reaches the map that is already there
  useEffect(() => {
    if (status === 'ready') controller.current?.setTileUrl(tileUrl);
  }, [status, tileUrl]);

  // markers are rebuilt when the pins change; the view fits a new search
  const fitKey = useRef('');
  useEffect(() => {
    if (status !== 'ready' || !pins || !controller.current) return;
    const fit = fitKey.current !== filtersKey;
    fitKey.current = filtersKey;
    // 'Search this area' keeps the visitor's view instead of fitting to the results
    void controller.current.setPins(pins, fit && !areaActive).then((drawn) => {
      if (!drawn || !import.meta.env.EXP_TEST_HOOKS) return;
      target.current?.setAttribute('data-mode', 'pins');
      target.current?.setAttribute('data-pins', String(pins.length));
      target.current?.setAttribute('data-approximate', String(pins.filter((p) => p.approximate).length));
    });
    if (fit) setMoved(false);
  }, [status, pins, filtersKey, areaActive]);

  // many matches: the database's cells, for the view the visitor looks at
  useEffect(() => {
    if (status !== 'ready' || !cells || !controller.current) return;
    const fit = fitKey.current !== filtersKey;
    fitKey.current = filtersKey;
    controller.current.setCells(cells, fit && !areaActive, {
      onError: onCellsError,
      onDrawn: (count) => {
        if (import.meta.env.EXP_TEST_HOOKS) target.current?.setAttribute('data-drawn', String(count));
      },
    });
    if (fit) setMoved(false);
    if (import.meta.env.EXP_TEST_HOOKS) target.current?.setAttribute('data-mode', 'cells');
  }, [status, cells, filtersKey, areaActive, onCellsError]);

  useEffect(() => {
    controller.current?.setHighlight(hoveredId);
  }, [hoveredId, status]);

  useEffect(() => {
    controller.current?.showPopup(popupId);
  }, [popupId]);

  const pin = popupId ? (pins?.find((p) => p.id === popupId) ?? controller.current?.pinOf(popupId)) : undefined;
  return (
    <div className={`relative overflow-hidden rounded-brand border border-line bg-[#dbe8f0] ${MAP_HEIGHTS}`} part="map">
      <div ref={target} className="absolute inset-0" role="region" aria-labelledby={labelId} tabIndex={0} data-status={status} />
      <span id={labelId} className="exp-sr-only">
        {t('map.label')}
      </span>
      {status === 'ready' ? (
        <>
          {/* our own controls: in the element's language and theme, reachable by keyboard */}
          <div className="absolute top-3 left-3 z-[5] flex flex-col overflow-hidden rounded-md bg-surface shadow" part="map-zoom">
            <button type="button" onClick={() => controller.current?.zoomBy(1)} title={t('map.zoomIn')} aria-label={t('map.zoomIn')} className="w-9 h-9 flex items-center justify-center border-0 bg-surface text-[22px] leading-none text-ink cursor-pointer hover:bg-surface-subtle">
              +
            </button>
            <button type="button" onClick={() => controller.current?.zoomBy(-1)} title={t('map.zoomOut')} aria-label={t('map.zoomOut')} className="w-9 h-9 flex items-center justify-center border-0 border-t border-line bg-surface text-[22px] leading-none text-ink cursor-pointer hover:bg-surface-subtle">
              −
            </button>
          </div>
          {/* the tiles' credit, our own locale text (a link to the map data's licence) */}
          <div className="exp-map-credit absolute bottom-0 right-0 z-[5] rounded-tl-md bg-white/80 px-1.5 py-0.5 text-[11px] text-ink" part="map-credit" dangerouslySetInnerHTML={{ __html: t('map.tilesCredit') }} />
        </>
      ) : null}
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
      {createPortal(pin ? <MapPopup key={pin.id} pin={pin} property={properties.find((p) => p.id === pin.id)} onOpen={onOpen} /> : null, popupElement)}
    </div>
  );
}

/** When the map cannot load: the first 6 properties as a list (docs/product.md §9). */
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
