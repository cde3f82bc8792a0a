/**
 * The filter bar (docs/product.md §3, §9): property type, city, beds, baths, minimum area, price
 * minimum and maximum, and a search button. Every control has a visible label that is its name.
 * On narrow widths the less used filters fold behind "More filters".
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { PRICE_MAX_ANY, type SearchFilters } from '../lib/data/listings.ts';
import { useElement, useStyles } from '../lib/element.tsx';
import { formatPricePill } from '../../core/protocol/format.ts';
import { typeLabel } from '../../core/protocol/listing.ts';
import { FilterIcon } from '../lib/ui/icons/filter.tsx';
import { SearchIcon } from '../lib/ui/icons/search.tsx';
import { selectCss } from './select.ts';

export const BEDS = [1, 2, 3, 4, 5];
export const MIN_AREA = [50, 100, 150, 200, 300];
export const MIN_PRICE = [100_000, 250_000, 500_000, 1_000_000, 2_000_000];
export const MAX_PRICE = [500_000, 1_000_000, 2_000_000, 5_000_000, PRICE_MAX_ANY];

interface Draft {
  propertyType: string;
  city: string;
  beds: string;
  baths: string;
  minSqft: string;
  minPrice: string;
  maxPrice: string;
}

const toDraft = (f: SearchFilters): Draft => ({
  propertyType: f.propertyType ?? '',
  city: f.city ?? '',
  beds: f.beds ? String(f.beds) : '',
  baths: f.baths ? String(f.baths) : '',
  minSqft: f.minSqft ? String(f.minSqft) : '',
  minPrice: f.minPrice ? String(f.minPrice) : '',
  maxPrice: f.maxPrice ? String(f.maxPrice) : '',
});

export interface FilterBarProps {
  applied: SearchFilters;
  propertyTypes: string[];
  onSubmit: (next: SearchFilters) => void;
}

export function FilterBar({ applied, propertyTypes, onSubmit }: FilterBarProps) {
  useStyles(selectCss);
  const { t } = useElement();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => toDraft(applied));
  const [expanded, setExpanded] = useState(false);
  useEffect(() => setDraft(toDraft(applied)), [applied]);

  const set = (key: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const num = (s: string) => (s && Number.isFinite(Number(s)) ? Number(s) : undefined);
    const next: SearchFilters = { ...applied };
    for (const key of ['propertyType', 'city'] as const) {
      const v = draft[key].trim();
      if (v) next[key] = v;
      else delete next[key];
    }
    for (const key of ['beds', 'baths', 'minSqft', 'minPrice', 'maxPrice'] as const) {
      const v = num(draft[key]);
      if (v) next[key] = v;
      else delete next[key];
    }
    onSubmit(next);
  };

  const options = (values: number[], label: (n: number) => string, current: string) => {
    const list = values.map((v) => ({ value: String(v), label: label(v) }));
    // a value from a shared link that is not one of ours still shows
    if (current && !list.some((o) => o.value === current)) list.unshift({ value: current, label: label(Number(current)) });
    return [{ value: '', label: t('search.filters.any') }, ...list];
  };
  const types = [...propertyTypes];
  if (draft.propertyType && !types.some((x) => x.toLowerCase() === draft.propertyType.toLowerCase())) types.unshift(draft.propertyType);

  const fieldClass = 'flex flex-col gap-1 min-w-0';
  const labelClass = 'text-xs font-semibold uppercase tracking-wide text-ink-muted';
  const control =
    'w-full h-11 rounded-md border border-line bg-surface px-3 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';
  const select = `${control} exp-select pr-8 cursor-pointer`;
  const extra = expanded ? 'flex' : 'hidden cq-md:flex';

  const selectField = (key: keyof Draft, label: string, opts: Array<{ value: string; label: string }>, className = fieldClass) => (
    <div className={className}>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <select id={`${id}-${key}`} name={key} value={draft[key]} onChange={set(key)} className={select}>
        {opts.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <form role="search" aria-label={t('search.filters.heading')} onSubmit={submit} part="filters" className="rounded-brand border border-line bg-surface p-3 cq-md:p-4 shadow-sm">
      <div className="grid grid-cols-2 cq-md:grid-cols-4 cq-xl:grid-cols-[repeat(7,minmax(0,1fr))_auto] gap-3 items-end">
        {selectField('propertyType', t('search.filters.propertyType'), [{ value: '', label: t('search.filters.any') }, ...types.map((x) => ({ value: x, label: typeLabel(x, t) }))])}
        <div className={fieldClass}>
          <label htmlFor={`${id}-city`} className={labelClass}>
            {t('search.filters.city')}
          </label>
          <input id={`${id}-city`} name="city" type="search" autoComplete="address-level2" maxLength={100} value={draft.city} onChange={set('city')} placeholder={t('search.filters.cityPlaceholder')} className={control} />
        </div>
        {selectField('beds', t('search.filters.beds'), options(BEDS, (n) => t('search.filters.plus', { n }), draft.beds), `${fieldClass} ${extra}`)}
        {selectField('baths', t('search.filters.baths'), options(BEDS, (n) => t('search.filters.plus', { n }), draft.baths), `${fieldClass} ${extra}`)}
        {selectField('minSqft', t('search.filters.minArea'), options(MIN_AREA, (n) => t('search.filters.areaPlus', { n }), draft.minSqft), `${fieldClass} ${extra}`)}
        {selectField('minPrice', t('search.filters.minPrice'), options(MIN_PRICE, (n) => formatPricePill(n), draft.minPrice), `${fieldClass} ${extra}`)}
        {selectField('maxPrice', t('search.filters.maxPrice'), options(MAX_PRICE, (n) => (n >= PRICE_MAX_ANY ? `${formatPricePill(10_000_000)}+` : formatPricePill(n)), draft.maxPrice), `${fieldClass} ${extra}`)}
        <div className="col-span-2 cq-md:col-span-1 flex gap-2">
          <button
            type="button"
            onClick={() => setExpanded((x) => !x)}
            aria-expanded={expanded}
            className="cq-md:hidden h-11 flex-1 inline-flex items-center justify-center gap-2 rounded-md border border-line bg-surface px-3 text-[15px] font-medium text-ink cursor-pointer"
          >
            <FilterIcon size={18} />
            {expanded ? t('search.filters.fewer') : t('search.filters.more')}
          </button>
          <button type="submit" part="search-button" className="h-11 flex-1 cq-md:w-full inline-flex items-center justify-center gap-2 rounded-md bg-primary px-5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover">
            <SearchIcon size={18} />
            {t('search.filters.search')}
          </button>
        </div>
      </div>
    </form>
  );
}
