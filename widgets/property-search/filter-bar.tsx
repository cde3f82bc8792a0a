/**
 * The filter bar (docs/product.md §3, §9): property type, the location box (a city, sector,
 * province, address or code with suggestions, location-box.tsx), beds, baths, minimum area, price
 * minimum and maximum, and a search button; behind "More filters", the spec's other filters
 * (features, year built, lot size). Every control has a visible label that is its name. On narrow
 * widths the less used filters fold behind "More filters" too.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { Fragment, useId, useRef, useState, type FormEvent } from 'react';
import { cleanKeywords, FEATURE_FLAGS, type FeatureFlag, type SearchFilters } from '../lib/data/listings.ts';
import { useElement, useStyles } from '../lib/element.tsx';
import {
  CHOICE_FILTERS,
  controlOptions,
  FILTERS,
  FLAG_FILTERS,
  NUMBER_FILTERS,
  OPERATIONS,
  shownFor,
  type ChoiceFilter,
  type FilterSpec,
  type FlagFilter,
  type NumberFilter,
  type Operation,
} from '../../core/protocol/filters.ts';
import { typeLabel } from '../../core/protocol/listing.ts';
import { FilterIcon } from '../lib/ui/icons/filter.tsx';
import { SearchIcon } from '../lib/ui/icons/search.tsx';
import { LocationBox, type LocationValue } from '../lib/location-box/location-box.tsx';
import { selectCss } from './select.ts';
import { lazyChunk } from '../lib/lazy-chunk.ts';
import type { FilterSheet as Sheet } from './filter-sheet.tsx';
import type { MoreFields as More } from './more-filters.tsx';
import { SelectField } from '../lib/ui/select-field.tsx';
import type { SelectOption } from '../lib/ui/options.tsx';
import { useMediaQuery } from '../lib/media-query.ts';

/** the phone's filter sheet (filter-sheet.tsx): its own chunk, loaded when first opened */
const loadSheet = lazyChunk(() => import('./filter-sheet.tsx'));
/** what "More filters" holds (more-filters.tsx): its own chunk, loaded when first opened */
const loadMore = lazyChunk(() => import('./more-filters.tsx'));
/** below this width (the container's md) the other filters open in the sheet */
const SHEET_BELOW = 768;
/**
 * A viewport below that width: the element in it is narrower still, so the bar's fields after the
 * type would be hidden by its container query; they are not rendered at all (nearly half of the
 * bar's JavaScript at load on a phone, docs/benchmarks.md "Measured apart"), and the sheet renders its own.
 */
const PHONE = `(max-width: ${SHEET_BELOW - 0.02}px)`;

/** The filter bar's controls, as the filter table places them (core/protocol/filters.ts). */
const IN_BAR = FILTERS.filter((f) => f.control?.in === 'bar' && f.kind === 'number') as Array<
  FilterSpec & { key: NumberFilter }
>;
/** the filters "More filters" holds, counted on its button when set */
const MORE = FILTERS.filter((f) => f.control?.in === 'more').map((f) => f.key);

const NUMBERS = NUMBER_FILTERS;
type NumberKey = NumberFilter;

export type Draft = {
  propertyType: string;
  keywords: string;
  location: LocationValue;
  features: Partial<Record<FeatureFlag, boolean>>;
  flags: Partial<Record<FlagFilter, boolean>>;
  choices: Partial<Record<ChoiceFilter, string>>;
} & Record<NumberKey, string>;

const toDraft = (f: SearchFilters): Draft => ({
  propertyType: f.propertyType ?? '',
  keywords: f.keywords ?? '',
  location: f.place ? { text: f.placeName || f.place, place: f.place, placeName: f.placeName } : { text: f.city ?? '' },
  features: { ...f.features },
  flags: Object.fromEntries(FLAG_FILTERS.map((k) => [k, f[k] === true])),
  choices: Object.fromEntries(CHOICE_FILTERS.map((k) => [k, f[k] ?? ''])),
  ...(Object.fromEntries(NUMBERS.map((k) => [k, f[k] ? String(f[k]) : ''])) as Record<NumberKey, string>),
});

