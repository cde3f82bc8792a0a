/**
 * The filters that apply, as chips under the filter bar: each names one filter in words and
 * removes it when pressed ("Pool ×"), and "Clear all" removes every one the visitor set (an
 * embed's agent scope stays). Shown only when something is set.
 */
import { FEATURE_FLAGS, PRICE_MAX_ANY, appliedFilters, type SearchFilters } from '../lib/data/listings.ts';
import { useElement } from '../lib/element.tsx';
import { formatArea, formatPricePill } from '../../core/protocol/format.ts';
import { typeLabel } from '../../core/protocol/listing.ts';

interface Chip {
  key: string;
  label: string;
  without: (f: SearchFilters) => SearchFilters;
}

const drop =
  (...keys: Array<keyof SearchFilters>) =>
  (f: SearchFilters): SearchFilters => {
    const next = { ...f };
    for (const k of keys) delete next[k];
    return next;
  };

export function FilterChips({ applied, onSubmit }: { applied: SearchFilters; onSubmit: (next: SearchFilters) => void }) {
  const { t } = useElement();
  const f = appliedFilters(applied);
  const chips: Chip[] = [];
  if (f.place) chips.push({ key: 'place', label: f.placeName || f.place, without: drop('place', 'placeName') });
  if (f.city) chips.push({ key: 'city', label: f.city, without: drop('city') });
  if (f.keywords) chips.push({ key: 'keywords', label: t('search.chips.keywords', { words: f.keywords }), without: drop('keywords') });
  if (f.propertyType) chips.push({ key: 'propertyType', label: typeLabel(f.propertyType, t), without: drop('propertyType') });
  if (f.minPrice) chips.push({ key: 'minPrice', label: t('alerts.summary.minPrice', { price: formatPricePill(f.minPrice) }), without: drop('minPrice') });
  if (f.maxPrice && f.maxPrice < PRICE_MAX_ANY) chips.push({ key: 'maxPrice', label: t('alerts.summary.maxPrice', { price: formatPricePill(f.maxPrice) }), without: drop('maxPrice') });
  if (f.beds) chips.push({ key: 'beds', label: t('alerts.summary.beds', { count: f.beds }), without: drop('beds') });
  if (f.baths) chips.push({ key: 'baths', label: t('alerts.summary.baths', { count: f.baths }), without: drop('baths') });
  if (f.minSqft) chips.push({ key: 'minSqft', label: t('alerts.summary.minArea', { area: formatArea(f.minSqft) }), without: drop('minSqft') });
  if (f.maxSqft) chips.push({ key: 'maxSqft', label: t('alerts.summary.maxArea', { area: formatArea(f.maxSqft) }), without: drop('maxSqft') });
  if (f.yearBuiltFrom) chips.push({ key: 'yearBuiltFrom', label: t('alerts.summary.builtFrom', { year: f.yearBuiltFrom }), without: drop('yearBuiltFrom') });
  if (f.yearBuiltTo) chips.push({ key: 'yearBuiltTo', label: t('alerts.summary.builtTo', { year: f.yearBuiltTo }), without: drop('yearBuiltTo') });
  if (f.minLotSize) chips.push({ key: 'minLotSize', label: t('alerts.summary.minLot', { area: formatArea(f.minLotSize) }), without: drop('minLotSize') });
  if (f.maxLotSize) chips.push({ key: 'maxLotSize', label: t('alerts.summary.maxLot', { area: formatArea(f.maxLotSize) }), without: drop('maxLotSize') });
  for (const flag of FEATURE_FLAGS) {
    if (!f.features?.[flag]) continue;
    chips.push({ key: flag, label: t(`search.filters.feature.${flag}`), without: (x) => ({ ...x, features: { ...x.features, [flag]: false } }) });
  }
  if (f.bbox) chips.push({ key: 'bbox', label: t('alerts.summary.mapArea'), without: drop('bbox') });
  if (f.polygon) chips.push({ key: 'polygon', label: t('search.chips.polygon'), without: drop('polygon') });
  if (!chips.length) return null;
  const all = chips.reduce((x, c) => c.without(x), applied);
  return (
    <div part="chips" role="group" aria-label={t('search.chips.label')} className="flex flex-wrap items-center gap-2">
      {chips.map((c) => (
        <button
          key={c.key}
          type="button"
          part="chip"
          aria-label={t('search.chips.remove', { filter: c.label })}
          onClick={() => onSubmit(c.without(applied))}
          className="inline-flex items-center gap-1.5 rounded-full border border-line bg-surface px-3 py-1.5 text-sm text-ink cursor-pointer hover:bg-surface-subtle"
        >
          <span className="break-words">{c.label}</span>
          <span aria-hidden="true" className="text-ink-muted">
            ×
          </span>
        </button>
      ))}
      <button type="button" part="clear-filters" onClick={() => onSubmit(all)} className="px-2 py-1.5 text-sm font-semibold text-primary underline-offset-2 hover:underline cursor-pointer bg-transparent border-0">
        {t('search.chips.clearAll')}
      </button>
    </div>
  );
}
