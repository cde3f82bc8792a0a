/**
 * "Open house Sat 28 Nov, 10:00–12:00" on a card or a map popup: the listing's next open house not
 * ended yet, in Ecuador's time (docs/visits.md "Open houses"); nothing when there is none. And the
 * badge it is drawn as, which a card's other badges share (a unit's project: docs/projects.md).
 */
import type { ReactNode } from 'react';
import { openHouseWhen, upcomingOpenHouses } from '../../../core/protocol/open-houses.ts';
import type { Property } from '../../../core/protocol/listing.ts';
import { useElement } from '../element.tsx';

export function PhotoBadge({
  part,
  className = '',
  children,
}: {
  part: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      part={part}
      className={`inline-flex items-center rounded-full bg-surface px-2 py-0.5 text-xs font-semibold text-ink shadow-sm ${className}`}
    >
      {children}
    </span>
  );
}

export function OpenHouseBadge({
  property,
  className = '',
}: {
  property: Pick<Property, 'openHouses'>;
  className?: string;
}) {
  const { t, lang } = useElement();
  const [next] = upcomingOpenHouses(property.openHouses);
  if (!next) return null;
  return (
    <PhotoBadge part="open-house-badge" className={className}>
      {t('listing.openHouse', { when: openHouseWhen(next, lang) })}
    </PhotoBadge>
  );
}
