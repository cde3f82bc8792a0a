/**
 * What the detail reads beyond the listing's row (docs/product.md §2, "Deciding on a listing"): its
 * price history and the listings like it. In a module of its own, so only the detail's chunk (the
 * dialog, <exp-property-detail>) carries it, never a search page's first download.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { parsePriceHistory, type PriceEvent } from '../../../core/protocol/price-history.ts';
import { MARKET_PATH, parseMarketFigures, type MarketFigure, type TypeGroup } from '../../../core/protocol/market.ts';
import { parseOpenHouseRows, type OpenHouse } from '../../../core/protocol/open-house-details.ts';
import { answer } from './client.ts';

/** A listing's price since it came on the market, newest first (public.listing_price_history). */
export async function getPriceHistory(rest: PostgrestClient, id: string, signal?: AbortSignal): Promise<PriceEvent[]> {
  if (!/^\d{1,15}$/.test(id)) return [];
  const data = await answer(rest.rpc('listing_price_history', { listing_id: Number(id) }), 'price history', signal);
  return parsePriceHistory(data);
}

/** The active listings most like one listing, best first (public.similar_listings), every column. */
export async function getSimilarListings(
  rest: PostgrestClient,
  id: string,
  count = 8,
  signal?: AbortSignal,
): Promise<Record<string, unknown>[]> {
  if (!/^\d{1,15}$/.test(id)) return [];
  const data = await answer(
    rest.rpc('similar_listings', { listing_id: Number(id), max_results: count }),
    'similar listings',
    signal,
  );
  return (data ?? []) as Record<string, unknown>[];
}

/** A place's market index for one type group, the last `months` months (public.market_index; docs/market.md). */
export async function getMarketFigures(
  rest: PostgrestClient,
  place: string,
  group: TypeGroup,
  months = 2,
  signal?: AbortSignal,
): Promise<MarketFigure[]> {
  if (!MARKET_PATH.test(place)) return [];
  const data = await answer(rest.rpc('market_index', { place, type_group: group, months }), 'market index', signal);
  return parseMarketFigures((data ?? []) as unknown[]);
}

/** A listing's market: its sector's index for its type, last month and this one (public.listing_market). */
export async function getListingMarket(
  rest: PostgrestClient,
  id: string,
  signal?: AbortSignal,
): Promise<MarketFigure[]> {
  if (!/^\d{1,15}$/.test(id)) return [];
  const data = await answer(rest.rpc('listing_market', { listing_id: Number(id) }), 'listing market', signal);
  return parseMarketFigures((data ?? []) as unknown[]);
}

/** A listing's open houses not ended yet, first first (public.listing_open_houses; docs/visits.md). */
export async function getOpenHouses(rest: PostgrestClient, id: string, signal?: AbortSignal): Promise<OpenHouse[]> {
  if (!/^\d{1,15}$/.test(id)) return [];
  const data = await answer(rest.rpc('listing_open_houses', { listing_id: Number(id) }), 'open houses', signal);
  return parseOpenHouseRows(data);
}
