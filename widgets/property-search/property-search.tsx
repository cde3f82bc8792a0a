/**
 * <exp-property-search>: the whole search (docs/product.md §2): filters, the map beside the list,
 * the cards, pagination, the detail dialog. The pieces: the store (state and loading, store.ts),
 * the address bar and the tab's title (use-url-sync.ts, the one owner of the URL), what else it
 * keeps in step (search-hooks.ts), the toasts (use-search-toasts.ts), the list (results.tsx).
 */
import { useSignalEffect } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { afterNextPaint } from '../lib/main-thread.ts';
import { getClients } from '../lib/data/client.ts';
import { appliedFilters, PAGE_SIZE, type SearchFilters, type SortKey } from '../lib/data/listings.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { useStructuredData, type Builders } from '../lib/structured-data.ts';
import { emit } from '../lib/events.ts';
import { listingDefaults, listingPrice, mapListing, monthUnit, type Property } from '../../core/protocol/listing.ts';
import { filtersFrom } from '../lib/listing/filter-attributes.ts';
import { preloadPropertyDialog, PropertyDialog } from '../lib/listing/lazy-property-dialog.tsx';
import { MapPanel } from '../lib/map/map-panel.tsx';
import type { LngLat } from '../../core/protocol/polygon.ts';
import { useStableCallback } from '../lib/stable-callback.ts';
import { listingUrl } from '../lib/site-links.ts';
import { FilterBar } from './filter-bar.tsx';
import type { FilterChips as Chips } from './filter-chips.tsx';
import { lazyChunk } from '../lib/lazy-chunk.ts';
import { pageAnswer } from '../lib/page-answer.ts';
import type { propertySearchAttributes } from './property-search.attributes.ts';
import { Results } from './results.tsx';
import { createSearchStore } from './store.ts';
import { useSearchToasts } from './use-search-toasts.ts';
import { addressSearch, useListingTitle, useUrlSync } from './use-url-sync.ts';
import { useLastPage, usePlaceNamed, usePropertyTypes } from './search-hooks.ts';
import { parseSearchAnswer, SEARCH_ANSWER_MARK, type SearchState } from '../../core/protocol/search-state.ts';

type Props = ElementProps<typeof propertySearchAttributes>;

