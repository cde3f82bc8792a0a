/**
 * A listing's facts (bedrooms, bathrooms, area, type) as a description list, drawn alike by the
 * detail (widgets/lib/listing/property-detail.tsx) and the listing's own page
 * (server/pages/listing-page.tsx), each with its classes.
 */
import { formatArea, formatCount } from '../protocol/format.ts';
import { typeLabel, type Property } from '../protocol/listing.ts';
import type { Translate } from '../translate.ts';

export interface FactsClasses {
  list?: string;
  item?: string;
  term?: string;
  value?: string;
}

/** The facts, label and value, in the order both show them. */
export function listingFacts(p: Property, t: Translate): Array<[string, string]> {
  return [
    [t('listing.bedrooms'), formatCount(p.bedrooms)],
    [t('listing.bathrooms'), formatCount(p.bathrooms)],
    [t('listing.area'), formatArea(p.area)],
    [t('listing.type'), typeLabel(p.propertyType, t)],
  ];
}

export function ListingFacts({ property, t, classes: c = {}, part }: { property: Property; t: Translate; classes?: FactsClasses; part?: string }) {
  return (
    <dl className={c.list} part={part}>
      {listingFacts(property, t).map(([label, value]) => (
        <div key={label} className={c.item}>
          <dt className={c.term}>{label}</dt>
          <dd className={c.value}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
