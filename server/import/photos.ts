/**
 * A feed's photos re-hosted (docs/import.md, "Photos"): MLS rules forbid hot-linking, and a feed's
 * photos are often 3-10 MB. Each is fetched through the safe fetcher (only the source's photo
 * hosts, never a private address, 20 MB at most, 20 s), checked to be an image by its bytes, stored
 * once by the hash of its content, and made in the widths and formats of core/protocol/photos.ts
 * with sharp: EXIF rotation applied, metadata dropped. A photo is fetched again only when its
 * address, key or timestamp changes (internal.photos remembers each). At most two are made at once
 * (run.ts): a 2-core machine keeps serving while a feed's photos are made.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { PHOTO_FORMATS, PHOTO_WIDTHS, photoPath } from '../../core/protocol/photos.ts';
import { FetchRefused, safeFetch, type HostRule } from '../http/safe-fetch.ts';

/** A feed photo's bytes: at most this much (the 50 MB "photo" of a hostile feed is cut off as it streams). */
export const PHOTO_MAX_BYTES = 20 * 1024 * 1024;
/** The largest image accepted, in pixels (a decompression bomb is refused before it is decoded). */
const MAX_PIXELS = 80_000_000;
const FORMATS_READ = new Set(['jpeg', 'png', 'webp', 'avif', 'heif', 'tiff', 'gif']);

export interface PhotoStore {
  /** whether every file of this photo is stored */
  has(hash: string): boolean;
  /** stores the files of one photo (written whole: a half-written photo is never served) */
  put(hash: string, files: Array<{ name: string; body: Buffer }>): void;
}

/** Photos under a directory (DATA_DIR/photos): `<dir>/<hash>/<width>.<ext>`. */
export function localPhotoStore(dir: string): PhotoStore {
  const last = `${PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]}.jpg`;
  return {
    has: (hash) => existsSync(join(dir, hash, last)),
    put(hash, files) {
      for (const f of files) {
        const file = join(dir, hash, f.name);
        mkdirSync(dirname(file), { recursive: true });
        const part = `${file}.${process.pid}.part`;
        writeFileSync(part, f.body);
        renameSync(part, file);
      }
    },
  };
}

export interface MadePhoto {
  hash: string;
  width: number;
  height: number;
  bytes: number;
}

/** The sizes and formats of one photo (its bytes checked to be an image). */
export async function makePhoto(body: Buffer, store: PhotoStore): Promise<MadePhoto> {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
  let meta: Metadata;
  try {
    meta = await sharp(body, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    throw new PhotoError('not an image');
  }
  if (!meta.format || !FORMATS_READ.has(meta.format)) throw new PhotoError(`not a photo (${meta.format ?? 'unknown format'})`);
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = (rotated ? meta.height : meta.width) ?? 0;
  const height = (rotated ? meta.width : meta.height) ?? 0;
  if (!width || !height) throw new PhotoError('an image without a size');
  if (!store.has(hash)) {
    const files: Array<{ name: string; body: Buffer }> = [];
    for (const w of PHOTO_WIDTHS) {
      const base = sharp(body, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate().resize({ width: w, withoutEnlargement: true });
      for (const f of PHOTO_FORMATS) {
        const out =
          f.ext === 'avif' ? base.clone().avif({ quality: 50, effort: 0 }) : f.ext === 'webp' ? base.clone().webp({ quality: 72, effort: 2 }) : base.clone().jpeg({ quality: 78, progressive: true, mozjpeg: false });
        files.push({ name: `${w}.${f.ext}`, body: await out.toBuffer() });
      }
    }
    // the largest JPEG last: store.has() is true only once every file is there
    files.sort((a, b) => Number(a.name === `${PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]}.jpg`) - Number(b.name === `${PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]}.jpg`));
    store.put(hash, files);
  }
  return { hash, width, height, bytes: body.length };
}

export class PhotoError extends Error {}

export interface PhotoFetchOptions {
  allow: readonly HostRule[];
  store: PhotoStore;
  resolve?: Parameters<typeof safeFetch>[1]['resolve'];
}

/** Fetches one feed photo and makes its sizes: its path, or why not. */
export async function fetchPhoto(url: string, options: PhotoFetchOptions): Promise<{ ok: true; photo: MadePhoto; path: string } | { ok: false; error: string }> {
  try {
    const fetched = await safeFetch(url, { allow: options.allow, maxBytes: PHOTO_MAX_BYTES, totalTimeoutMs: 20_000, listName: "source's photo hosts", ...(options.resolve ? { resolve: options.resolve } : {}) });
    const photo = await makePhoto(fetched.body, options.store);
    return { ok: true, photo, path: photoPath(photo.hash) };
  } catch (error) {
    if (error instanceof FetchRefused || error instanceof PhotoError) return { ok: false, error: error.message };
    return { ok: false, error: `could not be made: ${(error as Error).message}` };
  }
}

/** Runs `work` over `items`, at most `limit` at once. */
export async function bounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(runners);
}
