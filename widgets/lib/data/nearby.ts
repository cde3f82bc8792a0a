/**
 * What is near a listing, for its detail: a module of its own, so that only the detail's lazily
 * loaded code (and its texts) carries it, not a search's first screen.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { parseNearby, type NearbyPlace } from '../../../core/protocol/nearby.ts';
import { answer } from './client.ts';

/** What is near a point, nearest first (public.nearby_places; docs/projects.md "What is near"). */
export async function getNearby(
  rest: PostgrestClient,
  at: { lat: number; lng: number },
  signal?: AbortSignal,
): Promise<NearbyPlace[]> {
  const data = await answer(rest.rpc('nearby_places', { lat: at.lat, lng: at.lng }), 'nearby places', signal);
  return parseNearby((data ?? []) as Record<string, unknown>[]);
}
