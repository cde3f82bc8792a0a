/**
 * The popup of a pin: photo with the heart that saves it, price, title and a button to the detail; 280 px wide (240 under 768 px
 * of viewport). Rendered with the pin's id as its key, so it never shows the previous listing while
 * the next one loads. A listing that is not on the page is read on its own, through a cache per
 * backend that keeps no failures (the next hover asks again).
 */
import { requestVisit } from '../visits/intent.ts';
import { useEffect, useState } from 'react';
import { getClients } from '../data/client.ts';
import { createQueryCache } from '../data/cache.ts';
import { getListing } from '../data/listings.ts';
import { useElement } from '../element.tsx';
import { plainClick } from '../events.ts';
import { listingUrl } from '../site-links.ts';
import { formatPrice } from '../../../core/protocol/format.ts';
import {
  listingDefaults,
  listingPrice,
  mapListing,
  placeholderIndex,
  type Property,
} from '../../../core/protocol/listing.ts';
import { PropertyPlaceholder } from '../ui/placeholder.tsx';
import { PriceCutBadge } from '../ui/price-cut.tsx';
import { OpenHouseBadge } from '../ui/open-house.tsx';
import { SaveButton } from '../saved/save-button.tsx';
import type { MapPin } from './ol-map.ts';
import { Photo, PHOTO_SIZES } from '../ui/photo.tsx';

const rows = createQueryCache<Record<string, unknown> | null>({ max: 200 });

export function MapPopup({
  pin,
  property,
  onOpen,
}: {
  pin: MapPin;
  property: Property | undefined;
  onOpen: (id: string) => void;
}) {
  const { t, api, site, lang } = useElement();
  const [loaded, setLoaded] = useState<Property | undefined>(property);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (property) return;
    let live = true;
    rows
      .get(`${api.url}\n${api.key}\n${pin.id}`, (signal) => getListing(getClients(api).rest, pin.id, signal))
      .then((row) => {
        if (live && row) setLoaded(mapListing(row, api.url, listingDefaults(t)));
      })
      .catch((error: unknown) => console.warn('[exp] the popup could not load listing', pin.id, error));
    return () => {
      live = false;
    };
  }, [api, pin.id, property, t]);
  const p = property ?? loaded;
  const photo = p?.images[0];
  const narrow = typeof window !== 'undefined' && window.innerWidth < 768;
  return (
    <div
      className="exp-root overflow-hidden rounded-brand bg-surface text-ink shadow-xl border border-line"
      style={{ width: narrow ? 240 : 280 }}
      part="popup"
    >
      <div className="relative aspect-video bg-surface-subtle">
        {photo && !failed ? (
          <Photo
            src={photo}
            sizes={PHOTO_SIZES.tile}
            width={280}
            height={158}
            alt=""
            className="block w-full h-full object-cover"
            onError={() => setFailed(true)}
          />
        ) : (
          <PropertyPlaceholder index={placeholderIndex(pin.id)} label={t('carousel.noPhoto')} />
        )}
        {p ? (
          <div className="absolute top-2 right-2">
            <SaveButton listing={p} size="sm" />
          </div>
        ) : null}
      </div>
      <div className="p-3 flex flex-col gap-1">
        <p className="m-0 flex flex-wrap items-center gap-2 font-bold">
          {p ? listingPrice(p, t) : (pin.priceLabel ?? formatPrice(pin.price))}
          {p ? <PriceCutBadge property={p} className="border border-line shadow-none" /> : null}
        </p>
        <p className="m-0 text-sm leading-snug line-clamp-2">{p?.title ?? '\u00a0'}</p>
        {/* a unit of a new development says whose, as its card does (docs/projects.md "Its units") */}
        {p?.unitOf ? (
          <p className="m-0 text-xs font-semibold text-primary" part="popup-unit-of">
            {t('listing.unitOf', { name: p.unitOf.name })}
          </p>
        ) : null}
        {p ? <OpenHouseBadge property={p} className="self-start border border-line shadow-none" /> : null}
        {pin.approximate ? <p className="m-0 text-xs text-ink-muted">{t('map.approximate')}</p> : null}
        {/* a new development's page is its own (its units and plan); a listing opens in place */}
        <a
          href={listingUrl({ id: pin.id, title: p?.title ?? '', project: p?.project }, site, lang)}
          onClick={(e) => {
            if (p?.project || !plainClick(e)) return;
            e.preventDefault();
            onOpen(pin.id);
          }}
          className="mt-1 rounded-md bg-primary px-3 py-1.5 text-center text-sm font-semibold text-primary-contrast no-underline cursor-pointer hover:bg-primary-hover"
        >
          {t('map.viewDetails')}
        </a>
        {/* the detail, opened at "Schedule a visit" (docs/visits.md) */}
        {p?.project ? null : (
          <a
            href={`${listingUrl({ id: pin.id, title: p?.title ?? '' }, site, lang)}#visit`}
            part="popup-visit"
            onClick={(e) => {
              if (!plainClick(e)) return;
              e.preventDefault();
              requestVisit(pin.id);
              onOpen(pin.id);
            }}
            className="rounded-md border border-primary px-3 py-1.5 text-center text-sm font-semibold text-primary no-underline cursor-pointer hover:bg-surface-subtle"
          >
            {t('map.scheduleVisit')}
          </a>
        )}
      </div>
    </div>
  );
}
