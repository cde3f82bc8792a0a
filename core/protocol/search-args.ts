/**
 * What public.search_listings is asked (docs/decisions.md #27), for every caller of it: the search
 * element and the featured block (widgets/lib/data/listings.ts), the server's search pages
 * (server/pages/search-results.tsx). Apart from the search's state (search-state.ts), which only the
 * search element and the server read, so that the elements that only list do not download it.
 */
import { filterArgs, type SearchFilters } from './filters.ts';

/** listings a page of results shows */
export const PAGE_SIZE = 24;

/** 'relevance' is the best match for the search's words (else the newest first) */
export type SortKey = 'featured' | 'newest' | 'price_asc' | 'price_desc' | 'relevance';
export const SORT_KEYS: readonly SortKey[] = ['featured', 'newest', 'price_asc', 'price_desc', 'relevance'];

/**
 * The arguments of public.search_listings (docs/decisions.md #27): the filters that apply as one
 * object (FilterArgs, what internal.listing_matches reads), an order and a page.
 */
export function searchArgs(
  filters: SearchFilters,
  sort: SortKey,
  page: number,
  size = PAGE_SIZE,
): Record<string, unknown> {
  return {
    filters: filterArgs(filters),
    sort,
    page_size: size,
    page_offset: (Math.max(1, Math.floor(page)) - 1) * size,
  };
}
