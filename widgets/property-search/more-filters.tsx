/**
 * What "More filters" holds (docs/product.md §3, "Rent and buy"): keywords, year built, lot size,
 * the alícuota and parking (selects), features, and the yes-or-no filters (storage, furnished, pets
 * for rentals, an open house this week), in the panel under the bar or in the phone's sheet. Its
 * own chunk, loaded when "More filters" is first opened: a visitor who never opens it never loads it.
 */
import texts from 'virtual:exp-texts/lazy/property-search/more-filters';
import { Fragment, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import {
  CHOICE_FILTERS,
  controlOptions,
  FEATURE_FLAGS,
  FILTER,
  FILTERS,
  FLAG_FILTERS,
  KEYWORDS_MAX,
  shownFor,
  type FilterSpec,
  type NumberFilter,
  type Operation,
} from '../../core/protocol/filters.ts';
import { useElement } from '../lib/element.tsx';
import { addTexts } from '../lib/i18n.ts';
import type { Draft } from './filter-bar.tsx';
import { FormField } from '../lib/ui/form-field.tsx';
import { SelectField } from '../lib/ui/select-field.tsx';
import type { SelectOption } from '../lib/ui/options.tsx';

/** the number filters behind "More filters", as the filter table places them */
const IN_MORE = FILTERS.filter((f) => f.control?.in === 'more' && f.kind === 'number') as Array<
  FilterSpec & { key: NumberFilter }
>;

await addTexts(texts);

export interface MoreFieldsProps {
  prefix: string;
  draft: Draft;
  setDraft: Dispatch<SetStateAction<Draft>>;
  /** the search's operation: the rentals' and the new developments' own filters show with theirs */
  operation: Operation | undefined;
  /** the bar's select field and its options (filter-bar.tsx) */
  selectField: (key: NumberFilter, label: string, opts: SelectOption[], className: string, prefix: string) => ReactNode;
  options: (values: readonly number[], label: (n: number) => string, current: string) => SelectOption[];
  /** the bar's classes: a field's own beside FormField's, its label's, its control's */
  fieldClass: string;
  labelClass: string;
  control: string;
}

export function MoreFields({
  prefix,
  draft,
  setDraft,
  operation,
  selectField,
  options,
  fieldClass,
  labelClass,
  control,
}: MoreFieldsProps) {
  const { t } = useElement();
  const set = (key: 'keywords' | NumberFilter) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  return (
    <>
      <div className="grid grid-cols-2 cq-md:grid-cols-4 gap-3 items-end">
        <FormField
          controlId={`${prefix}-keywords`}
          label={t(`moreFilters.${FILTER.keywords.control?.label}`)}
          className={`${fieldClass} col-span-2`}
          labelClassName={labelClass}
        >
          <input
            id={`${prefix}-keywords`}
            name="keywords"
            type="search"
            maxLength={KEYWORDS_MAX}
            enterKeyHint="search"
            autoComplete="off"
            placeholder={t('moreFilters.keywordsPlaceholder')}
            aria-describedby={`${prefix}-keywords-hint`}
            value={draft.keywords}
            onChange={set('keywords')}
            className={control}
            part="keywords"
          />
          <span id={`${prefix}-keywords-hint`} className="text-xs text-ink-muted">
            {t('moreFilters.keywordsHint')}
          </span>
        </FormField>
        {IN_MORE.filter(({ key }) => shownFor(key, operation)).map(({ key, control: field, min, max }) =>
          controlOptions(field, operation).length ? (
            <Fragment key={key}>
              {selectField(
                key,
                t(`moreFilters.${field?.label}`),
                options(controlOptions(field, operation), (n) => field?.option?.(n, t) ?? String(n), draft[key]),
                fieldClass,
                prefix,
              )}
            </Fragment>
          ) : (
            <FormField
              key={key}
              controlId={`${prefix}-${key}`}
              label={t(`moreFilters.${field?.label}`)}
              className={fieldClass}
              labelClassName={labelClass}
            >
              <input
                id={`${prefix}-${key}`}
                name={key}
                type="number"
                inputMode="numeric"
                min={min ?? 0}
                max={max}
                value={draft[key]}
                onChange={set(key)}
                className={control}
              />
            </FormField>
          ),
        )}
        {/* a new development's stage: a select of its values */}
        {CHOICE_FILTERS.filter((key) => shownFor(key, operation)).map((key) => {
          const field = FILTER[key];
          return (
            <SelectField
              key={key}
              id={`${prefix}-${key}`}
              name={key}
              label={t(`moreFilters.${field.control?.label}`)}
              value={draft.choices[key] ?? ''}
              onChange={(v) => setDraft((d) => ({ ...d, choices: { ...d.choices, [key]: v } }))}
              className={fieldClass}
              labelClassName={labelClass}
              selectClassName={`${control} exp-select pr-8 cursor-pointer`}
              options={[
                { value: '', label: t('search.filters.any') },
                ...(field.choices ?? []).map((v) => ({
                  value: v,
                  label: t(`moreFilters.${field.control?.label}Choices.${v}`),
                })),
              ]}
            />
          );
        })}
      </div>
      <fieldset className="m-0 mt-3 p-0 border-0 min-w-0">
        <legend className={`${labelClass} mb-2`}>{t(`moreFilters.${FILTER.features.control?.label}`)}</legend>
        <div className="flex flex-wrap gap-2">
          {FEATURE_FLAGS.map((flag) => (
            <Check
              key={flag}
              id={`${prefix}-${flag}`}
              name={flag}
              checked={draft.features[flag] === true}
              onChange={(on) => setDraft((d) => ({ ...d, features: { ...d.features, [flag]: on } }))}
            >
              {t(`search.filters.feature.${flag}`)}
            </Check>
          ))}
        </div>
      </fieldset>
      {/* storage, furnished, pets (rentals) and open houses of the next seven days (docs/visits.md) */}
      <div className="mt-3 flex flex-wrap gap-2">
        {FLAG_FILTERS.filter((key) => shownFor(key, operation)).map((key) => (
          <Check
            key={key}
            id={`${prefix}-${key}`}
            name={key}
            checked={draft.flags[key] === true}
            onChange={(on) => setDraft((d) => ({ ...d, flags: { ...d.flags, [key]: on } }))}
          >
            {t(`moreFilters.${FILTER[key].control?.label}`)}
          </Check>
        ))}
      </div>
    </>
  );
}

/** A yes-or-no filter: a checkbox in a pill, its label its name. */
function Check({
  id,
  name,
  checked,
  onChange,
  children,
}: {
  id: string;
  name: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label
      htmlFor={id}
      className="inline-flex items-center gap-2 rounded-full border border-line px-3 py-2 text-sm text-ink cursor-pointer"
    >
      <input
        id={id}
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="m-0"
      />
      {children}
    </label>
  );
}
