/**
 * A search as the address bar says it and as public.search_listings reads it, once for the search
 * element (widgets/property-search/) and the server's search pages (server/pages/search-results.tsx):
 * every filter name of the spec (docs/product.md §4), feature flags only when true, plus our own sort,
 * page, the open property and the searched map area; the call's arguments; the pages of results.
 * Keys of other owners (lang, utm_*, the host page's own) are left as they are.
 */
import { filterArgs, filtersKey, type SearchFilters } from './filters.ts';
import { FILTER_PARAMS, filtersFromParams, searchPageQuery } from './filter-params.ts';
import { SORT_KEYS, type SortKey } from './search-args.ts';

export { PAGE_SIZE, SORT_KEYS, searchArgs, type SortKey } from './search-args.ts';

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

/**
 * The search an address starts, the search element's (widgets/property-search/use-url-sync.ts) and
 * its page's first results in the HTML (server/pages/search-results.tsx): the address's filters, else
 * the element's presets; the address's order and page, else the featured first.
 */
export function startingSearch(params: URLSearchParams, presets: SearchFilters): SearchState {
  const read = readSearchParams(params);
  return {
    ...read,
    filters: Object.keys(read.filters).length > 0 ? read.filters : presets,
    sort: read.sort ?? 'featured',
    page: read.page ?? 1,
  };
}

/**
 * What of a search page's address its canonical keeps (server/pages/listed-pages.ts): the page of
 * the list, when the search the address starts (startingSearch) is the page's own (its presets, the
 * featured first, no open listing), so that each page of the series is its own canonical; another
 * search's canonical is its page's route.
 */
export function seriesQuery(params: URLSearchParams, presets: SearchFilters): string {
  const start = startingSearch(params, presets);
  const own =
    searchFiltersKey(start.filters) === searchFiltersKey(presets) && start.sort === 'featured' && !start.property;
  return own && start.page > 1 ? `?page=${start.page}` : '';
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

/**
 * The answer a search page's HTML carries for the search its address starts (server/pages/search-results.tsx),
 * in a `<script type="application/json">` with this attribute inside the element, which starts from it
 * instead of asking for it again (widgets/property-search/store.ts).
 */
export const SEARCH_ANSWER_MARK = 'data-exp-search';

export interface EmbeddedSearchAnswer {
  /** the search it answers: searchFiltersKey of its filters, its order and page */
  filtersKey: string;
  sort: SortKey;
  page: number;
  total: number;
  rows: Array<Record<string, unknown>>;
}

/** The embedded answer as the element read it (JSON), or undefined when it is not one (the element then asks). */
export function parseSearchAnswer(v: unknown): EmbeddedSearchAnswer | undefined {
  const a = v as EmbeddedSearchAnswer | null;
  return typeof a?.total == 'number' && Array.isArray(a.rows) && a.rows.every((r) => r && typeof r == 'object')
    ? a
    : undefined;
}

/**
 * The window of page buttons (docs/product.md §2): at most `size` numbers that follow the current page
 * and are pinned at the start and the end; only pages 1..total.
 */
export function pageWindow(current: number, totalPages: number, size = 5): number[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, Math.floor(current)), totalPages);
  const half = Math.floor(size / 2);
  const start = Math.max(1, Math.min(page - half, totalPages - size + 1));
  const end = Math.min(totalPages, start + size - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

export function totalPages(total: number, pageSize: number): number {
  return Math.max(0, Math.ceil(total / pageSize));
}

/** "Showing X - Y of Z": the first and last position on a page. */
export function showingRange(page: number, pageSize: number, total: number): [number, number] {
  if (total <= 0) return [0, 0];
  const from = (page - 1) * pageSize + 1;
  return [Math.min(from, total), Math.min(page * pageSize, total)];
}
