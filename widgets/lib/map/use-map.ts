/**
 * The OpenLayers map of a panel (ol-map.ts, its own chunk): fetched once the page is idle, made
 * when the panel comes near the viewport and has a size, kept in step with what the panel shows
 * (pins or the database's cells, the highlighted listing, the popup, the tiles), and disposed with
 * the panel. Tells the visitor's own moves ('Search this area') from the map's fits.
 */
import type { ReadonlySignal } from '@preact/signals-react';
import { useEffect, useRef, useState } from 'react';
import { useElement } from '../element.tsx';
import { lazyChunk } from '../lazy-chunk.ts';
import { whenIdle, whenNear } from '../main-thread.ts';
import type { CellLoader } from './cell-loader.ts';
import type { createMap as CreateMap, MapController, MapPin } from './ol-map.ts';

/** OpenLayers and our map code: loaded with the first map, retried under a new URL after a failure */
const loadMapChunk = lazyChunk(() => import('./ol-map.ts'));

const CONTAINER_RETRIES = 3;

export interface MapInputs {
  /** the search's identity: a new one fits the view to its matches */
  filtersKey: string;
  pins: MapPin[] | null;
  cells: CellLoader | null;
  onExpand: (bounds: [number, number, number, number]) => Promise<MapPin[]>;
  onCellsError: (error: unknown) => void;
  hoveredId: ReadonlySignal<string | null>;
  onOpen: (id: string) => void;
  onHover: (id: string | null) => void;
  areaActive?: boolean | undefined;
  tileUrl?: string | undefined;
  onFail: (reason: string, error?: unknown) => void;
  /** the panel came near the viewport, shown: the map is being made (its data may be asked for) */
  onNear?: (() => void) | undefined;
}

export function useMap({
  filtersKey,
  pins,
  cells,
  onExpand,
  onCellsError,
  hoveredId,
  onOpen,
  onHover,
  areaActive,
  tileUrl,
  onFail,
  onNear,
}: MapInputs) {
  const { shadowRoot } = useElement();
  const target = useRef<HTMLDivElement>(null);
  const controller = useRef<MapController | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [moved, setMoved] = useState(false);
  const [popupId, setPopupId] = useState<string | null>(null);
  const [popupElement] = useState(() => document.createElement('div'));
  // what the map is built with, and the callbacks it calls: always the latest
  const latest = useRef({ onOpen, onHover, onFail, onExpand, tileUrl, onNear });
  latest.current = { onOpen, onHover, onFail, onExpand, tileUrl, onNear };

  useEffect(() => {
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;
    const observers: ResizeObserver[] = [];
    let stopWatching = () => {};
    const fail = (reason: string, error?: unknown) => {
      if (disposed) return;
      setStatus('error');
      latest.current.onFail(reason, error);
    };
    const make = (createMap: typeof CreateMap) =>
      createMap(
        {
          shadowRoot,
          tileUrl: latest.current.tileUrl,
          popup: popupElement,
          onPinClick: (id) => latest.current.onOpen(id),
          onHover: (id) => {
            setPopupId(id);
            latest.current.onHover(id);
          },
          onUserMove: () => setMoved(true),
          onExpand: (bounds) => latest.current.onExpand(bounds),
        },
        () => !disposed,
      );
    const attach = (el: HTMLElement, made: MapController) => {
      try {
        made.attach(el);
      } catch (error) {
        fail('Error initializing map', error);
        return;
      }
      if (import.meta.env.EXP_TEST_HOOKS) Object.defineProperty(el, 'expMap', { value: made, configurable: true });
      const resize = new ResizeObserver(() => controller.current?.updateSize());
      resize.observe(el);
      observers.push(resize);
      setStatus('ready');
    };
    /**
     * The container's size is read from a ResizeObserver, which hears it after the browser's own
     * layout: nothing here forces a layout of the element in the middle of a task. The map goes in
     * in the frame after, while the layout is still fresh. A container without a size is looked at again
     * (docs/product.md §4), then given up.
     */
    const build = (el: HTMLElement, made: MapController, tries: number) => {
      const sized = new ResizeObserver((entries) => {
        const box = entries[entries.length - 1]?.contentRect;
        sized.disconnect();
        if (disposed) return;
        // put in in the next frame: doing it inside the observer's callback would resize what it observes
        if (box && box.width > 0 && box.height > 0) frame = requestAnimationFrame(() => !disposed && attach(el, made));
        else if (tries < CONTAINER_RETRIES) timer = setTimeout(() => build(el, made, tries + 1), 500);
        else fail('Container has zero dimensions');
      });
      observers.push(sized);
      sized.observe(el);
    };
    // OpenLayers is fetched once the page is idle, and the map made when its panel comes near the
    // viewport (a piece per task: ol-map.ts createMap): the first screen of a phone is not held up
    // by a map below it. A panel that is not shown (a phone's folded map, map-panel.tsx) is never
    // near, and its chunk is not fetched.
    const load = () => {
      const el = target.current;
      if (!el || disposed) return;
      latest.current.onNear?.();
      loadMapChunk()
        .then(({ createMap }) => (disposed ? null : make(createMap)))
        .then((made) => {
          if (!made) return;
          if (disposed) return made.dispose();
          controller.current = made;
          build(el, made, 0);
        })
        .catch((error: unknown) => fail('Error initializing map', error));
    };
    const cancelIdle = whenIdle(() => {
      if (target.current?.getClientRects().length) void loadMapChunk().catch(() => {});
    }, 3000);
    // the container may not be there yet: look again, then give up (docs/product.md §4)
    const watch = (tries: number) => {
      if (disposed) return;
      const el = target.current;
      if (!el) {
        if (tries < CONTAINER_RETRIES) timer = setTimeout(() => watch(tries + 1), 300);
        else fail('Map container not found');
        return;
      }
      stopWatching = whenNear(el, '600px', load);
    };
    watch(0);
    return () => {
      disposed = true;
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      cancelIdle();
      stopWatching();
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

  // the hovered pin follows the signal without a render of the map's component (nor of the search's)
  useEffect(() => {
    if (status !== 'ready') return;
    return hoveredId.subscribe((id) => controller.current?.setHighlight(id));
  }, [hoveredId, status]);

  useEffect(() => {
    controller.current?.showPopup(popupId);
  }, [popupId]);

  return { target, controller, status, moved, setMoved, popupId, popupElement };
}
