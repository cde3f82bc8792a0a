/**
 * <exp-saved-listings> (docs/decisions.md #23): the listings the visitor saved in this browser, newest
 * saved first, as cards that open the detail; the ones no longer on the market as what was kept of
 * them, marked and removable. Follows the saved list live (hearts on this page, other tabs).
 */
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { getClients } from '../lib/data/client.ts';
import { getListingsByIds } from '../lib/data/listings.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { CardSkeletons, PropertyCard } from '../lib/listing/card.tsx';
import { PropertyDialog } from '../lib/listing/lazy-property-dialog.tsx';
import { formatCount, formatPrice } from '../../core/protocol/format.ts';
import { listingDefaults, mapListing, type Property } from '../../core/protocol/listing.ts';
import { TilePhoto } from '../lib/ui/tile-photo.tsx';
import { RecentlyViewedRow } from '../lib/saved/recent-row.tsx';
import { removeSaved, useRecentlyViewed, useSavedListings, type SavedListing } from '../lib/saved/store.ts';
import type { savedListingsAttributes } from './saved-listings.attributes.ts';

type Props = ElementProps<typeof savedListingsAttributes>;

const GRID = 'list-none m-0 p-0 grid gap-5 cq-sm:grid-cols-2 cq-lg:grid-cols-3';

/** What the list kept of a listing that is no longer on the market. */
function GoneCard({ item, onRemove }: { item: SavedListing; onRemove: () => void }) {
  const { t } = useElement();
  const title = item.title || t('listing.defaultTitle');
  return (
    <article
      className="flex flex-col overflow-hidden rounded-brand bg-surface border border-line"
      part="card card-unavailable"
      data-property-id={item.id}
    >
      <div className="flex items-center justify-between gap-2 px-4 py-2.5 bg-surface-subtle text-ink-muted">
        <p className="m-0 text-lg font-bold tracking-tight line-through">{formatPrice(item.price)}</p>
        <p className="m-0 rounded-full bg-ink px-2.5 py-0.5 text-xs font-semibold text-white" part="unavailable">
          {t('savedPage.unavailable')}
        </p>
      </div>
      <div className="aspect-video bg-surface-subtle opacity-60">
        <TilePhoto
          listingId={item.id}
          src={item.image}
          label={t('carousel.noPhoto')}
          className="block w-full h-full object-cover grayscale"
        />
      </div>
      <div className="flex flex-col gap-1.5 p-4 flex-1">
        <h3 className="m-0 text-base font-semibold leading-snug text-ink line-clamp-2">{title}</h3>
        {item.city ? <p className="m-0 text-sm text-ink-muted">{item.city}</p> : null}
        <p className="m-0 text-sm text-ink-muted">{t('savedPage.unavailableText')}</p>
        <button
          type="button"
          onClick={onRemove}
          aria-label={t('savedPage.removeLabel', { title })}
          className="mt-auto self-start rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-semibold text-ink cursor-pointer hover:bg-surface-subtle"
          part="remove"
        >
          {t('savedPage.remove')}
        </button>
      </div>
    </article>
  );
}

