/**
 * "New construction: Tipo B of Torre Alba, by Constructora Andina · Delivery June 2028 · 45% built",
 * with the way to the project's page: what a unit of a new development for sale says of its project
 * (docs/projects.md "Its units"). Drawn alike by the listing's page (server/pages/listing-page.tsx)
 * and the detail (widgets/lib/listing/property-detail.tsx).
 */
import type { ListingUnitOf } from '../protocol/listing.ts';
import { deliveryMonth } from '../protocol/projects.ts';
import type { Translate } from '../translate.ts';

export function UnitOfProject({
  unitOf: u,
  t,
  lang,
  href,
  className,
  linkClassName,
}: {
  unitOf: ListingUnitOf | undefined;
  t: Translate;
  lang: string;
  /** the project's page */
  href: string;
  className?: string;
  linkClassName?: string;
}) {
  if (!u) return null;
  const month = deliveryMonth({ delivery: u.delivery ?? null }, lang);
  const parts = [
    u.developer ? t('unitOf.by', { developer: u.developer }) : null,
    u.stage === 'delivered' ? t('unitOf.ready') : month ? t('unitOf.delivery', { month }) : null,
    u.stage === 'under_construction' && typeof u.progress === 'number'
      ? t('unitOf.progress', { percent: u.progress })
      : null,
  ].filter(Boolean);
  return (
    <p className={className} part="unit-of" data-unit-of={u.slug}>
      <strong>
        {u.model ? t('unitOf.model', { model: u.model, name: u.name }) : t('unitOf.project', { name: u.name })}
      </strong>
      {parts.length ? ` · ${parts.join(' · ')}` : ''}{' '}
      <a href={href} className={linkClassName}>
        {t('unitOf.link', { name: u.name })}
      </a>
    </p>
  );
}
