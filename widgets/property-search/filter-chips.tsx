/**
 * The filters that apply, as chips under the filter bar: each names one filter in words and
 * removes it when pressed ("Pool ×"), and "Clear all" removes every one the visitor set (an
 * embed's agent scope stays). Shown only when something is set: its own chunk (property-search.tsx
 * loads it once a search has a filter of the visitor's).
 */
import texts from 'virtual:exp-texts/lazy/property-search/filter-chips';
import { addTexts } from '../lib/i18n.ts';
import { appliedFilters, type SearchFilters } from '../../core/protocol/filters.ts';
import { filterPhrases } from '../../core/protocol/filter-words.ts';
import { useElement } from '../lib/element.tsx';

await addTexts(texts);

interface Chip {
  key: string;
  label: string;
  without: (f: SearchFilters) => SearchFilters;
}

/** The filters without one (a place goes with its name), or without one feature. */
const without =
  (key: keyof SearchFilters, flag?: string) =>
  (f: SearchFilters): SearchFilters => {
    const next = { ...f };
    if (flag) next.features = { ...f.features, [flag]: false };
    else {
      delete next[key];
      if (key === 'place') delete next.placeName;
    }
    return next;
  };

export function FilterChips({
  applied,
  onSubmit,
}: {
  applied: SearchFilters;
  onSubmit: (next: SearchFilters) => void;
}) {
  const { t } = useElement();
  // each applied filter as the filter table says it in a chip (core/protocol/filters.ts), but the
  // embed's agent scope, which is no filter of the visitor's
  const chips: Chip[] = filterPhrases(appliedFilters(applied), t, 'chip')
    .filter((p) => p.key !== 'agentId')
    .map((p) => ({ key: p.flag ?? p.key, label: p.text, without: without(p.key, p.flag) }));
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
      <button
        type="button"
        part="clear-filters"
        onClick={() => onSubmit(all)}
        className="px-2 py-1.5 text-sm font-semibold text-primary underline-offset-2 hover:underline cursor-pointer bg-transparent border-0"
      >
        {t('search.chips.clearAll')}
      </button>
    </div>
  );
}
