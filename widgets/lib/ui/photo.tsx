/**
 * A listing's photo. A re-hosted one (core/protocol/photos.ts) is offered in every width and
 * format, AVIF and WebP first (`<picture>`), with the `sizes` of where it is shown, so a phone takes
 * a phone-sized photo; any other address is shown as it is. `<picture>` lays out as its `<img>`
 * (display: contents): the photo's box is its frame's, as before.
 */
import type { ImgHTMLAttributes } from 'react';
import { cappedSizes, photoSources, PHOTO_SIZES } from '../../../core/protocol/photos.ts';

export { PHOTO_SIZES };

export type PhotoProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes'> & {
  src: string;
  sizes: string;
};

/** the screen's pixel ratio, as `sizes` are written for it (at most 2 photo pixels a CSS pixel) */
const ratio = () => (typeof devicePixelRatio === 'number' ? devicePixelRatio : 1);

export function Photo({ src, sizes: wanted, ...img }: PhotoProps) {
  const set = photoSources(src);
  if (!set) return <img src={src} {...img} />;
  const sizes = cappedSizes(wanted, ratio());
  return (
    <picture style={{ display: 'contents' }}>
      {set.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcset} sizes={sizes} />
      ))}
      <img src={set.src} srcSet={set.srcset} sizes={sizes} {...img} />
    </picture>
  );
}

/**
 * Starts loading a photo that is about to be shown (the next in a carousel): the same `<picture>`,
 * detached, so the browser fetches the very size and format it will pick when it is shown.
 */
export function warmPhoto(src: string, wanted: string): void {
  const set = photoSources(src);
  const sizes = cappedSizes(wanted, ratio());
  const img = document.createElement('img');
  img.decoding = 'async';
  if (set) {
    const picture = document.createElement('picture');
    for (const s of set.sources) {
      const source = document.createElement('source');
      source.type = s.type;
      source.srcset = s.srcset;
      source.sizes = sizes;
      picture.append(source);
    }
    picture.append(img);
    img.sizes = sizes;
    img.srcset = set.srcset;
    img.src = set.src;
  } else img.src = src;
}