export function PropertySearch(props: Props) {
  useSignals();
  const { t, api, host, toaster, site, lang } = useElement();
  // the test build counts the search's renders (a hover draws the cards it changes, not the search)
  if (import.meta.env.EXP_TEST_HOOKS) host.dataset.renders = String(Number(host.dataset.renders ?? 0) + 1);
  const rest = getClients(api).rest;
  const agentId = props.agentId;
  const withScope = useCallback(
    (f: SearchFilters): SearchFilters => (agentId ? { ...f, agentId } : (({ agentId: _drop, ...rest }) => rest)(f)),
    [agentId],
  );
  // it starts at the search its address starts (use-url-sync.ts applies the same at once, a no-op
  // then), whose answer a search page's HTML carries (server/pages/search-results.tsx)
  const [store] = useState(() => {
    const start = addressSearch(props.syncUrl, filtersFrom(props));
    return createSearchStore(rest, parseSearchAnswer(pageAnswer(host, SEARCH_ANSWER_MARK)), {
      ...start,
      filters: withScope(start.filters),
    });
  });
  // a new api-url: the store reads the new backend and searches again
  useEffect(() => store.setClient(rest), [store, rest]);
  const types = usePropertyTypes(rest);

  /** Applies a state: from the URL (start, back/forward) or the presets; the same search again changes nothing. */
  const apply = useCallback(
    (state: Partial<SearchState> & { filters: SearchFilters }) => {
      const filters = withScope(state.filters);
      if (JSON.stringify(filters) !== JSON.stringify(store.filters.peek())) store.filters.value = filters;
      store.sort.value = state.sort ?? 'featured';
      store.page.value = state.page ?? 1;
      void store.open(state.property ?? null);
    },
    [store, withScope],
  );
  const openFromUrl = useCallback((id: string) => void store.open(id), [store]);
  const url = useUrlSync(store, {
    enabled: props.syncUrl,
    presets: filtersFrom(props),
    apply,
    open: openFromUrl,
    site,
    lang,
  });

  // load whenever the search changes
  useSignalEffect(() => {
    void store.searchKey.value;
    void store.load();
  });

  const unknownPlace = usePlaceNamed(store, rest, toaster);
  const answer = store.answer.value;
  useSearchToasts(toaster, store.filters.value.placeName?.trim() || (store.filters.value.city?.trim() ?? ''), answer);
  const correctUrl = useCallback(() => url.write('replace'), [url]);
  useLastPage(store, answer, correctUrl);

  const defaults = useMemo(() => listingDefaults(t), [t]);
  // new results render in the background (time-sliced), so 24 cards never block the page
  const shown = useDeferredValue(answer);
  const properties = useMemo(
    () => shown.rows.map((r) => mapListing(r, api.url, defaults)),
    [shown.rows, api.url, defaults],
  );
  const page = store.page.value;
  const structured = useCallback(
    (b: Builders) =>
      b.listingsJsonLd(
        properties,
        (p) => new URL(listingUrl(p, site, lang), location.href).href,
        (page - 1) * PAGE_SIZE,
        monthUnit(t),
      ),
    [properties, page, site, lang, t],
  );
  // the first page as the server wrote it has its JSON-LD in the page already
  useStructuredData(host, props.structuredData, structured, {
    loading: shown.status === 'loading',
    asServed: shown.rows === store.servedRows,
  });
  const openRow = store.openRow.value;
  const openProperty = useMemo(
    () => (openRow ? mapListing(openRow, api.url, defaults) : null),
    [openRow, api.url, defaults],
  );
  const listingTitle = useCallback(
    (p: Property) => t('listing.documentTitle', { title: p.title, price: listingPrice(p, t) }),
    [t],
  );
  useListingTitle(props.syncUrl, openProperty, listingTitle);

  const submit = (next: SearchFilters) => {
    // new words sort by the best match; without words there is none
    const words = appliedFilters(next).keywords;
    if (words && words !== appliedFilters(store.filters.peek()).keywords && store.sort.peek() === 'featured')
      store.sort.value = 'relevance';
    if (!words && store.sort.peek() === 'relevance') store.sort.value = 'featured';
    store.filters.value = withScope(next);
    store.page.value = 1;
    url.write('push');
    const { agentId: _scope, ...detail } = next;
    emit(host, 'exp-search', { filters: detail, sort: store.sort.peek() });
  };
  const setSort = (sort: SortKey) => {
    store.sort.value = sort;
    store.page.value = 1;
    url.write('push');
  };
  const setPage = (page: number) => {
    store.page.value = page;
    url.write('push');
  };
  const openDetail = (p: Property | { id: string }) => {
    const title = 'title' in p ? p.title : '';
    // a host page may handle the listing itself (follow the link, its own page)
    if (!emit(host, 'exp-property-open', { id: p.id, title }, { cancelable: true })) return;
    void store.open(p.id);
    url.opened({ id: p.id, title });
  };
  const closeDetail = () => {
    void store.open(null);
    url.closed();
  };
  // the visible area and a drawn one do not apply together: the newer replaces the other
  const searchArea = (bbox: [number, number, number, number] | undefined) => {
    const next = { ...store.filters.peek() };
    delete next.polygon;
    if (bbox) next.bbox = bbox;
    else delete next.bbox;
    submit(next);
  };
  const drawArea = (polygon: LngLat[] | undefined) => {
    const next = { ...store.filters.peek() };
    delete next.bbox;
    if (polygon) next.polygon = polygon;
    else delete next.polygon;
    submit(next);
  };

  // stable handlers: the cards and the map do not render again when the detail opens or closes
  const openCard = useStableCallback((p: Property) => openDetail(p));
  const openPin = useStableCallback((id: string) => openDetail({ id }));
  // a hovered pin or card is likely opened next: its dialog's chunk comes ahead. The highlight
  // comes and goes after the next frame: a click that opens the detail moves the pointer off its
  // card, and a tap on a phone enters the card in the frame of its click; the highlight (a card
  // drawn again, the map's pin, a layout of the page) in that frame held the dialog's paint back
  // (docs/benchmarks.md, "A card clicked")
  const hovers = useRef(0);
  const hover = useStableCallback((id: string | null) => {
    const turn = ++hovers.current;
    if (id) preloadPropertyDialog();
    afterNextPaint(() => {
      if (turn === hovers.current) store.hoveredId.value = id;
    });
  });
  const onSort = useStableCallback(setSort);
  const onPage = useStableCallback(setPage);
  const onSearchArea = useStableCallback(searchArea);
  const onDrawArea = useStableCallback(drawArea);
  const onRetry = useStableCallback(() => void store.retry());

  const filters = store.filters.value;
  return (
    <div className="flex flex-col gap-4" part="search">
      <FilterBar
        applied={filters}
        propertyTypes={types}
        onSubmit={submit}
        rest={rest}
        onOpenListing={(id) => void store.open(id)}
      />
      <LazyChips applied={filters} onSubmit={submit} />
      <div
        className={
          props.showMap ? 'grid gap-4 cq-lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] items-start' : 'flex flex-col'
        }
      >
        {props.showMap ? (
          <div className="cq-lg:sticky cq-lg:top-4 min-w-0">
            <MapPanel
              filters={filters}
              total={shown.status === 'ready' ? shown.total : null}
              properties={properties}
              hoveredId={store.hoveredId}
              onOpen={openPin}
              onHover={hover}
              onSearchArea={onSearchArea}
              areaActive={Boolean(filters.bbox)}
              polygon={filters.polygon}
              onDrawArea={onDrawArea}
              tileUrl={props.tileUrl}
              tileAttribution={props.tileAttribution}
              quietWhenEmpty={unknownPlace !== null}
              foldable
            />
          </div>
        ) : null}
        <Results
          status={shown.status}
          filters={filters}
          total={shown.total}
          properties={properties}
          page={store.page.value}
          sort={store.sort.value}
          hoveredId={store.hoveredId}
          onSort={onSort}
          onPage={onPage}
          onOpen={openCard}
          onHover={hover}
          onRetry={onRetry}
        />
      </div>
      <PropertyDialog property={openProperty} onClose={closeDetail} settings={props} />
    </div>
  );
}

/** the chips of the filters that apply (filter-chips.tsx): their own chunk, loaded once a search has a filter of the visitor's */
const loadChips = lazyChunk(() => import('./filter-chips.tsx'));

function LazyChips({ applied, onSubmit }: { applied: SearchFilters; onSubmit: (next: SearchFilters) => void }) {
  const [FilterChips, setFilterChips] = useState<typeof Chips | null>(null);
  const wanted = Object.keys(appliedFilters(applied)).some((key) => key !== 'agentId');
  useEffect(() => {
    if (!wanted || FilterChips) return;
    loadChips()
      .then(({ FilterChips: loaded }) => setFilterChips(() => loaded))
      .catch((error: unknown) => console.error('[exp] the filter chips did not load:', error));
  }, [wanted, FilterChips]);
  return FilterChips ? <FilterChips applied={applied} onSubmit={onSubmit} /> : null;
}
