/**
 * The listing's place (docs/product.md §2, "Location"): a small map with its pin, or a circle when
 * the position is approximate, and a link that opens directions in the visitor's maps app. The
 * map's chunk (ol-location.ts) is fetched only when the section comes near the viewport, so a
 * listing read from its top costs no OpenLayers; without the map (it failed, or is still coming)
 * the address and the link are all there is, which is all that is needed.
 */
import { useEffect, useRef, useState } from 'react';
import { directionsUrl, type Property } from '../../../core/protocol/listing.ts';
import { useElement } from '../element.tsx';
import { lazyChunk } from '../lazy-chunk.ts';
import { whenNear } from '../main-thread.ts';
import { MapCredit, ZoomControls } from '../map/map-controls.tsx';
import type { LocationController } from '../map/ol-location.ts';
import { PinIcon } from '../ui/icons/pin.tsx';

const loadLocationChunk = lazyChunk(() => import('../map/ol-location.ts'));

export function LocationMap({
  property: p,
  headingLevel,
  tileUrl,
  tileAttribution,
}: {
  property: Property;
  headingLevel: 'h2' | 'h3';
  tileUrl?: string | undefined;
  tileAttribution?: string | undefined;
}) {
  const { t, shadowRoot } = useElement();
  const target = useRef<HTMLDivElement>(null);
  const controller = useRef<LocationController | null>(null);
  const [status, setStatus] = useState<'waiting' | 'ready' | 'error'>('waiting');
  const { lat, lng, approximate, price } = p;

  useEffect(() => {
    const el = target.current;
    if (!el) return;
    let disposed = false;
    setStatus('waiting');
    const observers: ResizeObserver[] = [];
    const make = () => {
      loadLocationChunk()
        .then(({ createLocationMap }) => {
          if (disposed) return;
          // made once the box has its size (a map made in a box of 0 px draws nothing until resized)
          const sized = new ResizeObserver((entries) => {
            const box = entries[entries.length - 1]?.contentRect;
            if (disposed || !box || box.width === 0 || box.height === 0) return;
            sized.disconnect();
            controller.current = createLocationMap({ target: el, shadowRoot, lat, lng, approximate, price, tileUrl });
            const resize = new ResizeObserver(() => controller.current?.updateSize());
            resize.observe(el);
            observers.push(resize);
            el.setAttribute('data-kind', controller.current.kind);
            setStatus('ready');
          });
          observers.push(sized);
          sized.observe(el);
        })
        .catch((error: unknown) => {
          if (disposed) return;
          console.warn("[exp] the listing's map could not be loaded:", error);
          setStatus('error');
        });
    };
    const stopWatching = whenNear(el, '100px', make);
    return () => {
      disposed = true;
      stopWatching();
      for (const o of observers) o.disconnect();
      controller.current?.dispose();
      controller.current = null;
    };
  }, [shadowRoot, lat, lng, approximate, price, tileUrl]);

  const Heading = headingLevel;
  return (
    <section part="location" className="flex flex-col gap-2">
      <Heading className="m-0 text-base font-semibold text-ink">{t('location.heading')}</Heading>
      <div className="relative h-[240px] cq-md:h-[280px] overflow-hidden rounded-brand border border-line bg-[#f6f3ea]">
        <div
          ref={target}
          className="absolute inset-0"
          role="img"
          aria-label={t(approximate ? 'location.mapApproximate' : 'location.map', {
            place: [p.address, p.city].filter(Boolean).join(', ') || 'Ecuador',
          })}
          data-status={status}
          part="location-map"
        />
        {status === 'ready' ? (
          <>
            <ZoomControls zoomBy={(d) => controller.current?.zoomBy(d)} />
            <MapCredit attribution={tileAttribution} />
          </>
        ) : null}
        {status === 'error' ? (
          <p className="absolute inset-x-0 bottom-0 m-0 bg-surface/90 px-3 py-2 text-sm text-ink-muted">
            {t('map.error')}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <p className="m-0 text-sm text-ink-muted">
          {approximate ? t('location.approximateNote') : [p.address, p.city].filter(Boolean).join(', ')}
        </p>
        <a
          href={directionsUrl(p)}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-semibold text-primary hover:underline"
          part="directions"
        >
          <PinIcon size={16} />
          {t('location.directions')}
        </a>
      </div>
    </section>
  );
}
