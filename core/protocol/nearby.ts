/**
 * What is near a home (docs/projects.md "What is near"): the places of interest the data API names
 * around a point (public.nearby_places, supabase/schemas/36_nearby.sql), and how a page says them.
 */
import type { Translate } from '../translate.ts';
import { formatNumber } from './format.ts';

/** The kinds of place (a page lists them nearest first, two as near by name); the schema's check holds the same list. */
export const NEARBY_KINDS = [
  'school',
  'university',
  'hospital',
  'shopping',
  'supermarket',
  'park',
  'transport',
] as const;
export type NearbyKind = (typeof NEARBY_KINDS)[number];

export interface NearbyPlace {
  kind: NearbyKind;
  name: string;
  /** straight-line distance in metres */
  distance: number;
}

/** The rows of public.nearby_places: a row of an unknown kind, without a name or without a distance in metres is left out. */
export function parseNearby(rows: readonly Record<string, unknown>[]): NearbyPlace[] {
  return rows.flatMap((r) => {
    const kind = NEARBY_KINDS.find((k) => k === r.kind);
    const name = typeof r.name === 'string' ? r.name.trim() : '';
    // a number, or the digits PostgREST may send of one; nothing else is a distance
    const distance =
      typeof r.distance_m === 'number'
        ? r.distance_m
        : typeof r.distance_m === 'string' && /^\d+(\.\d+)?$/.test(r.distance_m)
          ? Number(r.distance_m)
          : NaN;
    return kind && name && Number.isFinite(distance) && distance >= 0 ? [{ kind, name, distance }] : [];
  });
}

/** "350 m" (to ten metres) under a kilometre, "1.2 km" from it: a straight line, never more precise than that. */
export function formatDistance(metres: number): string {
  if (!Number.isFinite(metres) || metres < 0) return '';
  if (metres < 995) return `${formatNumber(Math.max(10, Math.round(metres / 10) * 10))} m`;
  return `${formatNumber(metres / 1000, 1)} km`;
}

/** What a line of the list says: "Park · Parque La Carolina · 350 m" in its parts. */
export function nearbyLine(place: NearbyPlace, t: Translate): { kind: string; name: string; distance: string } {
  return { kind: t(`nearby.kind.${place.kind}`), name: place.name, distance: formatDistance(place.distance) };
}
