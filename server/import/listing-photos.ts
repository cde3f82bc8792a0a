/**
 * The photos of an import run (docs/import.md "Photos"): each listing's (and each new development's,
 * and its unit types' floor plans) feed photos fetched by the safe fetcher and made once per content, kept in internal.photos, and
 * its images set.
 */
import type { Database } from '../db/database.ts';
import type { HostRule } from '../http/safe-fetch.ts';
import type { FeedPhoto } from './mapping.ts';
import { bounded, fetchPhoto, PHOTO_CONCURRENCY, type PhotoFetchOptions, type PhotoStore } from './photos.ts';

/** What a run's report says of its photos. */
export interface PhotosReport {
  fetched: number;
  reused: number;
  failed: number;
  errors: Array<{ url: string; error: string }>;
}

/** The photo errors a report lists at the most. */
const ERRORS_KEPT = 200;

/**
 * The rows a feed's photos are made for, each with source_media and photos_from: a listing's and a
 * new development's into its images (by their source), a project's unit type's floor plans into its
 * floor_plans (by its project's source).
 */
const PHOTO_TABLES = {
  'internal.listings': { rows: 'internal.listings x where x.source = $1', column: 'images' },
  'internal.projects': { rows: 'internal.projects x where x.source = $1', column: 'images' },
  'internal.project_unit_types': {
    rows: 'internal.project_unit_types x join internal.projects p on p.id = x.project_id where p.source = $1',
    column: 'floor_plans',
  },
} as const;
type PhotoTable = keyof typeof PHOTO_TABLES;

/**
 * The photos of the source's listings (or new developments) whose feed photos changed since their
 * photos were made (new ones included): each photo fetched once per (address, key, timestamp) and
 * made once per content.
 */
export async function makeListingPhotos(
  db: Database,
  source: string,
  allow: HostRule[],
  photos: PhotosReport,
  store: PhotoStore,
  resolve: PhotoFetchOptions['resolve'] | undefined,
  log: (line: string) => void,
  table: PhotoTable = 'internal.listings',
): Promise<void> {
  const { rows: from, column } = PHOTO_TABLES[table];
  const listings = await db.jobs.query<{ id: string; media: FeedPhoto[] }>(
    `select x.id::text as id, x.source_media as media from ${from} and x.source_media is distinct from x.photos_from order by x.id`,
    [source],
  );
  if (!listings.length) return;
  const wanted = new Map<string, FeedPhoto>();
  for (const l of listings) for (const m of l.media ?? []) wanted.set(`${m.url}\n${m.key}\n${m.modified}`, m);
  const known = new Map<string, { hash: string | null; error: string | null }>();
  const rows = await db.jobs.query<{
    url: string;
    media_key: string;
    modified: string;
    hash: string | null;
    error: string | null;
  }>(
    'select p.url, p.media_key, p.modified, p.hash, p.error from internal.photos p join unnest($1::text[], $2::text[], $3::text[]) w(url, media_key, modified) using (url, media_key, modified)',
    [
      [...wanted.values()].map((m) => m.url),
      [...wanted.values()].map((m) => m.key),
      [...wanted.values()].map((m) => m.modified),
    ],
  );
  for (const r of rows) known.set(`${r.url}\n${r.media_key}\n${r.modified}`, { hash: r.hash, error: r.error });
  const missing: Array<[string, FeedPhoto]> = [];
  const retry = new Set<string>();
  await bounded([...wanted.entries()], 8, async (entry) => {
    const seen = known.get(entry[0]);
    if (seen?.hash && (await store.has(seen.hash))) photos.reused++;
    // a photo that could not be made for a lasting reason is not fetched again (until its address, key or timestamp changes)
    else if (!seen?.error) missing.push(entry);
  });
  log(`${source}: ${missing.length} photos to fetch for ${listings.length} listings...`);
  await bounded(missing, PHOTO_CONCURRENCY, async ([k, m]) => {
    const made = await fetchPhoto(m.url, { allow, store, ...(resolve ? { resolve } : {}) });
    if (made.ok) {
      photos.fetched++;
      known.set(k, { hash: made.photo.hash, error: null });
      await db.jobs.query(
        'insert into internal.photos (url, media_key, modified, hash, width, height, bytes) values ($1, $2, $3, $4, $5, $6, $7) on conflict (url, media_key, modified) do update set hash = excluded.hash, width = excluded.width, height = excluded.height, bytes = excluded.bytes, error = null, fetched_at = internal.now()',
        [m.url, m.key, m.modified, made.photo.hash, made.photo.width, made.photo.height, made.photo.bytes],
      );
    } else {
      photos.failed++;
      if (photos.errors.length < ERRORS_KEPT) photos.errors.push({ url: m.url.slice(0, 300), error: made.error });
      if (made.lasting) {
        known.set(k, { hash: null, error: made.error });
        await db.jobs.query(
          'insert into internal.photos (url, media_key, modified, error) values ($1, $2, $3, $4) on conflict (url, media_key, modified) do update set hash = null, error = excluded.error, fetched_at = internal.now()',
          [m.url, m.key, m.modified, made.error],
        );
      } else {
        retry.add(k);
        await db.jobs.query('delete from internal.photos where (url, media_key, modified) = ($1, $2, $3)', [
          m.url,
          m.key,
          m.modified,
        ]);
      }
    }
  });
  // each listing's photos in the feed's order, those that could be made; a listing with a photo
  // that may still come (its host or the store did not answer) is looked at again by the next run
  const updates = listings.map((l) => ({
    id: l.id,
    images: (l.media ?? [])
      .map((m) => known.get(`${m.url}\n${m.key}\n${m.modified}`)?.hash)
      .filter((h): h is string => Boolean(h))
      .map((hash) => ({ url: store.url(hash) })),
    from: (l.media ?? []).some((m) => retry.has(`${m.url}\n${m.key}\n${m.modified}`)) ? null : (l.media ?? []),
  }));
  for (let i = 0; i < updates.length; i += 1000) {
    await db.jobs.query(
      `update ${table} l set ${column} = u.images, photos_from = u.from_
         from jsonb_to_recordset($1::jsonb) as u(id bigint, images jsonb, from_ jsonb)
        where l.id = u.id`,
      [JSON.stringify(updates.slice(i, i + 1000).map((u) => ({ id: Number(u.id), images: u.images, from_: u.from })))],
    );
  }
}
