/**
 * A place of the location box: 'quito' (a city), 'quito/inaquito' (a sector of it) or
 * 'provincia/pichincha' (a province), the slugs internal.places keeps (its SQL reads the same
 * paths in internal.listing_matches). Anything else is no place. A module of its own so that the
 * site's page script reads a place's path without the search's filter table (filters.ts, which
 * re-exports it).
 */
export type PlacePath = { province: string } | { city: string; sector?: string };
const SLUG = '[a-z0-9]+(?:-[a-z0-9]+)*';
const PLACE = new RegExp(`^(?:provincia/(${SLUG})|(${SLUG})(?:/(${SLUG}))?)$`);
export function parsePlace(path: string | null | undefined): PlacePath | undefined {
  const m = typeof path === 'string' && path.length <= 170 ? PLACE.exec(path) : null;
  if (!m) return undefined;
  if (m[1]) return { province: m[1] };
  return m[3] ? { city: m[2] as string, sector: m[3] } : { city: m[2] as string };
}