/** "Saved" and "Recently viewed" as WAI-ARIA tabs: arrows, Home and End move between them. */
function Tabs({
  saved,
  recent,
  tab,
  onTab,
  id,
}: {
  saved: number;
  recent: number;
  tab: 'saved' | 'recent';
  onTab: (tab: 'saved' | 'recent') => void;
  id: string;
}) {
  const { t } = useElement();
  const tabs = [
    ['saved', `${t('savedPage.title')} (${formatCount(saved)})`],
    ['recent', `${t('recent.tab')} (${formatCount(recent)})`],
  ] as const;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const next = e.key === 'Home' ? 'saved' : e.key === 'End' ? 'recent' : tab === 'saved' ? 'recent' : 'saved';
    onTab(next);
    (e.currentTarget.querySelector(`#${CSS.escape(`${id}-${next}`)}`) as HTMLElement | null)?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={t('savedPage.title')}
      className="flex gap-1 border-b border-line"
      part="tabs"
      onKeyDown={onKeyDown}
    >
      {tabs.map(([key, label]) => (
        <button
          key={key}
          type="button"
          role="tab"
          id={`${id}-${key}`}
          aria-selected={tab === key}
          aria-controls={`${id}-${key}-panel`}
          tabIndex={tab === key ? 0 : -1}
          onClick={() => onTab(key)}
          className={`-mb-px border-0 border-b-2 bg-transparent px-3 py-2 text-[15px] font-semibold cursor-pointer ${tab === key ? 'border-primary text-primary' : 'border-transparent text-ink-muted hover:text-ink'}`}
          part={tab === key ? 'tab tab-selected' : 'tab'}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

export function SavedListings(props: Props) {
  const { showTitle, searchUrl, showRecent } = props;
  const tabsId = useId().replace(/:/g, '');
  const [tab, setTab] = useState<'saved' | 'recent'>('saved');
  const { t, api, host, toaster } = useElement();
  const saved = useSavedListings(api.url);
  const recent = useRecentlyViewed(api.url);
  const tabbed = showRecent && recent.length > 0;
  const ids = saved.map((s) => s.id);
  const idsKey = ids.join(',');
  const rest = getClients(api).rest;
  // the active listings read so far, by id (a removal reads nothing again)
  const [rows, setRows] = useState<Map<string, Record<string, unknown>>>(() => new Map());
  const [checked, setChecked] = useState<Set<string>>(() => new Set());
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<Property | null>(null);

  useEffect(() => {
    const missing = idsKey ? idsKey.split(',').filter((id) => !checked.has(id)) : [];
    if (!missing.length) return;
    const controller = new AbortController();
    getListingsByIds(rest, missing, controller.signal)
      .then((found) => {
        setRows((before) => new Map([...before, ...found.map((r) => [String(r.id), r] as const)]));
        setChecked((before) => new Set([...before, ...missing]));
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('[exp-saved-listings] could not load the saved listings:', error);
        setFailed(true);
      });
    return () => controller.abort();
  }, [rest, idsKey, checked]);

  const defaults = useMemo(() => listingDefaults(t), [t]);
  const properties = useMemo(
    () => new Map([...rows].map(([id, r]) => [id, mapListing(r, api.url, defaults)])),
    [rows, api.url, defaults],
  );
  const loading = ids.some((id) => !checked.has(id)) && !failed;
  const openProperty = (property: Property) => {
    if (emit(host, 'exp-property-open', { id: property.id, title: property.title }, { cancelable: true }))
      setOpen(property);
  };
  const remove = (item: SavedListing) => {
    removeSaved(api.url, item.id);
    toaster.announce({ key: 'saved.removed', params: { title: item.title || t('listing.defaultTitle') } });
    emit(host, 'exp-listing-save', { id: item.id, saved: false, title: item.title });
  };

  return (
    <section
      aria-labelledby={showTitle ? 'exp-saved-heading' : undefined}
      aria-label={showTitle ? undefined : t('savedPage.title')}
      aria-busy={loading}
      className="flex flex-col gap-6"
      part="saved"
    >
      {showTitle || ids.length ? (
        <div>
          {showTitle ? (
            <h2
              id="exp-saved-heading"
              className="m-0 mb-1 text-[28px] cq-md:text-[34px] font-bold leading-tight text-ink"
              part="heading"
            >
              {t('savedPage.title')}
            </h2>
          ) : null}
          <p className="m-0 text-ink-muted" part="count">
            {ids.length ? `${t('savedPage.count', { count: ids.length, formatted: formatCount(ids.length) })} · ` : ''}
            {t('savedPage.note')}
          </p>
        </div>
      ) : null}
      {tabbed ? <Tabs saved={ids.length} recent={recent.length} tab={tab} onTab={setTab} id={tabsId} /> : null}
      {tabbed && tab === 'recent' ? (
        <div role="tabpanel" id={`${tabsId}-recent-panel`} aria-labelledby={`${tabsId}-recent`}>
          <RecentlyViewedRow max={20} layout="grid" showTitle={false} />
        </div>
      ) : (
        <div
          role={tabbed ? 'tabpanel' : undefined}
          id={tabbed ? `${tabsId}-saved-panel` : undefined}
          aria-labelledby={tabbed ? `${tabsId}-saved` : undefined}
        >
          {failed ? (
            <p role="alert" className="m-0 py-8 text-center text-ink-muted" part="error">
              {t('savedPage.error')}
            </p>
          ) : !ids.length ? (
            <div className="rounded-brand border border-line bg-surface px-6 py-10 text-center" part="empty">
              <p className="m-0 text-lg font-semibold text-ink">{t('savedPage.empty.title')}</p>
              <p className="m-0 mt-1 text-ink-muted">{t('savedPage.empty.text')}</p>
              <a
                href={searchUrl}
                className="mt-4 inline-flex items-center rounded-md bg-primary px-4 py-2.5 font-semibold text-primary-contrast no-underline hover:bg-primary-hover"
                part="search-link"
              >
                {t('savedPage.empty.search')}
              </a>
            </div>
          ) : loading ? (
            <CardSkeletons className={GRID} count={Math.min(ids.length, 3)} />
          ) : (
            <ul className={GRID} part="grid">
              {saved.map((item) => {
                const property = properties.get(item.id);
                return (
                  <li key={item.id} className="grid">
                    {property ? (
                      <PropertyCard property={property} onOpen={openProperty} />
                    ) : (
                      <GoneCard item={item} onRemove={() => remove(item)} />
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
      <PropertyDialog property={open} onClose={() => setOpen(null)} settings={props} />
    </section>
  );
}
