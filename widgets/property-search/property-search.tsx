/**
 * <exp-property-search>: the whole search (SPEC point 2): filters, the map beside the list, the
 * cards, pagination, the detail dialog; state in the URL unless sync-url="false".
 */
import { useComputed, useSignalEffect } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { getClients } from '../lib/data/client.ts';
import { getPropertyTypes, PAGE_SIZE, type SearchFilters, type SortKey } from '../lib/data/listings.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { listingsJsonLd, useStructuredData } from '../lib/structured-data.ts';
import { emit } from '../lib/events.ts';
import { formatCount } from '../lib/format.ts';
import { mapListing, type Property } from '../lib/listing/mapping.ts';
import { filtersFrom } from '../lib/listing/filter-attributes.ts';
import { PropertyDialog } from '../lib/listing/property-dialog.tsx';
import { MapPanel } from '../lib/map/map-panel.tsx';
import { FilterBar } from './filter-bar.tsx';
import type { propertySearchAttributes } from './property-search.attributes.ts';
import { Results } from './results.tsx';
import { createSearchStore } from './store.ts';
import { filtersKey, readSearchParams, writeSearchParams, type SearchState } from './url-state.ts';

type Props = ElementProps<typeof propertySearchAttributes>;


export function PropertySearch(props: Props) {
  useSignals();
  const { t, api, host, toaster } = useElement();
  const rest = useCallback(() => getClients(api).rest, [api]);
  // the store asks for the client each time, so a new api-url takes effect at once
  const restRef = useRef(rest);
  restRef.current = rest;
  const [store] = useState(() => createSearchStore(() => restRef.current()));
  const firstApi = useRef(api.url);
  useEffect(() => {
    if (api.url === firstApi.current) return;
    firstApi.current = api.url;
    void store.retry();
  }, [api.url, store]);
  const [types, setTypes] = useState<string[]>([]);
  const mapRef = useRef<HTMLDivElement>(null);
  const syncUrl = props.syncUrl;
  const agentId = props.agentId;

  const withScope = useCallback((f: SearchFilters): SearchFilters => (agentId ? { ...f, agentId } : (({ agentId: _drop, ...rest }) => rest)(f)), [agentId]);

  /** Applies a state: from the URL (start, back/forward) or from the visitor. */
  const apply = useCallback(
    (state: Partial<SearchState> & { filters: SearchFilters }) => {
      store.filters.value = withScope(state.filters);
      store.sort.value = state.sort ?? 'featured';
      store.page.value = state.page ?? 1;
      void store.open(state.property ?? null);
    },
    [store, withScope],
  );

  const pushUrl = useCallback(
    (mode: 'push' | 'replace') => {
      if (!syncUrl) return;
      const state: SearchState = { filters: store.filters.peek(), sort: store.sort.peek(), page: store.page.peek(), ...(store.openId.peek() ? { property: store.openId.peek() as string } : {}) };
      const { agentId: _scope, ...visible } = state.filters;
      const params = writeSearchParams(new URLSearchParams(location.search), { ...state, filters: visible });
      const query = params.toString();
      const url = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
      if (url === `${location.pathname}${location.search}${location.hash}`) return;
      history[mode === 'push' ? 'pushState' : 'replaceState']({ ...(history.state ?? {}), expSearch: true }, '', url);
    },
    [store, syncUrl],
  );

  // start: the URL (when synced) over the attributes' presets; back and forward restore
  // the attributes' presets; agent-id is a scope the visitor keeps (withScope)
  const presetKey = JSON.stringify(filtersFrom(props));
  useEffect(() => {
    const presets = JSON.parse(presetKey) as SearchFilters;
    if (!syncUrl) {
      apply({ filters: presets });
      return;
    }
    const fromUrl = () => {
      const read = readSearchParams(new URLSearchParams(location.search));
      const hasFilters = Object.keys(read.filters).length > 0;
      apply({ ...read, filters: hasFilters ? read.filters : presets });
    };
    fromUrl();
    window.addEventListener('popstate', fromUrl);
    return () => window.removeEventListener('popstate', fromUrl);
  }, [apply, presetKey, syncUrl]);

  // fetch whenever the search changes
  const searchKey = useComputed(() => `${filtersKey(store.filters.value)}|${store.sort.value}|${store.page.value}`);
  useSignalEffect(() => {
    void searchKey.value;
    void store.load();
  });

  useEffect(() => {
    let live = true;
    getPropertyTypes(rest())
      .then((list) => live && setTypes(list))
      .catch((error: unknown) => console.error('[exp-property-search] property types:', error));
    return () => {
      live = false;
    };
  }, [rest]);

  // toasts: the city being searched, and how many were found for a new search
  const city = store.filters.value.city?.trim() ?? '';
  const lastCity = useRef<string | null>(null);
  useEffect(() => {
    if (city && lastCity.current !== null && city !== lastCity.current) toaster.show({ title: { key: 'toast.searchingIn', params: { city } } });
    if (city && lastCity.current === null) toaster.show({ title: { key: 'toast.searchingIn', params: { city } } });
    lastCity.current = city;
  }, [city]); // eslint-disable-line react-hooks/exhaustive-deps
  const answer = store.answer.value;
  const toasted = useRef('');
  useEffect(() => {
    if (answer.status !== 'ready' || answer.total <= 0 || toasted.current === answer.filtersKey) return;
    toasted.current = answer.filtersKey;
    toaster.show({ title: { key: 'toast.resultsTitle' }, description: { key: 'toast.resultsText', params: { count: answer.total, formatted: formatCount(answer.total) } } });
  }, [answer, t, toaster]);

  // a page past the end (an old link) goes to the last page
  useEffect(() => {
    if (answer.status !== 'ready') return;
    const last = Math.max(1, Math.ceil(answer.total / 24));
    if (store.page.peek() > last) {
      store.page.value = last;
      pushUrl('replace');
    }
  }, [answer, store, pushUrl]);

  const defaults = useMemo(() => ({ title: t('listing.defaultTitle'), agentName: t('agent.defaultName') }), [t]);
  // new results render in the background (time-sliced), so 24 cards never block the page
  const shown = useDeferredValue(answer);
  const properties = useMemo(() => shown.rows.map((r) => mapListing(r, api.url, defaults)), [shown.rows, api.url, defaults]);
  const page = store.page.value;
  const structured = useMemo(() => listingsJsonLd(properties, (page - 1) * PAGE_SIZE), [properties, page]);
  useStructuredData(host, props.structuredData, structured);
  const openRow = store.openRow.value;
  const openProperty = useMemo(() => (openRow ? mapListing(openRow, api.url, defaults) : null), [openRow, api.url, defaults]);

  const submit = (next: SearchFilters) => {
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
    void store.open(p.id);
    if (syncUrl) {
      pushUrl('push');
      history.replaceState({ ...(history.state ?? {}), expDetail: true }, '');
    }
    emit(host, 'exp-property-open', { id: p.id, title: 'title' in p ? p.title : '' });
  };
  const closeDetail = () => {
    const pushed = syncUrl && (history.state as { expDetail?: boolean } | null)?.expDetail;
    void store.open(null);
    // the entry the dialog pushed is left by going back, so Back does not reopen it
    if (pushed) history.back();
    else pushUrl('replace');
  };
  const searchArea = (bbox: [number, number, number, number] | undefined) => {
    const next = { ...store.filters.peek() };
    if (bbox) next.bbox = bbox;
    else delete next.bbox;
    submit(next);
  };

  const filters = store.filters.value;
  return (
    <div className="flex flex-col gap-4" part="search">
      <FilterBar applied={filters} propertyTypes={types} onSubmit={submit} />
      <div className={props.showMap ? 'grid gap-4 cq-lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] items-start' : 'flex flex-col'}>
        {props.showMap ? (
          <div ref={mapRef} className="scroll-mt-4 cq-lg:sticky cq-lg:top-4 min-w-0">
            <MapPanel
              filters={filters}
              total={shown.status === 'ready' ? shown.total : null}
              properties={properties}
              hoveredId={store.hoveredId.value}
              onOpen={(id) => openDetail({ id })}
              onHover={(id) => (store.hoveredId.value = id)}
              onSearchArea={searchArea}
              areaActive={Boolean(filters.bbox)}
              tileUrl={props.tileUrl}
            />
          </div>
        ) : (
          <div ref={mapRef} />
        )}
        <Results
          status={shown.status}
          total={shown.total}
          properties={properties}
          page={store.page.value}
          sort={store.sort.value}
          hoveredId={store.hoveredId.value}
          onSort={setSort}
          onPage={setPage}
          onOpen={(p) => openDetail(p)}
          onHover={(id) => (store.hoveredId.value = id)}
          onRetry={() => void store.retry()}
        />
      </div>
      <PropertyDialog property={openProperty} onClose={closeDetail} phoneCountryCode={props.phoneCountryCode} />
    </div>
  );
}
