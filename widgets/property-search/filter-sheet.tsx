/**
 * The filters on a phone (docs/decisions.md #27): a full-screen sheet (a native modal dialog, in the
 * top layer whatever the host page) with every filter of the bar, and a button that says how many
 * properties the filters being set would show, counted live as they change (debounced; an older
 * count never replaces a newer one). Its own chunk, with its own English texts: a visitor who never
 * opens it never loads it.
 */
import texts from 'virtual:exp-texts/lazy/property-search/filter-sheet';
import type { PostgrestClient } from '@supabase/postgrest-js';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { formatCount } from '../../core/protocol/format.ts';
import { getListingsCount, searchArgs, type SearchFilters } from '../lib/data/listings.ts';
import { useElement } from '../lib/element.tsx';
import { addTexts } from '../lib/i18n.ts';
import { Dialog, DialogClose } from '../lib/ui/dialog.tsx';

await addTexts(texts);

const COUNT_DELAY_MS = 300;

export interface FilterSheetProps {
  open: boolean;
  onClose: () => void;
  /** the filters as the sheet's fields set them now */
  filters: SearchFilters;
  rest: PostgrestClient;
  onApply: () => void;
  onClear: () => void;
  children: ReactNode;
}

export function FilterSheet({ open, onClose, filters, rest, onApply, onClear, children }: FilterSheetProps) {
  const { t } = useElement();
  const id = useId();
  const [count, setCount] = useState<number | null>(null);
  const key = JSON.stringify(searchArgs(filters, 'featured', 1).filters);
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setCount(null);
    const timer = setTimeout(() => {
      getListingsCount(rest, filters, controller.signal)
        .then((n) => {
          if (!controller.signal.aborted) setCount(n);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) console.warn('[exp] the count of the filters did not load:', error);
        });
    }, COUNT_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // the filters by their key: a new object with the same filters asks nothing again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, key, rest]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply();
  };
  return (
    <Dialog open={open} onClose={onClose} labelledBy={`${id}-title`} variant="sheet" part="filter-sheet">
      <form onSubmit={submit} className="flex flex-col h-full min-h-0" role="search" aria-labelledby={`${id}-title`}>
        <div className="flex items-center justify-between gap-2 border-b border-line px-4 py-2">
          <h2 id={`${id}-title`} className="m-0 text-lg font-bold text-ink">
            {t('search.sheet.title')}
          </h2>
          <DialogClose onClose={onClose} />
        </div>
        <div className="flex-1 min-h-0 overflow-y-auto overscroll-contain px-4 py-4 flex flex-col gap-4">
          {children}
        </div>
        <div className="flex items-center gap-3 border-t border-line px-4 py-3">
          <button
            type="button"
            onClick={onClear}
            className="h-12 px-3 rounded-md border-0 bg-transparent text-[15px] font-semibold text-primary underline-offset-2 hover:underline cursor-pointer"
          >
            {t('search.chips.clearAll')}
          </button>
          <button
            type="submit"
            part="sheet-apply"
            aria-live="polite"
            className="h-12 flex-1 rounded-md bg-primary px-4 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover"
          >
            {count === null
              ? t('search.sheet.show')
              : t('search.sheet.showCount', {
                  count,
                  formatted: formatCount(count),
                  context: filters.operation === 'project' ? 'project' : undefined,
                })}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