/** The draft as filters over what applies now (the agent, the map's area stay). */
function fromDraft(draft: Draft, applied: SearchFilters): SearchFilters {
  const next: SearchFilters = { ...applied };
  const type = draft.propertyType.trim();
  if (type) next.propertyType = type;
  else delete next.propertyType;
  const words = cleanKeywords(draft.keywords);
  if (words) next.keywords = words;
  else delete next.keywords;
  delete next.city;
  delete next.place;
  delete next.placeName;
  if (draft.location.place) Object.assign(next, { place: draft.location.place, placeName: draft.location.placeName });
  else if (draft.location.text.trim()) next.city = draft.location.text.trim();
  for (const key of NUMBERS) {
    const v = draft[key] && Number.isFinite(Number(draft[key])) ? Number(draft[key]) : undefined;
    // a new development's delivery goes with new developments
    if (v && v > 0 && shownFor(key, next.operation)) next[key] = v;
    else delete next[key];
  }
  const features = FEATURE_FLAGS.filter((f) => draft.features[f]);
  if (features.length) next.features = Object.fromEntries(features.map((f) => [f, true]));
  else delete next.features;
  for (const key of CHOICE_FILTERS) {
    const v = draft.choices[key];
    if (v && shownFor(key, next.operation)) next[key] = v as NonNullable<SearchFilters[typeof key]>;
    else delete next[key];
  }
  for (const key of FLAG_FILTERS) {
    // a rentals-only filter (pets) goes with the rent
    if (draft.flags[key] && shownFor(key, next.operation)) next[key] = true;
    else delete next[key];
  }
  return next;
}

export interface FilterBarProps {
  applied: SearchFilters;
  propertyTypes: string[];
  onSubmit: (next: SearchFilters) => void;
  rest: PostgrestClient;
  onOpenListing: (id: string) => void;
}

