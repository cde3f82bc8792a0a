/**
 * "Reduced $10,000" on a card or a map popup: the listing's last price cut, while it is news
 * (core/protocol/listing.ts recentPriceCut, PRICE_CUT_DAYS).
 */
import { formatPrice } from '../../../core/protocol/format.ts';
import { recentPriceCut, type Property } from '../../../core/protocol/listing.ts';
import { useElement } from '../element.tsx';

export function PriceCutBadge({
  property,
  className = '',
}: {
  property: Pick<Property, 'priceCut' | 'price'>;
  className?: string;
}) {
  const { t } = useElement();
  const cut = recentPriceCut(property);
  if (!cut) return null;
  return (
    <span
      part="price-reduced"
      className={`inline-flex items-center gap-1 rounded-full bg-surface px-2 py-0.5 text-xs font-semibold text-danger shadow-sm ${className}`}
    >
      <span aria-hidden="true">↓</span>
      {t('listing.priceCut', { amount: formatPrice(cut.by) })}
    </span>
  );
}
