/**
 * The state of one search element: the backend it reads, the applied filters, sort and page, the
 * open property, the hovered one, and the answer. Counts are cached per filters and pages per
 * (filters, sort, page) for one backend; the count and the page are asked in parallel; an older
 * answer never overwrites a newer search.
 */
import { computed, signal } from '@preact/signals-react';
import type { PostgrestClient } from '@supabase/postgrest-js';
import { createQueryCache } from '../lib/data/cache.ts';
import {
  getListing,
  getListingsCount,
  getListingsPage,
  type SearchFilters,
  type SortKey,
} from '../lib/data/listings.ts';
import { searchFiltersKey, type EmbeddedSearchAnswer } from '../../core/protocol/search-state.ts';

export type ListingRow = Record<string, unknown>;

export interface SearchAnswer {
  status: 'loading' | 'ready' | 'error';
  /** the search this answer is for */
  key: string;
  filtersKey: string;
  total: number;
  rows: ListingRow[];
}

/**
 * `given`: the answer the page carries (a search page's HTML), taken as read; `start`: the search
 * the element shows first (the address's, else its presets), so that its first render is that search
 * and not an empty one the address then replaces.
 */
export function createSearchStore(
  initialClient: PostgrestClient,
  given?: EmbeddedSearchAnswer,
  start: { filters: SearchFilters; sort?: SortKey; page?: number } = { filters: {} },
) {
  let client = initialClient;
  /** counts the backends this store has read: a new one makes every search new */
  const backend = signal(0);
  const rest = () => client;
  const filters = signal<SearchFilters>(start.filters);
  const sort = signal<SortKey>(start.sort ?? 'featured');
  const page = signal(start.page ?? 1);
  const openId = signal<string | null>(null);
  const openRow = signal<ListingRow | null>(null);
  const hoveredId = signal<string | null>(null);
  const answer = signal<SearchAnswer>({ status: 'loading', key: '', filtersKey: '', total: 0, rows: [] });
  const counts = createQueryCache<number>();
  const pages = createQueryCache<ListingRow[]>();
  if (given) {
    void counts.get(given.filtersKey, async () => given.total);
    void pages.get(`${given.filtersKey}|${given.sort}|${given.page}`, async () => given.rows);
  }
  let latest = 0;

  /** the search's key: a new one is a search to load */
  const searchKey = computed(() => `${backend.value}|${searchFiltersKey(filters.value)}|${sort.value}|${page.value}`);

  /** Another backend (a new api-url): nothing read from the old one is kept. */
  function setClient(next: PostgrestClient): void {
    if (next === client) return;
    counts.clear();
    pages.clear();
    client = next;
    backend.value++;
  }

  async function load(): Promise<void> {
    const f = filters.value;
    const s = sort.value;
    const p = page.value;
    const fk = searchFiltersKey(f);
    const key = `${fk}|${s}|${p}`;
    const ticket = ++latest;
    const cachedCount = counts.peek(fk);
    const cachedPage = pages.peek(key);
    if (cachedCount !== undefined && cachedPage) {
      answer.value = { status: 'ready', key, filtersKey: fk, total: cachedCount, rows: cachedPage };
      return;
    }
    answer.value = { ...answer.peek(), status: 'loading', key };
    try {
      const [total, rows] = await Promise.all([
        counts.get(fk, (sig) => getListingsCount(rest(), f, sig)),
        pages.get(key, (sig) => getListingsPage(rest(), f, s, p, sig)),
      ]);
      if (ticket !== latest) return;
      answer.value = { status: 'ready', key, filtersKey: fk, total, rows };
    } catch (error) {
      if (ticket !== latest) return;
      console.error('[exp-property-search] search failed:', error);
      answer.value = { status: 'error', key, filtersKey: fk, total: 0, rows: [] };
    }
  }

  /** Opens a property by id: from the page when it is there, else asked for on its own. */
  async function open(id: string | null): Promise<void> {
    openId.value = id;
    if (!id) {
      openRow.value = null;
      return;
    }
    const onPage = answer.peek().rows.find((r) => String(r.id) === id);
    if (onPage) {
      openRow.value = onPage;
      return;
    }
    try {
      const row = await getListing(rest(), id);
      if (openId.peek() === id) {
        openRow.value = row;
        if (!row) openId.value = null;
      }
    } catch (error) {
      console.error('[exp-property-search] could not load the property:', error);
      if (openId.peek() === id) openId.value = null;
    }
  }

  function retry(): Promise<void> {
    counts.clear();
    pages.clear();
    return load();
  }

  return {
    filters,
    sort,
    page,
    openId,
    openRow,
    hoveredId,
    answer,
    searchKey,
    load,
    open,
    retry,
    setClient,
    /** the rows the page came with (the answer `given`): an answer with these rows is the page's own */
    servedRows: given?.rows,
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;
