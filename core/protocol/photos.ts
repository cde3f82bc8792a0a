/**
 * Re-hosted photos (docs/import.md, "Photos"): a feed's photo is stored once by its content's hash
 * and made in a few widths and formats, at `<base>/photos/<hash>/<width>.<avif|webp|jpg>`: our server's
 * `/media/photos/`, or a Supabase Storage bucket's public `.../photos/` (server/import/storage.ts). The
 * importer makes them (server/import/photos.ts); the cards, the carousel, the detail and the
 * listing page read a listing's photo address and, when it is one of these, offer every size
 * (`srcset`) in every format (`<picture>`), so a phone downloads a phone-sized photo.
 */

/** The widths made of every photo (a photo narrower than one is made at its own width under that name). */
export const PHOTO_WIDTHS = [320, 640, 1024, 1600] as const;
/** The largest: its JPEG is written last, so a photo whose largest JPEG is stored is stored whole. */
export const PHOTO_LARGEST = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1] as number;

/** Formats, best first; JPEG is the fallback every browser reads. */
export const PHOTO_FORMATS = [
  { ext: 'avif', type: 'image/avif' },
  { ext: 'webp', type: 'image/webp' },
  { ext: 'jpg', type: 'image/jpeg' },
] as const;

/** The widths the photos are shown at, per place: the `sizes` of the elements and of the listing page. */
export const PHOTO_SIZES = {
  /** a card of the results: one column on a phone, two on a tablet, at most about 400 px wide beside the map */
  card: '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw',
  /** the detail's photos: at most 712 px */
  detail: '(min-width: 760px) 712px, 100vw',
  /** full screen */
  full: '100vw',
  /** a tile: a similar or recently viewed listing, a map popup */
  tile: '(min-width: 640px) 280px, 50vw',
} as const;

/**
 * `sizes` for a screen of this device pixel ratio, at most 2 pixels of photo per CSS pixel: a
 * phone of ratio 3 (390 px wide: 1170 px) takes the 1024 px photo instead of the 1600 px one, a
 * third of the bytes, for a difference the eye does not see in a photo that size.
 */
export function cappedSizes(sizes: string, ratio: number): string {
  if (!(ratio > 2)) return sizes;
  const scale = (2 / ratio).toFixed(3);
  return sizes
    .split(',')
    .map((part) => part.trim().replace(/(\S+)$/, (length) => `calc(${length} * ${scale})`))
    .join(', ');
}

/** The width a listing's `images` name (the `<img src>` of browsers that take no srcset). */
export const PHOTO_DEFAULT_WIDTH = 1024;

const PATTERN = new RegExp(`^(.*/photos/)([0-9a-f]{32})/(${PHOTO_WIDTHS.join('|')})\\.(avif|webp|jpg)$`);

/** The photo's path from its hash. */
export function photoPath(
  hash: string,
  width: number = PHOTO_DEFAULT_WIDTH,
  ext: 'avif' | 'webp' | 'jpg' = 'jpg',
): string {
  return `/media/photos/${hash}/${width}.${ext}`;
}

export interface PhotoSources {
  /** the JPEG at the default width */
  src: string;
  /** per format, best first: `srcset` of every width */
  sources: Array<{ type: string; srcset: string }>;
  /** the JPEG's srcset */
  srcset: string;
}

/** Every size and format of a re-hosted photo, from any of its addresses; null for any other photo. */
export function photoSources(url: string): PhotoSources | null {
  const m = PATTERN.exec(url);
  if (!m) return null;
  const [, base, hash] = m as unknown as [string, string, string];
  const set = (ext: string) => PHOTO_WIDTHS.map((w) => `${base}${hash}/${w}.${ext} ${w}w`).join(', ');
  return {
    src: `${base}${hash}/${PHOTO_DEFAULT_WIDTH}.jpg`,
    sources: PHOTO_FORMATS.filter((f) => f.ext !== 'jpg').map((f) => ({ type: f.type, srcset: set(f.ext) })),
    srcset: set('jpg'),
  };
}
