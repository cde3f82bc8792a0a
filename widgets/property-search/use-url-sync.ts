/**
 * The search in the address bar (unless sync-url="false"), the one owner of the URL: at start the
 * URL's search wins over the element's presets, Back and Forward restore a search, and the element
 * writes each new search (push) or a correction (replace). An open listing's dialog has the
 * listing's own page as its address (a reload or a shared link leads there), named by its title
 * once read, and the tab says the listing as its page does. The agent scope (agent-id) never
 * appears in the URL.
 */
import { useCallback, useEffect, useMemo } from 'react';
import type { SearchFilters } from '../lib/data/listings.ts';
import { parseListingPath, splitLangPath } from '../../core/routes.ts';
import type { Lang } from '../../core/lang.ts';
import { listingUrl } from '../lib/site-links.ts';
import type { SearchStore } from './store.ts';
import { startingSearch, writeSearchParams, type SearchState } from '../../core/protocol/search-state.ts';

export interface UrlSync {
  /** writes the store's search (a no-op when not synced) */
  write(mode: 'push' | 'replace'): void;
  /** a listing's dialog opened: its page's address, or the search's with the listing */
  opened(listing: { id: string; title: string }): void;
  /** the dialog closed: back out of the entry it pushed, else the search's address again */
  closed(): void;
}

interface Options {
  enabled: boolean;
  presets: SearchFilters;
  apply: (state: Partial<SearchState> & { filters: SearchFilters }) => void;
  open: (id: string) => void;
  site: string;
  lang: Lang;
}

/** The search the element starts at: the address's (when synced) over its presets. */
export function addressSearch(
  synced: boolean,
  presets: SearchFilters,
): Partial<SearchState> & { filters: SearchFilters } {
  return synced ? startingSearch(new URLSearchParams(location.search), presets) : { filters: presets };
}

/** Is this address the page of this listing? */
const atListing = (id: string) => parseListingPath(splitLangPath(location.pathname).path)?.id === id;

export function useUrlSync(store: SearchStore, options: Options): UrlSync {
  const { enabled, apply, open, site, lang } = options;
  const presetKey = JSON.stringify(options.presets);

  const write = useCallback(
    (mode: 'push' | 'replace') => {
      if (!enabled) return;
      const openId = store.openId.peek();
      const state: SearchState = {
        filters: store.filters.peek(),
        sort: store.sort.peek(),
        page: store.page.peek(),
        ...(openId ? { property: openId } : {}),
      };
      const { agentId: _scope, ...visible } = state.filters;
      const params = writeSearchParams(new URLSearchParams(location.search), { ...state, filters: visible });
      const query = params.toString();
      const url = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
      if (url === `${location.pathname}${location.search}${location.hash}`) return;
      history[mode === 'push' ? 'pushState' : 'replaceState']({ ...(history.state ?? {}), expSearch: true }, '', url);
    },
    [store, enabled],
  );

  const sync = useMemo<UrlSync>(
    () => ({
      write,
      opened({ id, title }) {
        if (!enabled) return;
        const page = listingUrl({ id, title }, site, lang);
        if (page.startsWith('/'))
          history.pushState({ ...(history.state ?? {}), expSearch: true, expDetail: true }, '', page);
        else {
          write('push');
          history.replaceState({ ...(history.state ?? {}), expDetail: true }, '');
        }
      },
      closed() {
        // the entry the dialog pushed is left by going back, so Back does not reopen it
        if (enabled && (history.state as { expDetail?: boolean } | null)?.expDetail) history.back();
        else write('replace');
      },
    }),
    [write, enabled, site, lang],
  );

  // start: the URL (when synced) over the presets; Back and Forward restore
  useEffect(() => {
    const presets = JSON.parse(presetKey) as SearchFilters;
    if (!enabled) {
      apply(addressSearch(false, presets));
      return;
    }
    const fromUrl = () => {
      // Forward to a listing's page the dialog had pushed: the same search, that listing open
      const listing = parseListingPath(splitLangPath(location.pathname).path);
      if (listing) return open(listing.id);
      apply(addressSearch(true, presets));
    };
    fromUrl();
    window.addEventListener('popstate', fromUrl);
    return () => window.removeEventListener('popstate', fromUrl);
  }, [apply, open, presetKey, enabled]);

  // a pin opens by id: once the listing is read, its page's address gets the title's slug
  const openRow = store.openRow.value;
  useEffect(() => {
    if (!enabled || !openRow) return;
    const page = listingUrl({ id: String(openRow.id), title: String(openRow.title ?? '') }, site, lang);
    if (page.startsWith('/') && location.pathname !== page && atListing(String(openRow.id)))
      history.replaceState(history.state, '', page);
  }, [openRow, enabled, site, lang]);

  return sync;
}

/** At the listing's address, the tab, the history and a bookmark name the listing, as its page does. */
export function useListingTitle<T extends { id: string }>(
  enabled: boolean,
  listing: T | null,
  title: (listing: T) => string,
): void {
  useEffect(() => {
    if (!enabled || !listing || !atListing(listing.id)) return;
    const before = document.title;
    document.title = title(listing);
    return () => {
      document.title = before;
    };
  }, [listing, enabled, title]);
}
