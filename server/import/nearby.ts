/**
 * The places of interest of "What is near" from a GeoJSON file (docs/import.md "What is near"):
 * an OpenStreetMap extract as Overpass or osmtogeojson write it (each element's tags its
 * properties), or a file of our own whose features say their `kind`. A feature is of interest when
 * its tags say one of the kinds (core/protocol/nearby.ts) and it has a name; the rest is passed over
 * and counted. A feature of interest that cannot be stored (no position, a position off the globe,
 * a name too long, a key said twice) is refused with its reason. A run replaces the source's list
 * in one transaction: a file with nothing of interest, or one that would take away more than half
 * of what the source has, changes nothing unless told (`--allow-withdrawals`).
 */
import type { Database, Transaction } from '../db/database.ts';
import { NEARBY_KINDS, type NearbyKind } from '../../core/protocol/nearby.ts';

/** A place of interest as internal.points_of_interest holds it (supabase/schemas/36_nearby.sql). */
export interface PointOfInterestRow {
  kind: NearbyKind;
  name: string;
  /** '(lng,lat)', as PostgreSQL writes a point */
  position: string;
  source: string;
  source_key: string;
}

export const POINT_OF_INTEREST_COLUMNS = [
  'kind',
  'name',
  'position',
  'source',
  'source_key',
] as const satisfies ReadonlyArray<keyof PointOfInterestRow>;

/** The largest file read, and the most features in it (a city's extract has a few thousand). */
export const NEARBY_LIMITS = { bytes: 64 * 1024 * 1024, features: 200_000, name: 120 };

export interface NearbyReport {
  source: string;
  /** features in the file */
  read: number;
  /** of no kind we show, or without a name */
  passedOver: number;
  refused: Array<{ key: string; reason: string }>;
  stored: number;
  /** the source's places the file no longer has, taken away */
  removed: number;
  /** why nothing was changed, when it was not */
  held: string | null;
}

type Tags = Record<string, unknown>;

/** What OpenStreetMap's tags say a place is, if it is one of ours (a file of our own says `kind`). */
function kindOf(tags: Tags): NearbyKind | null {
  const own = NEARBY_KINDS.find((k) => k === tags.kind);
  if (own) return own;
  const tag = (name: string) => (typeof tags[name] === 'string' ? (tags[name] as string) : '');
  const amenity = tag('amenity');
  if (amenity === 'school') return 'school';
  if (amenity === 'university' || amenity === 'college') return 'university';
  if (amenity === 'hospital' || amenity === 'clinic') return 'hospital';
  if (amenity === 'bus_station') return 'transport';
  const shop = tag('shop');
  if (shop === 'mall' || shop === 'department_store') return 'shopping';
  if (shop === 'supermarket') return 'supermarket';
  if (['park', 'nature_reserve'].includes(tag('leisure'))) return 'park';
  if (tag('railway') === 'station' || tag('station') === 'subway' || tag('aeroway') === 'aerodrome') return 'transport';
  if (tag('public_transport') === 'station') return 'transport';
  return null;
}

/** A feature's position: a point's, or the mean of a polygon's outer ring (the first polygon of several). */
function positionOf(geometry: unknown): [number, number] | null {
  const g = geometry as { type?: unknown; coordinates?: unknown } | null;
  if (!g || typeof g !== 'object') return null;
  const pair = (c: unknown): [number, number] | null =>
    Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number' ? [c[0], c[1]] : null;
  const ringMean = (ring: unknown): [number, number] | null => {
    if (!Array.isArray(ring)) return null;
    const points = ring.map(pair);
    if (!points.length || points.some((p) => !p)) return null;
    // a closed ring repeats its first point last: counted once
    const open =
      points.length > 1 && points[0]![0] === points.at(-1)![0] && points[0]![1] === points.at(-1)![1]
        ? points.slice(0, -1)
        : points;
    return [open.reduce((s, p) => s + p![0], 0) / open.length, open.reduce((s, p) => s + p![1], 0) / open.length];
  };
  if (g.type === 'Point') return pair(g.coordinates);
  if (g.type === 'Polygon' && Array.isArray(g.coordinates)) return ringMean(g.coordinates[0]);
  if (g.type === 'MultiPolygon' && Array.isArray(g.coordinates) && Array.isArray(g.coordinates[0]))
    return ringMean(g.coordinates[0][0]);
  return null;
}

