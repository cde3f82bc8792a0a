/**
 * "Drop a pin on the map" (docs/valuation.md): a small map, centred on the place picked in the
 * location box (else Quito), where a click puts the home. OpenLayers comes with it, in the chunk
 * the listing's small map uses (lib/map/ol-location.ts), only when the visitor opens it; the
 * location box stays the keyboard's way to say where.
 */
import { useEffect, useRef, useState } from 'react';
import { useElement } from '../lib/element.tsx';
import { lazyChunk } from '../lib/lazy-chunk.ts';
import { MapCredit } from '../lib/map/map-controls.tsx';
import type { LocationController } from '../lib/map/ol-location.ts';

const loadMap = lazyChunk(() => import('../lib/map/ol-location.ts'));

export function PinMap({
  center,
  onPick,
  tileUrl,
  tileAttribution,
}: {
  center: [number, number];
  onPick: (lat: number, lng: number) => void;
  tileUrl?: string | undefined;
  tileAttribution?: string | undefined;
}) {
  const { t, shadowRoot } = useElement();
  const target = useRef<HTMLDivElement>(null);
  const picked = useRef(onPick);
  picked.current = onPick;
  const [status, setStatus] = useState<'waiting' | 'ready' | 'error'>('waiting');

  // made once per opening, where the place was then; a click moves the pin
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    let disposed = false;
    let controller: LocationController | null = null;
    const observers: ResizeObserver[] = [];
    loadMap().then(
      ({ createLocationMap }) => {
        if (disposed) return;
        // made once the box has its size (a map made in a box of 0 px draws nothing until resized)
        const sized = new ResizeObserver((entries) => {
          const box = entries[entries.length - 1]?.contentRect;
          if (disposed || !box || box.width === 0 || box.height === 0) return;
          sized.disconnect();
          controller = createLocationMap({
            target: el,
            shadowRoot,
            lat: center[0],
            lng: center[1],
            price: 0,
            approximate: false,
            label: t('valuation.pin.label'),
            onPick: (lat, lng) => picked.current(lat, lng),
            tileUrl,
          });
          const resize = new ResizeObserver(() => controller?.updateSize());
          resize.observe(el);
          observers.push(resize);
          setStatus('ready');
        });
        observers.push(sized);
        sized.observe(el);
      },
      (error: unknown) => {
        if (disposed) return;
        console.warn('[exp-home-valuation] the map could not be loaded:', error);
        setStatus('error');
      },
    );
    return () => {
      disposed = true;
      for (const o of observers) o.disconnect();
      controller?.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the map is made once per opening
  }, []);

  return (
    <div className="flex flex-col gap-1">
      <div className="relative h-60 rounded-md border border-line bg-surface-subtle overflow-hidden">
        <div
          ref={target}
          className="absolute inset-0"
          part="pin-map"
          data-status={status}
          role="application"
          aria-label={t('valuation.pin.map')}
        />
        {status === 'ready' ? <MapCredit attribution={tileAttribution} /> : null}
      </div>
      <p className="m-0 text-sm text-ink-muted">
        {t(status === 'error' ? 'valuation.pin.error' : 'valuation.pin.hint')}
      </p>
    </div>
  );
}
