/**
 * The right-hand side: the total and "Showing X - Y of Z", the sort, the cards (two columns when
 * there is room; a scroll area of their own only beside the map, the page's scroll on a phone or a
 * tablet, where a box in the page would trap a finger), 4 skeletons while loading, the empty and
 * error states, and the pagination. The count is announced to screen readers.
 */
import type { ReadonlySignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { PAGE_SIZE, SORT_KEYS, type SortKey } from '../lib/data/listings.ts';
import { useElement, useStyles } from '../lib/element.tsx';
import { formatCount } from '../../core/protocol/format.ts';
import { CardSkeleton, PropertyCard, type PropertyCardProps } from '../lib/listing/card.tsx';
import { wordStems } from '../../core/protocol/words.ts';
import type { Property } from '../../core/protocol/listing.ts';
import { ChevronLeft } from '../lib/ui/icons/chevron-left.tsx';
import { ChevronRight } from '../lib/ui/icons/chevron-right.tsx';
import { pageWindow, showingRange, totalPages } from '../../core/protocol/search-state.ts';
import { selectCss } from './select.ts';
import { AlertButton } from '../lib/alerts/alert-button.tsx';
import { lazyChunk } from '../lib/lazy-chunk.ts';
import type * as Median from './place-median.tsx';
import type { SearchFilters } from '../lib/data/listings.ts';
import { Options } from '../lib/ui/options.tsx';

export interface ResultsProps {
  status: 'loading' | 'ready' | 'error';
  /** the search shown (what "Get alerts" subscribes to) */
  filters: SearchFilters;
  total: number;
  properties: Property[];
  page: number;
  sort: SortKey;
  /** the listing hovered here or on the map: read by each card itself, so a hover draws two cards, not the list */
  hoveredId: ReadonlySignal<string | null>;
  onSort: (sort: SortKey) => void;
  onPage: (page: number) => void;
  onOpen: (p: Property, opener: HTMLElement | null) => void;
  onHover: (id: string | null) => void;
  onRetry: () => void;
}

export const Results = memo(function Results({
  status,
  filters,
  total,
  properties,
  page,
  sort,
  hoveredId,
  onSort,
  onPage,
  onOpen,
  onHover,
  onRetry,
}: ResultsProps) {
  useStyles(selectCss);
  const { t } = useElement();
  const id = useId();
  const pages = totalPages(total, PAGE_SIZE);
  const [from, to] = showingRange(page, PAGE_SIZE, total);
  const ready = status === 'ready';
  const top = useRef<HTMLElement>(null);
  const list = useRef<HTMLDivElement>(null);
  // another page asked for: its first card in view (the list's box back to its top beside the map; the page's scroll elsewhere)
  const turn = (n: number) => {
    onPage(n);
    if (list.current) list.current.scrollTop = 0;
    top.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  const keywords = filters.keywords;
  const words = useMemo(() => wordStems(keywords), [keywords]);
  // the best match is an order only when there are words
  const sorts = SORT_KEYS.filter((k) => k !== 'relevance' || keywords || sort === k);
  return (
    <section
      ref={top}
      aria-labelledby={`${id}-heading`}
      className="flex flex-col gap-3 min-w-0 scroll-mt-4"
      part="results"
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="m-0 text-xl font-bold text-ink" part="results-heading">
            {status === 'loading' && !total
              ? t('results.searching')
              : t('results.count', {
                  count: total,
                  formatted: formatCount(total),
                  context: filters.operation === 'project' ? 'project' : undefined,
                })}
          </h2>
          <p className="m-0 text-sm text-ink-muted">
            {total > 0
              ? t('results.showing', { from: formatCount(from), to: formatCount(to), total: formatCount(total) })
              : '\u00a0'}
          </p>
          {/* a sale's median asking price; a rent search's place has its rents in the market report, a project's page its sector's resale median */}
          {filters.operation ? null : <PlaceMedianLater place={filters.place} propertyType={filters.propertyType} />}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <AlertButton
            filters={filters}
            text={t('search.alertsButton')}
            label={t('search.alertsButtonLabel')}
            part="alerts-button"
          />
          {/* the label and its select wrap together: on a phone "Sort by" never ends a line its select starts the next */}
          <span className="flex max-w-full items-center gap-2" part="sort">
            <label htmlFor={`${id}-sort`} className="shrink-0 text-sm font-medium text-ink-muted">
              {t('results.sort.label')}
            </label>
            <select
              id={`${id}-sort`}
              value={sort}
              onChange={(e) => onSort(e.target.value as SortKey)}
              className="exp-select h-10 min-w-0 rounded-md border border-line bg-surface pl-3 pr-8 text-sm text-ink cursor-pointer outline-none focus:border-primary focus:ring-2 focus:ring-primary/30"
            >
              <Options options={sorts.map((k) => ({ value: k, label: t(`results.sort.${k}`) }))} />
            </select>
          </span>
        </div>
      </div>
      <p className="exp-sr-only" role="status" aria-live="polite" aria-atomic="true">
        {ready
          ? total > 0
            ? t('results.announce', { count: total, formatted: formatCount(total), from, to })
            : t('results.empty.title')
          : status === 'loading'
            ? t('results.searching')
            : t('results.empty.title')}
      </p>
      <div
        ref={list}
        className="exp-scroll cq-lg:max-h-[800px] cq-lg:overflow-y-auto cq-lg:overscroll-contain cq-lg:pr-1 cq-lg:-mr-1"
        part="list"
        tabIndex={-1}
        aria-busy={status === 'loading'}
      >
        {status === 'loading' && properties.length === 0 ? (
          <div className="grid gap-4 cq-md:grid-cols-2">
            {[0, 1, 2, 3].map((i) => (
              <CardSkeleton key={i} />
            ))}
          </div>
        ) : properties.length === 0 ? (
          <div
            className="flex flex-col items-center justify-center gap-2 rounded-brand border border-dashed border-line bg-surface px-6 py-16 text-center"
            part="empty"
          >
            <p className="m-0 text-lg font-semibold text-ink">{t('results.empty.title')}</p>
            <p className="m-0 text-ink-muted">{t('results.empty.text')}</p>
            {status === 'error' ? (
              <button
                type="button"
                onClick={onRetry}
                className="mt-3 rounded-md bg-primary px-4 py-2 font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover"
              >
                {t('common.tryAgain')}
              </button>
            ) : null}
          </div>
        ) : (
          <ul
            className={`list-none m-0 p-0 grid gap-4 cq-md:grid-cols-2 transition-opacity ${status === 'loading' ? 'opacity-60' : ''}`}
          >
            {properties.map((p) => (
              <li key={p.id} className="flex exp-offscreen-card">
                <ListedCard property={p} onOpen={onOpen} onHover={onHover} hoveredId={hoveredId} words={words} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {pages > 1 ? <Pagination page={page} pages={pages} onPage={turn} /> : null}
    </section>
  );
});

/** A card of the list, highlighted while it or its pin is hovered: it reads the hovered listing itself. */
const ListedCard = memo(function ListedCard({
  hoveredId,
  ...props
}: Omit<PropertyCardProps, 'highlighted'> & { hoveredId: ReadonlySignal<string | null> }) {
  useSignals();
  // each card renders again on a hover, and only the two whose highlight changes draw anything
  // (PropertyCard is memoised): a computed per card would cost more bytes than these renders time
  return <PropertyCard {...props} highlighted={hoveredId.value === props.property.id} />;
});

function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (p: number) => void }) {
  const { t } = useElement();
  // on a phone one row of arrows and five numbers (36 px each and 4 px between, 276 px in all: a 320 px
  // screen has 288); the words beside the arrows where there is room, the arrows' names always
  const button =
    'min-w-[36px] h-10 px-2 inline-flex items-center justify-center gap-1 rounded-md border text-sm font-medium cursor-pointer disabled:cursor-not-allowed disabled:opacity-40';
  const word = 'hidden cq-sm:inline';
  return (
    <nav
      aria-label={t('pagination.label')}
      part="pagination"
      className="flex flex-wrap items-center justify-center gap-1 pt-2"
    >
      <button
        type="button"
        className={`${button} border-line bg-surface text-ink hover:bg-surface-subtle`}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t('pagination.previous')}
      >
        <ChevronLeft size={16} />
        <span className={word}>{t('pagination.previous')}</span>
      </button>
      {pageWindow(page, pages).map((n) => (
        <button
          key={n}
          type="button"
          aria-current={n === page ? 'page' : undefined}
          aria-label={t('pagination.page', { page: n })}
          onClick={() => onPage(n)}
          className={`${button} ${n === page ? 'border-primary bg-primary text-primary-contrast' : 'border-line bg-surface text-ink hover:bg-surface-subtle'}`}
        >
          {n}
        </button>
      ))}
      <button
        type="button"
        className={`${button} border-line bg-surface text-ink hover:bg-surface-subtle`}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        aria-label={t('pagination.next')}
      >
        <span className={word}>{t('pagination.next')}</span>
        <ChevronRight size={16} />
      </button>
    </nav>
  );
}

// a picked place's median (./place-median.tsx) is its own chunk, downloaded when a place is picked:
// a search without one does not pay for the market's code
const loadMedian = lazyChunk(() => import('./place-median.tsx'));

function PlaceMedianLater({ place, propertyType }: { place: string | undefined; propertyType: string | undefined }) {
  const [median, setMedian] = useState<typeof Median | null>(null);
  useEffect(() => {
    if (place && !median)
      loadMedian().then(setMedian, (error: unknown) => console.error('[exp] the place median did not load:', error));
  }, [place, median]);
  return place && median ? <median.PlaceMedian place={place} propertyType={propertyType} /> : null;
}
