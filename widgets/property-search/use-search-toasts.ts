/**
 * The search's toasts (docs/product.md §4): 'Searching in {city}' when the city searched changes,
 * and 'Search Results' with the number found, once per new search that found something. When the
 * city changed in the search whose number arrives, one toast says both ('Searching in {city}' over
 * the number found), taking the place of the city's toast if it already shows: two toasts about one
 * search covered the results on a phone.
 */
import { useEffect, useRef } from 'react';
import { formatCount } from '../../core/protocol/format.ts';
import { whenIdle } from '../lib/main-thread.ts';
import type { Toaster } from '../lib/toast.tsx';
import type { SearchAnswer } from './store.ts';

const CITY_TOPIC = 'search-city';

export function useSearchToasts(toaster: Toaster, city: string, answer: SearchAnswer): void {
  // each toast once the page is idle, not in the commit that renders the answer: a toast is a
  // top-layer popover whose showing lays the page out again (docs/product.md §4); one shown after the
  // element left the page shows nowhere; one whose search was replaced meanwhile is not shown
  const later = (show: () => void) => void whenIdle(show, 1000);
  const lastCity = useRef<string | null>(null);
  // the city changed and no number has been said with it yet
  const cityUnsaid = useRef('');
  useEffect(() => {
    if (city && city !== lastCity.current) {
      cityUnsaid.current = city;
      later(
        () =>
          lastCity.current === city &&
          cityUnsaid.current === city &&
          toaster.show({ title: { key: 'toast.searchingIn', params: { city } }, topic: CITY_TOPIC }),
      );
    }
    lastCity.current = city;
  }, [city, toaster]);

  const toasted = useRef('');
  const latest = useRef('');
  useEffect(() => {
    latest.current = answer.filtersKey;
    if (answer.status !== 'ready' || answer.total <= 0 || toasted.current === answer.filtersKey) return;
    const { filtersKey: key, total } = answer;
    toasted.current = key;
    later(() => {
      if (latest.current !== key) return;
      const withCity = cityUnsaid.current !== '' && cityUnsaid.current === lastCity.current;
      if (withCity) cityUnsaid.current = '';
      toaster.show({
        title: withCity
          ? { key: 'toast.searchingIn', params: { city: lastCity.current } }
          : { key: 'toast.resultsTitle' },
        description: { key: 'toast.resultsText', params: { count: total, formatted: formatCount(total) } },
        replaces: withCity ? [CITY_TOPIC] : [],
      });
    });
  }, [answer, toaster]);
}
