/**
 * The search in the address bar (docs/product.md §4): every filter name of the spec, feature flags only
 * when true, plus our own sort, page, the open property and the searched map area. Keys of other
 * owners (lang, utm_*, the host page's own) are left as they are.
 */
import { filterArgs, filtersKey } from '../../core/protocol/filters.ts';
import { FILTER_PARAMS, filtersFromParams, searchPageQuery } from '../../core/protocol/filter-params.ts';
import { SORT_KEYS, type SearchFilters, type SortKey } from '../lib/data/listings.ts';

export interface SearchState {
  filters: SearchFilters;
  sort: SortKey;
  page: number;
  /** the property whose detail is open */
  property?: string;
}

/** every key this element reads and writes: the filter table's, and the sort, the page and the open property */
const OWN_KEYS = [...FILTER_PARAMS, 'sort', 'page', 'property'] as const;

/** Reads what the URL says; anything malformed is ignored, never an error (the filter table's rules). */
export function readSearchParams(params: URLSearchParams): Partial<SearchState> & { filters: SearchFilters } {
  const state: Partial<SearchState> & { filters: SearchFilters } = { filters: filtersFromParams(params) };
  const sort = params.get('sort');
  if (sort && (SORT_KEYS as readonly string[]).includes(sort)) state.sort = sort as SortKey;
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page >= 1 && page <= 100000) state.page = page;
  const property = params.get('property')?.trim();
  if (property && /^[\w-]{1,64}$/.test(property)) state.property = property;
  return state;
}

/** Writes the applied filters (as the search page's query writes them) over the other keys of the URL. */
export function writeSearchParams(current: URLSearchParams, state: SearchState): URLSearchParams {
  const next = new URLSearchParams();
  for (const [k, v] of current) if (!(OWN_KEYS as readonly string[]).includes(k)) next.append(k, v);
  for (const [k, v] of new URLSearchParams(searchPageQuery(state.filters))) next.set(k, v);
  if (state.sort !== 'featured') next.set('sort', state.sort);
  if (state.page > 1) next.set('page', String(state.page));
  if (state.property) next.set('property', state.property);
  return next;
}

/** The same search? (what decides whether the count must be fetched again): the applied filters' key. */
export const searchFiltersKey = (f: SearchFilters): string => filtersKey(filterArgs(f));
