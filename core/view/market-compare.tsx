/**
 * A listing beside its market (docs/market.md): its asking price per m² against the median of its
 * sector's listings of its type last month ("12% below the median of houses in Cumbayá"), or of
 * the nearest place that has a figure, with the way to that place's report. Drawn alike by the
 * listing's page (server/pages/listing-page.tsx) and the detail (widgets/lib/listing/).
 */
import { formatNumber, formatPrice } from '../protocol/format.ts';
import { pricePerM2, typeGroupOf, type MarketFigure } from '../protocol/market.ts';
import { formatMonth } from '../protocol/month.ts';
import type { Translate } from '../translate.ts';

/** Within this of the median, a listing is at it. */
const AT_MEDIAN = 0.02;

export function MarketComparison({
  listing,
  figure,
  t,
  href,
  className,
  linkClassName,
}: {
  listing: { price: number; area: number; lot: number; propertyType: string };
  figure: MarketFigure | undefined;
  t: Translate;
  /** the report of the figure's place */
  href: string;
  className?: string;
  linkClassName?: string;
}) {
  const own = pricePerM2(listing);
  const group = typeGroupOf(listing.propertyType);
  if (own === null || !group || !figure || !(figure.median > 0)) return null;
  const diff = own / figure.median - 1;
  const params = {
    pct: `${formatNumber(Math.abs(diff) * 100, 0)}%`,
    group: t(`market.compare.groups.${group}`),
    place: figure.name,
    median: formatPrice(figure.median),
    month: formatMonth(figure.month, t),
  };
  const key =
    Math.abs(diff) < AT_MEDIAN ? 'market.compare.at' : diff < 0 ? 'market.compare.below' : 'market.compare.above';
  return (
    <p className={className} part="market-comparison">
      <strong>{t('market.compare.perM2', { price: formatPrice(own) })}</strong> · {t(key, params)}{' '}
      <a href={href} className={linkClassName}>
        {t('market.compare.report', { place: figure.name })}
      </a>
    </p>
  );
}
