/**
 * A feed's photos re-hosted (docs/import.md, "Photos"): MLS rules forbid hot-linking, and a feed's
 * photos are often 3-10 MB. Each is fetched through the safe fetcher (only the source's photo
 * hosts, never a private address, 20 MB at most, 20 s), checked to be an image by its bytes, stored
 * once by the hash of its content, and made in the widths of core/protocol/photos.ts with sharp
 * (EXIF rotation applied, metadata dropped): JPEGs at once, AVIF and WebP when first asked for. A
 * photo is fetched again only when its address, key or timestamp changes (internal.photos
 * remembers each). At most three are fetched and made at once (PHOTO_CONCURRENCY), and at most two
 * sizes on demand: a 2-core machine keeps serving while a feed's photos are made.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { PHOTO_FORMATS, PHOTO_LARGEST, PHOTO_WIDTHS, photoPath } from '../../core/protocol/photos.ts';
import { FetchRefused, safeFetch, type HostRule } from '../http/safe-fetch.ts';

/**
 * Photos fetched and made at once: three on a 2-core machine, so that one is on the network while
 * two are being made (two at once made 17-20 a second with the fetching, three 21-22; the making
 * alone 23 and 26).
 */
export const PHOTO_CONCURRENCY = 3;

/** A feed photo's bytes: at most this much (the 50 MB "photo" of a hostile feed is cut off as it streams). */
const PHOTO_MAX_BYTES = 20 * 1024 * 1024;
/** The largest image accepted, in pixels (a decompression bomb is refused before it is decoded). */
const MAX_PIXELS = 80_000_000;
const FORMATS_READ = new Set(['jpeg', 'png', 'webp', 'avif', 'heif', 'tiff', 'gif']);

export interface PhotoStore {
  /** whether the photo is stored (every file of it: the largest JPEG is written last) */
  has(hash: string): Promise<boolean>;
  /** stores files of one photo, in order (each written whole: a half-written file is never served) */
  put(hash: string, files: Array<{ name: string; body: Buffer; type: string }>): Promise<void>;
  /** a file of a stored photo, or undefined (a store that serves its own files need not read them back) */
  read?(hash: string, name: string): Promise<Buffer | undefined>;
  /** the address a listing keeps for the photo (its default size: core/protocol/photos.ts reads every other from it) */
  url(hash: string): string;
  /** AVIF and WebP made with the JPEGs (a store whose files no server of ours makes on first request) */
  eager: boolean;
}

const LARGEST = PHOTO_LARGEST;
/** The file the AVIF and WebP sizes are made from: the largest JPEG (MASTER_JPEG, at most 1600 px). */
const MASTER = `${LARGEST}.jpg`;

