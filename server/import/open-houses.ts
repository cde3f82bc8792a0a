/**
 * Open houses from the feeds (docs/import.md "Open houses", docs/visits.md): the RESO OpenHouse
 * resource's records (fetched on their own, or expanded in a listing's `OpenHouse`), checked as
 * listings are: a key, the listing's key, a start and an end that are instants with their offset
 * (an end after the start, at most 12 hours later, not over, starting within 90 days), public ones
 * only (OpenHouseType Public or none), cancelled ones left out; remarks as plain text, a livestream
 * only as an https link. What a record cannot give is counted and left out, never guessed.
 */
import type { Database } from '../db/database.ts';
import type { FeedRecord } from './mapping.ts';
import { plainText } from './values.ts';
import { now as clockNow } from '../../core/clock.ts';

export interface ImportedOpenHouse {
  source_key: string;
  listing_key: string;
  starts_at: string;
  ends_at: string;
  remarks: string | null;
  livestream_url: string | null;
  appointment_required: boolean;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** an instant with its offset: a time without one says nothing of where it is */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/;

const key = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim().slice(0, 200) : '');

export type OpenHouseMapped = { ok: true; openHouse: ImportedOpenHouse } | { ok: false; reason: string };

function mapOpenHouse(r: FeedRecord, now = clockNow()): OpenHouseMapped {
  const source_key = key(r.OpenHouseKey) || key(r.OpenHouseId);
  const listing_key = key(r.ListingKey) || key(r.ListingId);
  if (!source_key) return { ok: false, reason: 'no OpenHouseKey' };
  if (!listing_key) return { ok: false, reason: 'no ListingKey' };
  const status = typeof r.OpenHouseStatus === 'string' ? r.OpenHouseStatus.trim().toLowerCase() : '';
  if (status === 'cancelled' || status === 'canceled' || status === 'ended')
    return { ok: false, reason: `status ${status}` };
  const type = typeof r.OpenHouseType === 'string' ? r.OpenHouseType.trim().toLowerCase() : '';
  if (type && type !== 'public') return { ok: false, reason: `not public (${type})` };
  const start =
    typeof r.OpenHouseStartTime === 'string' && INSTANT.test(r.OpenHouseStartTime.trim())
      ? Date.parse(r.OpenHouseStartTime)
      : NaN;
  const end =
    typeof r.OpenHouseEndTime === 'string' && INSTANT.test(r.OpenHouseEndTime.trim())
      ? Date.parse(r.OpenHouseEndTime)
      : NaN;
  if (!Number.isFinite(start) || !Number.isFinite(end))
    return { ok: false, reason: 'a start or an end that is not an instant with its offset' };
  if (end <= start || end - start > 12 * HOUR)
    return { ok: false, reason: 'an end not after the start, or more than 12 hours after' };
  if (end <= now) return { ok: false, reason: 'over' };
  if (start > now + 90 * DAY) return { ok: false, reason: 'more than 90 days ahead' };
  const live = typeof r.LivestreamOpenHouseURL === 'string' ? r.LivestreamOpenHouseURL.trim() : '';
  let livestream_url: string | null = null;
  try {
    if (live && live.length <= 500 && new URL(live).protocol === 'https:' && !/[\s"<>]/.test(live))
      livestream_url = new URL(live).href;
  } catch {
    livestream_url = null;
  }
  return {
    ok: true,
    openHouse: {
      source_key,
      listing_key,
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(end).toISOString(),
      remarks: plainText(r.OpenHouseRemarks)?.slice(0, 1000) ?? null,
      livestream_url,
      appointment_required: r.AppointmentRequiredYN === true,
    },
  };
}

export interface OpenHouseReport {
  /** the source's open houses now (those of listings we have on the market) */
  kept: number;
  /** those the feed no longer has, gone */
  removed: number;
  /** records left out, by reason */
  skipped: Record<string, number>;
}

/** Maps a source's records, counting what is left out. */
export function mapOpenHouses(
  records: readonly FeedRecord[],
  now = clockNow(),
): { openHouses: ImportedOpenHouse[]; skipped: Record<string, number> } {
  const byKey = new Map<string, ImportedOpenHouse>();
  const skipped: Record<string, number> = {};
  for (const r of records) {
    const m = mapOpenHouse(r, now);
    if (m.ok) byKey.set(m.openHouse.source_key, m.openHouse);
    else skipped[m.reason] = (skipped[m.reason] ?? 0) + 1;
  }
  return { openHouses: [...byKey.values()], skipped };
}

/**
 * The source's open houses become these (internal.import_open_houses): those it no longer has
 * go, the others are written; one of a listing we do not have on the market is left out.
 */
export async function storeOpenHouses(
  db: Database,
  source: string,
  openHouses: readonly ImportedOpenHouse[],
): Promise<{ kept: number; removed: number; unknownListings: number }> {
  const [row] = await db.jobs.query<{ r: { kept: number; removed: number; unknown_listings: number } }>(
    'select internal.import_open_houses($1, $2::jsonb) as r',
    [source, JSON.stringify(openHouses)],
  );
  return {
    kept: Number(row?.r.kept ?? 0),
    removed: Number(row?.r.removed ?? 0),
    unknownListings: Number(row?.r.unknown_listings ?? 0),
  };
}
