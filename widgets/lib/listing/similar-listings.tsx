/**
 * The listings most like the one open (docs/product.md §2, "Similar listings";
 * public.similar_listings): a row under the detail, each a link to its page. Nothing shows until
 * they are known, and nothing when there are none or they cannot be had (the detail stays whole).
 */
import { useEffect, useState } from 'react';
import { listingDefaults, listingPrice, mapListing, type Property, typeLabel } from '../../../core/protocol/listing.ts';
import { getClients } from '../data/client.ts';
import { getSimilarListings } from '../data/listing-extras.ts';
import { useElement } from '../element.tsx';
import { listingUrl } from '../site-links.ts';
import { PriceCutBadge } from '../ui/price-cut.tsx';
import { TilePhoto } from '../ui/tile-photo.tsx';

export const SIMILAR_SHOWN = 8;

export function SimilarListings({ property, headingLevel }: { property: Property; headingLevel: 'h2' | 'h3' }) {
  const { t, api, site, lang } = useElement();
  const [found, setFound] = useState<{ id: string; listings: Property[] } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getSimilarListings(getClients(api).rest, property.id, SIMILAR_SHOWN, controller.signal)
      .then((rows) =>
        setFound({ id: property.id, listings: rows.map((r) => mapListing(r, api.url, listingDefaults(t))) }),
      )
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('[exp] similar listings could not be loaded:', error);
      });
    return () => controller.abort();
  }, [api, property.id, t]);
  const listings = found?.id === property.id ? found.listings : [];
  if (!listings.length) return null;
  const Heading = headingLevel;
  return (
    <section part="similar" className="flex flex-col gap-2 border-t border-line px-4 py-4 cq-md:px-6">
      <Heading className="m-0 text-base font-semibold text-ink">{t('similar.heading')}</Heading>
      <ul className="m-0 grid list-none grid-cols-[repeat(2,minmax(0,1fr))] gap-3 p-0 cq-md:grid-cols-[repeat(4,minmax(0,1fr))]">
        {listings.map((p) => (
          <li key={p.id} className="min-w-0">
            <a
              href={listingUrl(p, site, lang)}
              className="flex h-full flex-col overflow-hidden rounded-md border border-line bg-surface text-ink no-underline hover:border-primary focus-visible:border-primary"
              part="similar-listing"
            >
              <span className="relative block aspect-video bg-surface-subtle">
                <TilePhoto
                  listingId={p.id}
                  src={p.images[0]}
                  label={t('carousel.noPhoto')}
                  className="block h-full w-full object-cover"
                />
                <PriceCutBadge property={p} className="absolute bottom-1.5 left-1.5" />
              </span>
              <span className="flex flex-col gap-0.5 p-2">
                <span className="text-sm font-bold">{listingPrice(p, t)}</span>
                <span className="line-clamp-2 text-sm leading-snug break-words">{p.title}</span>
                <span className="truncate text-xs text-ink-muted">
                  {[p.city, typeLabel(p.propertyType, t)].filter(Boolean).join(' · ')}
                </span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
