/**
 * The heart that saves a listing (docs/decisions.md #23): on cards, the detail, the listing's page
 * and map popups. A toggle button (aria-pressed) named after the listing; the change is announced
 * to screen readers and fired to the host page as `exp-listing-save` ({ id, saved, title }). Every
 * heart of the page (and of its other tabs) follows the saved list live.
 */
import { countListingEvent } from '../data/listing-events.ts';
import { useElement } from '../element.tsx';
import { emit } from '../events.ts';
import { HeartIcon } from '../ui/icons/heart.tsx';
import { keptEntry, toggleSaved, useIsSaved } from './store.ts';

export interface SaveDetail {
  /** the listing's id */
  id: string;
  /** true: saved now; false: removed */
  saved: boolean;
  title: string;
}

declare module '../events.ts' {
  interface ExpEventMap {
    'exp-listing-save': SaveDetail;
  }
}

export interface SaveTarget {
  id: string;
  title: string;
  price: number;
  city: string;
  images: string[];
}

export function SaveButton({
  listing,
  tone = 'surface',
  size = 'md',
}: {
  listing: SaveTarget;
  tone?: 'surface' | 'plain';
  size?: 'sm' | 'md';
}) {
  const { t, api, host, toaster } = useElement();
  const saved = useIsSaved(api.url, listing.id);
  const box = size === 'sm' ? 'w-8 h-8' : 'w-10 h-10';
  const label = t(saved ? 'saved.unsaveLabel' : 'saved.saveLabel', { title: listing.title });
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={label}
      title={label}
      part={saved ? 'save-button saved' : 'save-button'}
      className={`${box} shrink-0 rounded-full flex items-center justify-center cursor-pointer border-0 ${tone === 'surface' ? 'bg-white/90 shadow' : 'bg-transparent hover:bg-surface-subtle'} ${saved ? 'text-accent' : 'text-ink'}`}
      onClick={(e) => {
        // a heart on a card's photo saves; it does not open the listing
        e.stopPropagation();
        e.preventDefault();
        const now = toggleSaved(api.url, keptEntry(listing));
        if (now) countListingEvent(api, listing.id, 'save');
        toaster.announce({ key: now ? 'saved.added' : 'saved.removed', params: { title: listing.title } });
        emit(host, 'exp-listing-save', { id: listing.id, saved: now, title: listing.title });
      }}
    >
      <HeartIcon size={size === 'sm' ? 18 : 20} filled={saved} />
    </button>
  );
}
