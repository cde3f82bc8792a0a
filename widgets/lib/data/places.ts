/**
 * The location box's suggestions (public.place_suggestions; docs/decisions.md #26), apart from the
 * listings' calls: the search and the valuation use the box, and the valuation needs nothing else
 * of data/listings.ts.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { answer } from './client.ts';

/** A suggestion of the location box (public.place_suggestions): a place, or a listing by its code or street. */
export interface PlaceSuggestion {
  kind: 'province' | 'city' | 'sector' | 'listing';
  /** a place's path (parsePlace), or a listing's id */
  path: string;
  name: string;
  city: string | null;
  province: string | null;
  listings: number;
  /** [west, south, east, north] of the place's listings */
  bbox: [number, number, number, number];
}

/** What the location box suggests for a text (from its second letter; at most 8). POSTed, as the clusters are. */
export async function getPlaceSuggestions(
  rest: PostgrestClient,
  text: string,
  signal?: AbortSignal,
): Promise<PlaceSuggestion[]> {
  const data = await answer(rest.rpc('place_suggestions', { q: text.slice(0, 100) }), 'suggestions', signal);
  return ((data ?? []) as Record<string, unknown>[]).map((s) => ({
    kind: s.kind as PlaceSuggestion['kind'],
    path: String(s.path),
    name: String(s.name ?? ''),
    city: s.city === null ? null : String(s.city),
    province: s.province === null ? null : String(s.province),
    listings: Number(s.listings),
    bbox: [Number(s.west), Number(s.south), Number(s.east), Number(s.north)],
  }));
}
