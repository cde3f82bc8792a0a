/**
 * A listing's facts (bedrooms and bathrooms when it has them, area, type; the alícuota, parking, storage, furnished and
 * pets when its data says them) as a description list, drawn alike by the
 * detail (widgets/lib/listing/property-detail.tsx) and the listing's own page
 * (server/pages/listing-page.tsx), each with its classes.
 */
import { formatArea, formatCount, formatPrice } from '../protocol/format.ts';
import { roomTexts, typeLabel, type Property } from '../protocol/listing.ts';
import type { Translate } from '../translate.ts';
import { AFTER_SLASH, withBreaks } from './line-breaks.tsx';

export interface FactsClasses {
  list?: string;
  item?: string;
  term?: string;
  value?: string;
}

/** The facts, label and value, in the order both show them: those every listing has, then those of an Ecuadorian listing its data says. */
export function listingFacts(p: Property, t: Translate): Array<[string, string]> {
  const f = p.facts;
  const yesNo = (v: boolean) => t(v ? 'facts.yes' : 'facts.no');
  return [
    // its rooms by the one rule of the card, the page's description and the mails (roomTexts): those it has, so a lot says none
    ...roomTexts(p, t).map(({ room }): [string, string] =>
      room === 'beds'
        ? [t('facts.bedrooms'), formatCount(p.bedrooms)]
        : [t('facts.bathrooms'), formatCount(p.bathrooms)],
    ),
    [t('facts.area'), formatArea(p.area)],
    [t('facts.type'), typeLabel(p.propertyType, t)],
    ...([
      [t('facts.hoaFee'), f.hoaFee === null ? null : t('facts.perMonth', { price: formatPrice(f.hoaFee) })],
      [t('facts.parking'), f.parking === null ? null : formatCount(f.parking)],
      [t('facts.storage'), f.storage === null ? null : yesNo(f.storage)],
      [t('facts.furnished'), f.furnished === null ? null : t(`facts.furnishedValue.${f.furnished}`)],
      [t('facts.pets'), f.pets === null ? null : yesNo(f.pets)],
    ].filter((r): r is [string, string] => r[1] !== null) as Array<[string, string]>),
  ];
}

export function ListingFacts({
  property,
  t,
  classes: c = {},
  part,
}: {
  property: Property;
  t: Translate;
  classes?: FactsClasses;
  part?: string;
}) {
  return (
    <dl className={c.list} part={part}>
      {listingFacts(property, t).map(([label, value]) => (
        <div key={label} className={c.item}>
          <dt className={c.term}>{label}</dt>
          {/* "$122/month" may break after its slash on a narrow phone, not inside "month" */}
          <dd className={c.value}>{withBreaks(value, AFTER_SLASH)}</dd>
        </div>
      ))}
    </dl>
  );
}
