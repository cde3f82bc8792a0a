/**
 * A listing as a link to its page, with its first photo: the tiles of a listing's similar listings
 * (listing-page.tsx) and of a search page's results (search-results.tsx), which crawlers follow.
 */
import type { Lang } from '../../core/lang.ts';
import { listingPrice, type Property, typeLabel } from '../../core/protocol/listing.ts';
import { PHOTO_SIZES } from '../../core/protocol/photos.ts';
import { listingPagePath } from '../../core/routes.ts';
import type { Translate } from '../../core/translate.ts';
import { Photo } from './html.tsx';

/**
 * `inElement`: the tile stands inside an element that draws its own cards with their own photos (the
 * search's, the featured block's): its photo is for readers without JavaScript only (in a
 * `<noscript>`), so a visitor's phone downloads each photo once, in the size the card asks for.
 */
export function ListingTile({
  p,
  t,
  lang,
  inElement = false,
}: {
  p: Property;
  t: Translate;
  lang: Lang;
  inElement?: boolean;
}) {
  const photo = p.images[0];
  const img = photo ? (
    <Photo src={photo} sizes={PHOTO_SIZES.tile} alt="" width={400} height={225} loading="lazy" decoding="async" />
  ) : null;
  return (
    <li className="listing-tile">
      <a className="listing-tile__link" href={listingPagePath(p, lang)}>
        {img && !inElement ? (
          img
        ) : (
          <span className="listing-tile__photo">{img ? <noscript>{img}</noscript> : null}</span>
        )}
        <span className="listing-tile__price">{listingPrice(p, t)}</span>
        <span className="listing-tile__title">{p.title}</span>
        <span className="listing-tile__place">
          {[p.city, typeLabel(p.propertyType, t)].filter(Boolean).join(' · ')}
        </span>
      </a>
    </li>
  );
}
