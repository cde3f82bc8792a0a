/**
 * <exp-property-search>: the whole search (docs/product.md §2): filters, the map beside the list,
 * the cards, pagination, the detail dialog. The pieces: the store (state and loading, store.ts),
 * the address bar (use-url-sync.ts), the toasts (use-search-toasts.ts), the list (results.tsx).
 */
import { useSignalEffect } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { getClients } from '../lib/data/client.ts';
import { appliedFilters, getPropertyTypes, PAGE_SIZE, type SearchFilters, type SortKey } from '../lib/data/listings.ts';
import { getPlaceSuggestions } from '../lib/data/places.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { useStructuredData, type Builders } from '../lib/structured-data.ts';
import { emit } from '../lib/events.ts';
import { listingDefaults, listingPrice, mapListing, monthUnit, type Property } from '../../core/protocol/listing.ts';
import { filtersFrom } from '../lib/listing/filter-attributes.ts';
import { preloadPropertyDialog, PropertyDialog } from '../lib/listing/lazy-property-dialog.tsx';
import { MapPanel } from '../lib/map/map-panel.tsx';
import { EMPTY_SEARCH } from '../lib/map/use-map-data.ts';
import type { LngLat } from '../../core/protocol/polygon.ts';
import { useStableCallback } from '../lib/stable-callback.ts';
import { listingUrl } from '../lib/site-links.ts';
import { parseListingPath, splitLangPath } from '../../core/routes.ts';
import { FilterBar } from './filter-bar.tsx';
import type { FilterChips as Chips } from './filter-chips.tsx';
import { lazyChunk } from '../lib/lazy-chunk.ts';
import type { propertySearchAttributes } from './property-search.attributes.ts';
import { Results } from './results.tsx';
import { placeLabel } from '../lib/location-box/location-box.tsx';
import { totalPages } from './pagination.ts';
import { createSearchStore } from './store.ts';
import { useSearchToasts } from './use-search-toasts.ts';
import { useUrlSync } from './use-url-sync.ts';
import type { SearchState } from './url-state.ts';

type Props = ElementProps<typeof propertySearchAttributes>;