/** Photos under a directory (DATA_DIR/photos): `<dir>/<hash>/<width>.<ext>`, served at /media/photos/. */
export function localPhotoStore(dir: string): PhotoStore {
  return {
    eager: false,
    url: (hash) => photoPath(hash),
    has: async (hash) => existsSync(join(dir, hash, MASTER)),
    async put(hash, files) {
      for (const f of files) {
        const file = join(dir, hash, f.name);
        mkdirSync(dirname(file), { recursive: true });
        const part = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
        writeFileSync(part, f.body);
        renameSync(part, file);
      }
    },
    async read(hash, name) {
      try {
        return readFileSync(join(dir, hash, name));
      } catch {
        return undefined;
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

type Pixels = { data: Buffer; info: OutputInfo };
const fromRaw = (p: Pixels) =>
  sharp(p.data, { raw: { width: p.info.width, height: p.info.height, channels: p.info.channels } });
/** Lanczos with two lobes: as sharp as the default three for a reduction, and a seventh less CPU. */
const KERNEL = 'lanczos2';

type Ext = (typeof PHOTO_FORMATS)[number]['ext'];
const TYPES = Object.fromEntries(PHOTO_FORMATS.map((f) => [f.ext, f.type])) as Record<Ext, string>;

/**
 * The largest JPEG is the file the AVIF and WebP sizes are made from, and a browser takes it only
 * when it reads neither of those and shows the photo over 1024 px: it is finer (quality 82), and
 * its Huffman tables are the standard ones instead of tables fitted to the photo (5% more bytes,
 * the same pixels, 8 ms less of the 72 ms of CPU a 3000 x 2000 photo costs).
 */
const MASTER_JPEG = { quality: 82, optimiseCoding: false };

const encode = (img: Sharp, ext: Ext, master = false) =>
  (ext === 'avif'
    ? img.avif({ quality: 50, effort: 0 })
    : ext === 'webp'
      ? img.webp({ quality: 72, effort: 2 })
      : img.jpeg(master ? MASTER_JPEG : { quality: 78 })
  ).toBuffer();

/**
 * A photo's JPEG sizes (its bytes checked to be an image). The feed's photo is decoded once, turned
 * upright and brought to at most 1600 px; each smaller size is made from the one above it, the largest a
 * little finer (MASTER_JPEG): the AVIF and WebP sizes are made from it the first time they are asked for
 * (photoVariant), or here, with the JPEGs, for a store no server of ours answers (`eager`). Making all twelve files of a 3000 x 2000 photo at once took half a second of CPU,
 * the JPEGs alone a seventh of that, and most of a feed's photos are never seen in every size.
 * Baseline JPEGs: progressive ones took twice as long to make, for photos that load whole at once.
 */
export async function makePhoto(body: Buffer, store: PhotoStore): Promise<MadePhoto> {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
  let meta: Metadata;
  try {
    meta = await sharp(body, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    throw new PhotoError('not an image');
  }
  if (!meta.format || !FORMATS_READ.has(meta.format))
    throw new PhotoError(`not a photo (${meta.format ?? 'unknown format'})`);
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = (rotated ? meta.height : meta.width) ?? 0;
  const height = (rotated ? meta.width : meta.height) ?? 0;
  if (!width || !height) throw new PhotoError('an image without a size');
  if (!(await store.has(hash))) {
    let pixels: Pixels;
    try {
      pixels = await sharp(body, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ width: LARGEST, withoutEnlargement: true, kernel: KERNEL })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
    } catch (error) {
      throw new PhotoError(`a broken image (${(error as Error).message})`);
    }
    // largest first, each size made from the one before it (a 320 px photo from 1600 px pixels
    // read five times the pixels it needs)
    const files: Array<{ name: string; body: Buffer; type: string }> = [];
    for (const w of [...PHOTO_WIDTHS].reverse()) {
      if (w < pixels.info.width)
        pixels = await fromRaw(pixels).resize({ width: w, kernel: KERNEL }).raw().toBuffer({ resolveWithObject: true });
      for (const ext of store.eager ? PHOTO_FORMATS.map((f) => f.ext) : (['jpg'] as const)) {
        files.push({
          name: `${w}.${ext}`,
          body: await encode(fromRaw(pixels), ext, ext === 'jpg' && w === LARGEST),
          type: TYPES[ext],
        });
      }
    }
    // the smallest first, the largest JPEG last: has() is true only once every file is there
    files.reverse();
    await store.put(hash, [...files.filter((f) => f.name !== MASTER), ...files.filter((f) => f.name === MASTER)]);
  }
  return { hash, width, height, bytes: body.length };
}

/**
 * An AVIF or WebP size of a stored photo, made from its largest JPEG the first time it is asked
 * for and kept. Undefined for a photo that is not stored or a size that is not one of ours.
 */
export async function photoVariant(store: PhotoStore, hash: string, name: string): Promise<Buffer | undefined> {
  const m = /^(\d+)\.(avif|webp)$/.exec(name);
  if (!/^[0-9a-f]{32}$/.test(hash) || !m || !(PHOTO_WIDTHS as readonly number[]).includes(Number(m[1])))
    return undefined;
  if (!store.read) return undefined;
  const read = store.read.bind(store);
  const kept = await read(hash, name);
  if (kept) return kept;
  const key = `${hash}/${name}`;
  // the same size asked for twice at once is made once
  let making = pending.get(key);
  if (!making) {
    making = (async () => {
      const master = await read(hash, MASTER);
      if (!master) return undefined;
      await slot();
      try {
        const ext = m[2] as 'avif' | 'webp';
        const body = await encode(
          sharp(master).resize({ width: Number(m[1]), withoutEnlargement: true, kernel: KERNEL }),
          ext,
        );
        await store.put(hash, [{ name, body, type: TYPES[ext] }]);
        return body;
      } finally {
        release();
      }
    })().finally(() => pending.delete(key));
    pending.set(key, making);
  }
  return making;
}

const pending = new Map<string, Promise<Buffer | undefined>>();
let busy = 0;
const waiting: Array<() => void> = [];
/** at most two sizes made on demand at once; the others wait their turn */
const slot = () => (busy < 2 ? (busy++, Promise.resolve()) : new Promise<void>((r) => waiting.push(r)));
const release = () => {
  const next = waiting.shift();
  if (next) next();
  else busy--;
};

/** Why bytes are not a photo we make (not an image, a format we do not read, broken): lasting. */
export class PhotoError extends Error {}

export interface PhotoFetchOptions {
  allow: readonly HostRule[];
  store: PhotoStore;
  resolve?: Parameters<typeof safeFetch>[1]['resolve'];
}

/**
 * Fetches one feed photo and makes its sizes: its address, or why not, and whether that would last
 * (an address we may not fetch, a page that is not a photo, too large, a 4xx: trying again gives the
 * same) or might pass (no answer, a 5xx or a 429, the store down: the next run tries again).
 */
export async function fetchPhoto(
  url: string,
  options: PhotoFetchOptions,
): Promise<{ ok: true; photo: MadePhoto; path: string } | { ok: false; error: string; lasting: boolean }> {
  try {
    const fetched = await safeFetch(url, {
      allow: options.allow,
      maxBytes: PHOTO_MAX_BYTES,
      totalTimeoutMs: 20_000,
      listName: "source's photo hosts",
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    const photo = await makePhoto(fetched.body, options.store);
    return { ok: true, photo, path: options.store.url(photo.hash) };
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof PhotoError) return { ok: false, error: message, lasting: true };
    if (error instanceof FetchRefused) {
      const status = error.answer.status ?? 0;
      const lasting =
        error.kind === 'refused' ||
        Boolean(error.answer.tooLarge) ||
        (status >= 400 && status < 500 && status !== 408 && status !== 429);
      return { ok: false, error: message, lasting };
    }
    return { ok: false, error: `could not be made: ${message}`, lasting: false };
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
