/**
 * What the search keeps in step besides its results (docs/product.md §2), each a hook named for
 * it: the property types its filter offers, the name of a place that came by its path alone, and
 * a page past the end of the results.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { startTransition, useEffect, useState } from 'react';
import { getPropertyTypes, PAGE_SIZE } from '../lib/data/listings.ts';
import { getPlaceSuggestions } from '../lib/data/places.ts';
import { placeLabel } from '../lib/location-box/location-box.tsx';
import { EMPTY_SEARCH } from '../lib/map/use-map-data.ts';
import type { Toaster } from '../lib/toast.tsx';
import { totalPages } from '../../core/protocol/search-state.ts';
import type { SearchStore } from './store.ts';

/** The property types the backend has listings of (its filter's options). */
export function usePropertyTypes(rest: PostgrestClient): string[] {
  const [types, setTypes] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    getPropertyTypes(rest)
      // the options of a closed select: drawn in the background (time-sliced), never as one long task
      .then((list) => live && startTransition(() => setTypes(list)))
      .catch((error: unknown) => console.error('[exp-property-search] property types:', error));
    return () => {
      live = false;
    };
  }, [rest]);
  return types;
}

/**
 * A place that arrived by its path alone (a shared link, a market report) is named as a picked one
 * is; one that is no place says so, instead of an empty search. The path that is no place, if any.
 */
export function usePlaceNamed(store: SearchStore, rest: PostgrestClient, toaster: Toaster): string | null {
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
  return placePath && unknownPlace === placePath ? unknownPlace : null;
}

/** A page past the end (an old link) goes to the last page, the address corrected. */
export function useLastPage(store: SearchStore, answer: SearchStore['answer']['value'], correct: () => void): void {
  useEffect(() => {
    if (answer.status !== 'ready') return;
    const last = Math.max(1, totalPages(answer.total, PAGE_SIZE));
    if (store.page.peek() > last) {
      store.page.value = last;
      correct();
    }
  }, [answer, store, correct]);
}