export function FilterBar({ applied, propertyTypes, onSubmit, rest, onOpenListing }: FilterBarProps) {
  useStyles(selectCss);
  const { t } = useElement();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => toDraft(applied));
  const [expanded, setExpanded] = useState(false);
  const [sheet, setSheet] = useState<{ Component: typeof Sheet; open: boolean } | null>(null);
  const [MoreFields, setMoreFields] = useState<typeof More | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const phone = useMediaQuery(PHONE);
  // a new applied search (a chip removed, the address changed) becomes the draft: adjusted while
  // rendering, as React advises, not in an effect that drew the bar twice at every start
  const [drafted, setDrafted] = useState(applied);
  if (drafted !== applied) {
    setDrafted(applied);
    setDraft(toDraft(applied));
  }
  const withMore = () => loadMore().then(({ MoreFields: loaded }) => setMoreFields(() => loaded));
  const openMore = () => {
    const narrow = (form.current?.clientWidth ?? SHEET_BELOW) < SHEET_BELOW;
    if (!narrow) {
      withMore()
        .catch((error: unknown) => console.error('[exp] the other filters did not load:', error))
        .finally(() => setExpanded((x) => !x));
      return;
    }
    Promise.all([loadSheet(), withMore()])
      .then(([{ FilterSheet }]) => setSheet({ Component: FilterSheet, open: true }))
      .catch((error: unknown) => {
        // without the sheet, the panel under the bar
        console.error('[exp] the filter sheet did not load:', error);
        setExpanded(true);
      });
  };
  const closeSheet = () => setSheet((x) => (x ? { ...x, open: false } : x));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(fromDraft(draft, applied));
  };
  // the other filters set: shown on the "More filters" button
  const more = MORE.reduce(
    (n, key) =>
      n + (key === 'features' ? FEATURE_FLAGS.filter((f) => applied.features?.[f]).length : applied[key] ? 1 : 0),
    0,
  );
  // Buy or Rent: the search again at once, without the other operation's prices
  const setOperation = (operation: Operation) => {
    if ((applied.operation ?? 'sale') === operation) return;
    const base: SearchFilters = { ...applied, operation };
    if (operation === 'sale') delete base.operation;
    const next = fromDraft(draft, base);
    delete next.minPrice;
    delete next.maxPrice;
    onSubmit(next);
  };

  const options = (values: readonly number[], label: (n: number) => string, current: string) => {
    const list = values.map((v) => ({ value: String(v), label: label(v) }));
    // a value from a shared link that is not one of ours still shows
    if (current && !list.some((o) => o.value === current))
      list.unshift({ value: current, label: label(Number(current)) });
    return [{ value: '', label: t('search.filters.any') }, ...list];
  };
  const types = [...propertyTypes];
  if (draft.propertyType && !types.some((x) => x.toLowerCase() === draft.propertyType.toLowerCase()))
    types.unshift(draft.propertyType);

  // a field's own classes beside SelectField's (a column that may shrink)
  const fieldClass = 'min-w-0';
  const labelClass = 'text-xs font-semibold uppercase tracking-wide text-ink-muted';
  const control =
    'w-full h-11 rounded-md border border-line bg-surface px-3 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';
  const select = `${control} exp-select pr-8 cursor-pointer`;
  const extra = expanded ? 'flex' : 'hidden cq-md:flex';

  const selectField = (
    key: 'propertyType' | NumberKey,
    label: string,
    opts: SelectOption[],
    className = fieldClass,
    prefix = id,
  ) => (
    <SelectField
      id={`${prefix}-${key}`}
      name={key}
      label={label}
      value={draft[key]}
      options={opts}
      onChange={(value) => setDraft((d) => ({ ...d, [key]: value }))}
      className={className}
      labelClassName={labelClass}
      selectClassName={select}
    />
  );

  // the filters after the type: in the bar when there is room, in the sheet on a phone
  const secondary = (className: string, prefix: string) => (
    <>
      {IN_BAR.map((spec) => (
        <Fragment key={spec.key}>
          {selectField(
            spec.key,
            t(`search.filters.${spec.control?.label}`),
            options(
              controlOptions(spec.control, applied.operation),
              (n) => spec.control?.option?.(n, t) ?? String(n),
              draft[spec.key],
            ),
            className,
            prefix,
          )}
        </Fragment>
      ))}
    </>
  );
  const moreProps = (prefix: string) => ({
    prefix,
    draft,
    setDraft,
    operation: applied.operation,
    selectField,
    options,
    fieldClass,
    labelClass,
    control,
  });
  return (
    <>
      <form
        ref={form}
        role="search"
        aria-label={t('search.filters.heading')}
        onSubmit={submit}
        part="filters"
        className="rounded-brand border border-line bg-surface p-3 cq-md:p-4 shadow-sm"
      >
        {/* Buy, Rent or New homes, first (docs/product.md "Rent and buy"): a change searches at once; the width of a phone shared by the three */}
        <div
          role="radiogroup"
          aria-label={t('search.filters.operation')}
          part="operation"
          className="mb-3 flex cq-md:inline-flex rounded-md border border-line p-0.5"
        >
          {OPERATIONS.map((op) => (
            <label
              key={op}
              htmlFor={`${id}-${op}`}
              className={`relative flex-auto cq-md:flex-none text-center rounded px-2 cq-md:px-4 py-1.5 text-sm cq-md:text-[15px] leading-6 font-semibold cursor-pointer focus-within:ring-2 focus-within:ring-primary ${(applied.operation ?? 'sale') === op ? 'bg-primary text-primary-contrast' : 'text-ink'}`}
            >
              <input
                id={`${id}-${op}`}
                type="radio"
                name="operation"
                value={op}
                checked={(applied.operation ?? 'sale') === op}
                onChange={() => setOperation(op)}
                className="sr-only"
              />
              {t(`search.filters.${op}`)}
            </label>
          ))}
        </div>
        <div className="grid grid-cols-2 cq-md:grid-cols-4 cq-xl:grid-cols-[repeat(7,minmax(0,1fr))_auto] gap-3 items-end">
          <LocationBox
            rest={rest}
            value={draft.location}
            onChange={(location) => setDraft((d) => ({ ...d, location }))}
            onPick={(location) => onSubmit(fromDraft({ ...draft, location }, applied))}
            onOpenListing={onOpenListing}
            label={t('placeBox.label')}
            labelClass={labelClass}
            controlClass={control}
          />
          {selectField('propertyType', t('search.filters.propertyType'), [
            { value: '', label: t('search.filters.any') },
            ...types.map((x) => ({ value: x, label: typeLabel(x, t) })),
          ])}
          {phone && !expanded ? null : secondary(`${fieldClass} ${extra}`, id)}
          <div className="col-span-2 cq-md:col-span-1 flex gap-2">
            <button
              type="button"
              onClick={openMore}
              aria-expanded={expanded}
              aria-controls={`${id}-more`}
              part="more-filters"
              className="h-11 flex-1 cq-md:flex-none inline-flex items-center justify-center gap-2 rounded-md border border-line bg-surface px-3 text-[15px] font-medium text-ink cursor-pointer"
            >
              <FilterIcon size={18} />
              <span className="cq-md:sr-only whitespace-nowrap">
                {expanded ? t('search.filters.fewer') : t('search.filters.more')}
              </span>
              {more ? (
                <span className="rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-contrast">
                  {more}
                </span>
              ) : null}
            </button>
            <button
              type="submit"
              part="search-button"
              className="h-11 flex-1 inline-flex items-center justify-center gap-2 rounded-md bg-primary px-5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover"
            >
              <SearchIcon size={18} />
              {t('search.filters.search')}
            </button>
          </div>
        </div>
        <div id={`${id}-more`} hidden={!expanded} part="more" className="mt-3 border-t border-line pt-3">
          {MoreFields ? <MoreFields {...moreProps(id)} /> : null}
        </div>
      </form>
      {sheet ? (
        <sheet.Component
          open={sheet.open}
          onClose={closeSheet}
          rest={rest}
          filters={fromDraft(draft, applied)}
          onApply={() => {
            closeSheet();
            onSubmit(fromDraft(draft, applied));
          }}
          onClear={() =>
            setDraft((d) => ({
              ...d,
              keywords: '',
              features: {},
              flags: {},
              choices: {},
              ...Object.fromEntries(NUMBERS.map((k) => [k, ''])),
            }))
          }
        >
          <div className="grid grid-cols-2 gap-3 items-end">{secondary(fieldClass, `${id}-sheet`)}</div>
          {MoreFields ? <MoreFields {...moreProps(`${id}-sheet`)} /> : null}
        </sheet.Component>
      ) : null}
    </>
  );
}
