import { useState } from 'react';
import { placeholderIndex } from '../../../core/protocol/listing.ts';
import { Photo, PHOTO_SIZES } from './photo.tsx';
import { PropertyPlaceholder } from './placeholder.tsx';

/**
 * A listing's photo as a tile (recently viewed, a saved listing that is gone): its placeholder when
 * it has none or the photo does not load.
 */
export function TilePhoto({
  listingId,
  src,
  label,
  className,
}: {
  listingId: string;
  src: string | undefined;
  label: string;
  className: string;
}) {
  const [failed, setFailed] = useState(false);
  return src && !failed ? (
    <Photo
      src={src}
      sizes={PHOTO_SIZES.tile}
      width={320}
      height={180}
      alt=""
      loading="lazy"
      decoding="async"
      className={className}
      onError={() => setFailed(true)}
    />
  ) : (
    <PropertyPlaceholder index={placeholderIndex(listingId)} label={label} />
  );
}
