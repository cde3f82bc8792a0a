/**
 * The search's toasts (docs/product.md §4): 'Searching in {city}' when the city searched changes,
 * and 'Search Results' with the number found, once per new search that found something. One toast
 * a search: when its city changed, 'Searching in {city}' over the number found (or alone, when it
 * found nothing); two toasts about one search covered the results on a phone. The search the page
 * arrived with is not said: its heading says its number, and a toast then only covered a partner's
 * page as it loaded (and cost the page's main thread a long task in its first seconds).
 */
import { useEffect, useRef } from 'react';
import { formatCount } from '../../core/protocol/format.ts';
import { whenIdle } from '../lib/main-thread.ts';
import type { Toaster } from '../lib/toast.tsx';
import type { SearchAnswer } from './store.ts';

export function useSearchToasts(toaster: Toaster, city: string, answer: SearchAnswer): void {
  // the city searched since the last answer was said, if it changed
  const lastCity = useRef<string | null>(null);
  const cityUnsaid = useRef('');
  useEffect(() => {
    if (city && city !== lastCity.current) cityUnsaid.current = city;
    lastCity.current = city;
  }, [city]);

  // null until the page's own search has answered: that one is not said
  const toasted = useRef<string | null>(null);
  const latest = useRef('');
  useEffect(() => {
    latest.current = answer.filtersKey;
    if (answer.status === 'loading' || toasted.current === answer.filtersKey) return;
    const { filtersKey: key, total } = answer;
    const arrival = toasted.current === null;
    toasted.current = key;
    const said = cityUnsaid.current;
    cityUnsaid.current = '';
    if (arrival || (total <= 0 && !said)) return;
    // once the page is idle, not in the commit that renders the answer: a toast is a top-layer
    // popover whose showing lays the page out again (docs/product.md §4); not when the search was
    // replaced meanwhile
    whenIdle(
      () =>
        latest.current === key &&
        toaster.show({
          title: said ? { key: 'toast.searchingIn', params: { city: said } } : { key: 'toast.resultsTitle' },
          description:
            total > 0
              ? { key: 'toast.resultsText', params: { count: total, formatted: formatCount(total) } }
              : undefined,
        }),
      1000,
    );
  }, [answer, toaster]);
}