/** A name as a page shows it: its own characters, spaces folded, no control characters. */
function cleanName(value: unknown): string {
  return typeof value === 'string'
    ? value
        .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

/** The places of interest of a GeoJSON text, with what was passed over and refused; throws when it is no FeatureCollection. */
export function readNearbyGeoJson(
  text: string,
  source: string,
): { rows: PointOfInterestRow[]; read: number; passedOver: number; refused: NearbyReport['refused'] } {
  if (Buffer.byteLength(text) > NEARBY_LIMITS.bytes)
    throw new Error(`the file is larger than ${NEARBY_LIMITS.bytes / 1024 / 1024} MB`);
  let doc: { type?: unknown; features?: unknown };
  try {
    // a byte order mark some editors write is no part of the JSON
    doc = JSON.parse(text.replace(/^\uFEFF/, '')) as typeof doc;
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
  if (!doc || doc.type !== 'FeatureCollection' || !Array.isArray(doc.features))
    throw new Error('not a GeoJSON FeatureCollection');
  if (doc.features.length > NEARBY_LIMITS.features) throw new Error(`more than ${NEARBY_LIMITS.features} features`);
  const rows: PointOfInterestRow[] = [];
  const refused: NearbyReport['refused'] = [];
  const keys = new Set<string>();
  let passedOver = 0;
  for (const feature of doc.features as Array<{ id?: unknown; properties?: unknown; geometry?: unknown }>) {
    const tags = (
      feature && typeof feature.properties === 'object' && feature.properties ? feature.properties : {}
    ) as Tags;
    const kind = kindOf(tags);
    const name = cleanName(tags['name:es']) || cleanName(tags.name);
    if (!kind || !name) {
      passedOver++;
      continue;
    }
    const at = positionOf(feature.geometry);
    const key = String(feature.id ?? tags['@id'] ?? tags.id ?? `${kind}:${name}`).slice(0, 200);
    const refuse = (reason: string) => refused.push({ key, reason });
    if (!at) refuse('no position: a Point, a Polygon or a MultiPolygon is read');
    else if (!(Math.abs(at[1]) <= 90 && Math.abs(at[0]) <= 180)) refuse(`a position off the globe (${at.join(', ')})`);
    else if (name.length > NEARBY_LIMITS.name) refuse(`a name longer than ${NEARBY_LIMITS.name} characters`);
    else if (keys.has(key)) refuse('its key is in the file twice');
    else {
      keys.add(key);
      rows.push({ kind, name, position: `(${at[0]},${at[1]})`, source, source_key: key });
    }
  }
  return { rows, read: doc.features.length, passedOver, refused };
}

/** Replaces a source's places with `rows`, in one transaction, one run of a source at a time across servers. */
export async function storeNearby(
  db: Database,
  source: string,
  read: ReturnType<typeof readNearbyGeoJson>,
  options: { allowWithdrawals?: boolean } = {},
): Promise<NearbyReport> {
  const report: NearbyReport = {
    source,
    read: read.read,
    passedOver: read.passedOver,
    refused: read.refused,
    stored: 0,
    removed: 0,
    held: null,
  };
  return db.transaction(
    async (q: Transaction) => {
      await q.query('select pg_advisory_xact_lock(hashtext($1))', [`nearby:${source}`]);
      const [had] = await q.query<{ n: number; gone: number }>(
        `select count(*)::int as n, count(*) filter (where k.key is null)::int as gone
           from internal.points_of_interest p left join unnest($2::text[]) as k(key) on k.key = p.source_key
          where p.source = $1`,
        [source, read.rows.map((r) => r.source_key)],
      );
      const { n = 0, gone = 0 } = had ?? {};
      if (!read.rows.length)
        return { ...report, held: 'the file has no place of interest: the list is kept as it was' };
      if (gone > n / 2 && n > 0 && !options.allowWithdrawals)
        return {
          ...report,
          held: `it would take away ${gone} of the source's ${n} places (more than half): run again with --allow-withdrawals`,
        };
      for (let i = 0; i < read.rows.length; i += 5000) {
        const part = read.rows.slice(i, i + 5000);
        await q.query(
          `insert into internal.points_of_interest (kind, name, position, source, source_key)
           select k, n, p::point, $1, s from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as t(k, n, p, s)
           on conflict (source, source_key) do update set kind = excluded.kind, name = excluded.name, position = excluded.position`,
          [
            source,
            part.map((r) => r.kind),
            part.map((r) => r.name),
            part.map((r) => r.position),
            part.map((r) => r.source_key),
          ],
        );
      }
      await q.query(
        'delete from internal.points_of_interest p where p.source = $1 and not exists (select from unnest($2::text[]) as k(key) where k.key = p.source_key)',
        [source, read.rows.map((r) => r.source_key)],
      );
      return { ...report, stored: read.rows.length, removed: gone };
    },
    { long: true },
  );
}
