/**
 * The search in the address bar (unless sync-url="false"): at start the URL's search wins over the
 * element's presets, Back and Forward restore a search, and the element writes each new search
 * (push) or a correction (replace). The agent scope (agent-id) never appears in the URL.
 */
import { useCallback, useEffect } from 'react';
import type { SearchFilters } from '../lib/data/listings.ts';
import { parseListingPath, splitLangPath } from '../../core/routes.ts';
import type { SearchStore } from './store.ts';
import { readSearchParams, writeSearchParams, type SearchState } from './url-state.ts';

/** Returns the function that writes the store's search into the address bar (a no-op when not synced). */
export function useUrlSync(
  store: SearchStore,
  options: { enabled: boolean; presets: SearchFilters; apply: (state: Partial<SearchState> & { filters: SearchFilters }) => void; open: (id: string) => void },
): (mode: 'push' | 'replace') => void {
  const { enabled, apply, open } = options;
  const presetKey = JSON.stringify(options.presets);

  const push = useCallback(
    (mode: 'push' | 'replace') => {
      if (!enabled) return;
      const openId = store.openId.peek();
      const state: SearchState = { filters: store.filters.peek(), sort: store.sort.peek(), page: store.page.peek(), ...(openId ? { property: openId } : {}) };
      const { agentId: _scope, ...visible } = state.filters;
      const params = writeSearchParams(new URLSearchParams(location.search), { ...state, filters: visible });
      const query = params.toString();
      const url = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
      if (url === `${location.pathname}${location.search}${location.hash}`) return;
      history[mode === 'push' ? 'pushState' : 'replaceState']({ ...(history.state ?? {}), expSearch: true }, '', url);
    },
    [store, enabled],
  );

  // start: the URL (when synced) over the presets; Back and Forward restore
  useEffect(() => {
    const presets = JSON.parse(presetKey) as SearchFilters;
    if (!enabled) {
      apply({ filters: presets });
      return;
    }
    const fromUrl = () => {
      // Forward to a listing's page the dialog had pushed: the same search, that listing open
      const listing = parseListingPath(splitLangPath(location.pathname).path);
      if (listing) return open(listing.id);
      const read = readSearchParams(new URLSearchParams(location.search));
      apply({ ...read, filters: Object.keys(read.filters).length > 0 ? read.filters : presets });
    };
    fromUrl();
    window.addEventListener('popstate', fromUrl);
    return () => window.removeEventListener('popstate', fromUrl);
  }, [apply, open, presetKey, enabled]);

  return push;
}