export function PropertySearch(props: Props) {
  useSignals();
  const { t, api, host, toaster, site, lang } = useElement();
  const rest = getClients(api).rest;
  const [store] = useState(() => createSearchStore(rest));
  // a new api-url: the store reads the new backend and searches again
  useEffect(() => store.setClient(rest), [store, rest]);
  const [types, setTypes] = useState<string[]>([]);
  const mapRef = useRef<HTMLDivElement>(null);
  const agentId = props.agentId;

  const withScope = useCallback((f: SearchFilters): SearchFilters => (agentId ? { ...f, agentId } : (({ agentId: _drop, ...rest }) => rest)(f)), [agentId]);

  /** Applies a state: from the URL (start, back/forward) or the presets. */
  const apply = useCallback(
    (state: Partial<SearchState> & { filters: SearchFilters }) => {
      store.filters.value = withScope(state.filters);
      store.sort.value = state.sort ?? 'featured';
      store.page.value = state.page ?? 1;
      void store.open(state.property ?? null);
    },
    [store, withScope],
  );
  const openFromUrl = useCallback((id: string) => void store.open(id), [store]);
  const pushUrl = useUrlSync(store, { enabled: props.syncUrl, presets: filtersFrom(props), apply, open: openFromUrl });

  // load whenever the search changes
  useSignalEffect(() => {
    void store.searchKey.value;
    void store.load();
  });

  useEffect(() => {
    let live = true;
    getPropertyTypes(rest)
      .then((list) => live && setTypes(list))
      .catch((error: unknown) => console.error('[exp-property-search] property types:', error));
    return () => {
      live = false;
    };
  }, [rest]);

  // a place that arrived by its path alone (a shared link, a market report) is named as a picked
  // one is; one that is no place says so, instead of an empty search
  const placePath = store.filters.value.place;
  const placeNamed = Boolean(store.filters.value.placeName);
  const [unknownPlace, setUnknownPlace] = useState<string | null>(null);
  useEffect(() => {
    if (!placePath || placeNamed) return;
    const controller = new AbortController();
    getPlaceSuggestions(rest, (placePath.split('/').at(-1) ?? '').replace(/-/g, ' '), controller.signal)
      .then((found) => {
        const place = found.find((s) => s.path === placePath);
        if (place) store.filters.value = { ...store.filters.peek(), placeName: placeLabel(place) };
        else {
          // said instead of the map's "no properties" (docs/market.md: a report's link names its place)
          setUnknownPlace(placePath);
          toaster.show({
            title: { key: 'search.unknownPlace.title' },
            description: { key: 'search.unknownPlace.text', params: { place: placePath } },
            variant: 'destructive',
            replaces: [EMPTY_SEARCH],
          });
        }
      })
      .catch(() => {});
    return () => controller.abort();
  }, [placePath, placeNamed, rest, store, toaster]);

  const answer = store.answer.value;
  useSearchToasts(toaster, store.filters.value.placeName?.trim() || (store.filters.value.city?.trim() ?? ''), answer);

  // a page past the end (an old link) goes to the last page
  useEffect(() => {
    if (answer.status !== 'ready') return;
    const last = Math.max(1, totalPages(answer.total, PAGE_SIZE));
    if (store.page.peek() > last) {
      store.page.value = last;
      pushUrl('replace');
    }
  }, [answer, store, pushUrl]);

  const defaults = useMemo(() => listingDefaults(t), [t]);
  // new results render in the background (time-sliced), so 24 cards never block the page
  const shown = useDeferredValue(answer);
  const properties = useMemo(() => shown.rows.map((r) => mapListing(r, api.url, defaults)), [shown.rows, api.url, defaults]);
  const page = store.page.value;
  const structured = useCallback(
    (b: Builders) => b.listingsJsonLd(properties, (p) => new URL(listingUrl(p, site, lang), location.href).href, (page - 1) * PAGE_SIZE, monthUnit(t)),
    [properties, page, site, lang, t],
  );
  useStructuredData(host, props.structuredData, structured);
  const openRow = store.openRow.value;
  // a pin opens by id: once the listing is read, its page's address gets the title's slug
  useEffect(() => {
    if (!props.syncUrl || !openRow) return;
    const page = listingUrl({ id: String(openRow.id), title: String(openRow.title ?? '') }, site, lang);
    const here = location.pathname;
    if (page.startsWith('/') && here !== page && parseListingPath(splitLangPath(here).path)?.id === String(openRow.id)) history.replaceState(history.state, '', page);
  }, [openRow, props.syncUrl, site, lang]);
  const openProperty = useMemo(() => (openRow ? mapListing(openRow, api.url, defaults) : null), [openRow, api.url, defaults]);
  // at the listing's address the tab, the history and a bookmark name the listing, as its page does
  useEffect(() => {
    if (!props.syncUrl || !openProperty || parseListingPath(splitLangPath(location.pathname).path)?.id !== openProperty.id) return;
    const before = document.title;
    document.title = t('listing.documentTitle', { title: openProperty.title, price: listingPrice(openProperty, t) });
    return () => {
      document.title = before;
    };
  }, [openProperty, props.syncUrl, t]);

  const submit = (next: SearchFilters) => {
    // new words sort by the best match; without words there is none
    const words = appliedFilters(next).keywords;
    if (words && words !== appliedFilters(store.filters.peek()).keywords && store.sort.peek() === 'featured') store.sort.value = 'relevance';
    if (!words && store.sort.peek() === 'relevance') store.sort.value = 'featured';
    store.filters.value = withScope(next);
    store.page.value = 1;
    pushUrl('push');
    const { agentId: _scope, ...detail } = next;
    emit(host, 'exp-search', { filters: detail, sort: store.sort.peek() });
  };
  const setSort = (sort: SortKey) => {
    store.sort.value = sort;
    store.page.value = 1;
    pushUrl('push');
  };
  const setPage = (page: number) => {
    store.page.value = page;
    pushUrl('push');
    mapRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  const openDetail = (p: Property | { id: string }) => {
    const title = 'title' in p ? p.title : '';
    // a host page may handle the listing itself (follow the link, its own page)
    if (!emit(host, 'exp-property-open', { id: p.id, title }, { cancelable: true })) return;
    void store.open(p.id);
    if (!props.syncUrl) return;
    // the dialog's address is the listing's own page, where a reload or a shared link leads
    const page = listingUrl({ id: p.id, title }, site, lang);
    if (page.startsWith('/')) history.pushState({ ...(history.state ?? {}), expSearch: true, expDetail: true }, '', page);
    else {
      pushUrl('push');
      history.replaceState({ ...(history.state ?? {}), expDetail: true }, '');
    }
  };
  const closeDetail = () => {
    const pushed = props.syncUrl && (history.state as { expDetail?: boolean } | null)?.expDetail;
    void store.open(null);
    // the entry the dialog pushed is left by going back, so Back does not reopen it
    if (pushed) history.back();
    else pushUrl('replace');
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
  // a hovered pin or card is likely opened next: its dialog's chunk comes ahead
  const hover = useStableCallback((id: string | null) => {
    if (id) preloadPropertyDialog();
    store.hoveredId.value = id;
  });
  const onSort = useStableCallback(setSort);
  const onPage = useStableCallback(setPage);
  const onSearchArea = useStableCallback(searchArea);
  const onDrawArea = useStableCallback(drawArea);
  const onRetry = useStableCallback(() => void store.retry());

  const filters = store.filters.value;
  return (
    <div className="flex flex-col gap-4" part="search">
      <FilterBar applied={filters} propertyTypes={types} onSubmit={submit} rest={rest} onOpenListing={(id) => void store.open(id)} />
      <LazyChips applied={filters} onSubmit={submit} />
      <div className={props.showMap ? 'grid gap-4 cq-lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] items-start' : 'flex flex-col'}>
        {props.showMap ? (
          <div ref={mapRef} className="scroll-mt-4 cq-lg:sticky cq-lg:top-4 min-w-0">
            <MapPanel
              filters={filters}
              total={shown.status === 'ready' ? shown.total : null}
              properties={properties}
              hoveredId={store.hoveredId.value}
              onOpen={openPin}
              onHover={hover}
              onSearchArea={onSearchArea}
              areaActive={Boolean(filters.bbox)}
              polygon={filters.polygon}
              onDrawArea={onDrawArea}
              tileUrl={props.tileUrl}
              tileAttribution={props.tileAttribution}
              quietWhenEmpty={Boolean(placePath) && unknownPlace === placePath}
            />
          </div>
        ) : (
          <div ref={mapRef} />
        )}
        <Results
          status={shown.status}
          filters={filters}
          total={shown.total}
          properties={properties}
          page={store.page.value}
          sort={store.sort.value}
          hoveredId={store.hoveredId.value}
          onSort={onSort}
          onPage={onPage}
          onOpen={openCard}
          onHover={hover}
          onRetry={onRetry}
        />
      </div>
      <PropertyDialog property={openProperty} onClose={closeDetail} phoneCountryCode={props.phoneCountryCode} tileUrl={props.tileUrl} tileAttribution={props.tileAttribution} />
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
