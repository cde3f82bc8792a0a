/**
 * The listings the visitor opened last (docs/product.md §2, "Recently viewed"), as kept in this
 * browser (store.ts): links to their pages with what was kept of each (photo, price when seen,
 * title, place), newest first, and "Clear". Nothing when the visitor has no history. Two to a row
 * on a phone, four on wider screens (nothing scrolls sideways); `row` adds the space a page section has.
 */
import { useId } from 'react';
import { formatPrice } from '../../../core/protocol/format.ts';
import { useElement } from '../element.tsx';
import { TilePhoto } from '../ui/tile-photo.tsx';
import { listingUrl } from '../site-links.ts';
import { clearViewed, useRecentlyViewed, type SavedListing } from './store.ts';

function RecentTile({ item }: { item: SavedListing }) {
  const { t, site, lang } = useElement();
  const title = item.title || t('listing.defaultTitle');
  return (
    <a
      href={listingUrl({ id: item.id, title }, site, lang)}
      className="flex h-full flex-col overflow-hidden rounded-md border border-line bg-surface text-ink no-underline hover:border-primary focus-visible:border-primary"
      part="recent-listing"
    >
      <span className="relative block aspect-video bg-surface-subtle">
        <TilePhoto
          listingId={item.id}
          src={item.image}
          label={t('carousel.noPhoto')}
          className="block h-full w-full object-cover"
        />
      </span>
      <span className="flex flex-col gap-0.5 p-2">
        <span className="text-sm font-bold">{formatPrice(item.price)}</span>
        <span className="line-clamp-2 text-sm leading-snug break-words">{title}</span>
        {item.city ? <span className="truncate text-xs text-ink-muted">{item.city}</span> : null}
      </span>
    </a>
  );
}

export interface RecentRowProps {
  /** how many to show (the list keeps 20) */
  max: number;
  layout: 'row' | 'grid';
  showTitle: boolean;
  headingLevel?: 'h2' | 'h3';
}

export function RecentlyViewedRow({ max, layout, showTitle, headingLevel = 'h2' }: RecentRowProps) {
  const { t, api, toaster } = useElement();
  const items = useRecentlyViewed(api.url).slice(0, max);
  const headingId = useId();
  if (!items.length) return null;
  const Heading = headingLevel;
  const clear = () => {
    clearViewed(api.url);
    toaster.announce({ key: 'recent.cleared' });
  };
  return (
    <section
      className={`flex flex-col gap-3 ${layout === 'row' ? 'py-6' : ''}`}
      part="recent"
      aria-labelledby={showTitle ? headingId : undefined}
      aria-label={showTitle ? undefined : t('recent.heading')}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        {showTitle ? (
          <Heading id={headingId} className="m-0 text-xl font-bold text-ink" part="heading">
            {t('recent.heading')}
          </Heading>
        ) : (
          <p className="m-0 text-sm text-ink-muted">{t('recent.note')}</p>
        )}
        <button
          type="button"
          onClick={clear}
          className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-semibold text-ink cursor-pointer hover:bg-surface-subtle"
          part="clear"
        >
          {t('recent.clear')}
        </button>
      </div>
      <ul className="m-0 grid list-none grid-cols-[repeat(2,minmax(0,1fr))] gap-3 p-0 cq-md:grid-cols-[repeat(4,minmax(0,1fr))]">
        {items.map((item) => (
          <li key={item.id} className="min-w-0">
            <RecentTile item={item} />
          </li>
        ))}
      </ul>
      {showTitle ? <p className="m-0 text-xs text-ink-muted">{t('recent.note')}</p> : null}
    </section>
  );
}
