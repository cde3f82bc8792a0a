/**
 * The search's toasts (docs/product.md §4): 'Searching in {city}' when the city searched changes,
 * and 'Search Results' with the number found, once per new search that found something.
 */
import { useEffect, useRef } from 'react';
import { formatCount } from '../../core/protocol/format.ts';
import type { Toaster } from '../lib/toast.tsx';
import type { SearchAnswer } from './store.ts';

export function useSearchToasts(toaster: Toaster, city: string, answer: SearchAnswer): void {
  const lastCity = useRef<string | null>(null);
  useEffect(() => {
    if (city && city !== lastCity.current) toaster.show({ title: { key: 'toast.searchingIn', params: { city } } });
    lastCity.current = city;
  }, [city, toaster]);

  const toasted = useRef('');
  useEffect(() => {
    if (answer.status !== 'ready' || answer.total <= 0 || toasted.current === answer.filtersKey) return;
    toasted.current = answer.filtersKey;
    toaster.show({
      title: { key: 'toast.resultsTitle' },
      description: { key: 'toast.resultsText', params: { count: answer.total, formatted: formatCount(answer.total) } },
    });
  }, [answer, toaster]);
}
