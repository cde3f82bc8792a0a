/**
 * The location box (docs/decisions.md #26): one field for a province, a city, a sector, an address
 * or a listing's code, with suggestions from the second letter (public.place_suggestions). A
 * WAI-ARIA combobox with a listbox popup: the focus stays in the field, arrows move the active
 * option (aria-activedescendant), Enter picks it, Escape closes the list (and clears the text when
 * it is closed), Tab leaves. Picking a place searches that place; picking a listing opens it; text
 * that matches no suggestion searches the city, the sector and the address.
 * Requests wait until typing pauses, the older one is cancelled, and an older answer never replaces
 * a newer one.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { getPlaceSuggestions, type PlaceSuggestion } from '../data/places.ts';
import { useElement } from '../element.tsx';
import { formatCount } from '../../../core/protocol/format.ts';
import type { PostgrestClient } from '@supabase/postgrest-js';

const WAIT_MS = 150;

/** What the field holds: free text, or the place picked from a suggestion. */
export interface LocationValue {
  text: string;
  place?: string;
  placeName?: string;
}

export interface LocationBoxProps {
  rest: PostgrestClient;
  value: LocationValue;
  onChange: (value: LocationValue) => void;
  /** a place was picked: search it now */
  onPick: (value: LocationValue, suggestion: PlaceSuggestion) => void;
  /** a listing was picked (by its code or its street): open it (or take its place, as the valuation does) */
  onOpenListing: (id: string, suggestion: PlaceSuggestion) => void;
  label: string;
  labelClass: string;
  controlClass: string;
}

/** A place's words as the field and the hero show them: 'Iñaquito, Quito', 'Pichincha'. */
export const placeLabel = (s: Pick<PlaceSuggestion, 'kind' | 'name' | 'city'>): string =>
  s.kind === 'sector' && s.city ? `${s.name}, ${s.city}` : s.name;

export function LocationBox({
  rest,
  value,
  onChange,
  onPick,
  onOpenListing,
  label,
  labelClass,
  controlClass,
}: LocationBoxProps) {
  const { t } = useElement();
  const id = useId();
  const listId = `${id}-list`;
  const [items, setItems] = useState<PlaceSuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState('');
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const abort = useRef<AbortController | undefined>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      abort.current?.abort();
    },
    [],
  );

  const ask = (text: string) => {
    clearTimeout(timer.current);
    abort.current?.abort();
    const query = text.trim();
    const n = ++asked.current;
    if (query.length < 2) {
      setItems([]);
      setOpen(false);
      setActive(-1);
      return;
    }
    timer.current = setTimeout(() => {
      const controller = new AbortController();
      abort.current = controller;
      getPlaceSuggestions(rest, query, controller.signal)
        .then((list) => {
          // an older answer never replaces a newer one
          if (n !== asked.current) return;
          setItems(list);
          setOpen(true);
          setActive(-1);
          setStatus(list.length ? t('placeBox.count', { count: list.length }) : t('placeBox.none', { text: query }));
        })
        .catch((error: unknown) => {
          if (n !== asked.current || controller.signal.aborted) return;
          // suggestions are a help: the field still searches what was typed
          console.error('[exp-property-search] suggestions:', error);
          setItems([]);
          setOpen(false);
        });
    }, WAIT_MS);
  };

  const pick = (s: PlaceSuggestion) => {
    asked.current++;
    clearTimeout(timer.current);
    abort.current?.abort();
    setOpen(false);
    setActive(-1);
    if (s.kind === 'listing') {
      onOpenListing(s.path, s);
      return;
    }
    const next = { text: placeLabel(s), place: s.path, placeName: placeLabel(s) };
    onChange(next);
    onPick(next, s);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!open) {
        if (items.length) setOpen(true);
        else ask(value.text);
        e.preventDefault();
        return;
      }
      e.preventDefault();
      const n = items.length;
      if (!n) return;
      setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : i <= 0 ? n - 1 : i - 1));
    } else if (e.key === 'Enter') {
      const chosen = open ? items[active] : undefined;
      if (chosen) {
        e.preventDefault();
        pick(chosen);
      } else setOpen(false);
    } else if (e.key === 'Escape') {
      // what was asked before Escape must not open the list again
      asked.current++;
      clearTimeout(timer.current);
      abort.current?.abort();
      if (open) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        setActive(-1);
      } else if (value.text) {
        e.preventDefault();
        onChange({ text: '' });
      }
    } else if (e.key === 'Tab') setOpen(false);
  };

  const expanded = open && items.length > 0;
  const option = (i: number) => `${id}-option-${i}`;
  return (
    <div className="flex flex-col gap-1 min-w-0 relative col-span-2 cq-md:col-span-1">
      <label htmlFor={`${id}-input`} className={labelClass}>
        {label}
      </label>
      <input
        id={`${id}-input`}
        name="city"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? option(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        value={value.text}
        placeholder={t('placeBox.placeholder')}
        className={controlClass}
        part="location"
        onChange={(e) => {
          // typing again leaves the picked place: the text is searched as typed
          onChange({ text: e.target.value });
          ask(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          // leaving the field ends its suggestions: a late answer must not open the list again
          asked.current++;
          clearTimeout(timer.current);
          abort.current?.abort();
          setOpen(false);
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t('placeBox.suggestions')}
        hidden={!expanded}
        part="suggestions"
        className="absolute left-0 right-0 cq-md:right-auto cq-md:w-[384px] top-full z-30 mt-1 max-h-[352px] overflow-auto list-none m-0 p-1 rounded-md border border-line bg-surface shadow-lg"
      >
        {items.map((s, i) => (
          <li
            key={`${s.kind}:${s.path}`}
            id={option(i)}
            role="option"
            aria-selected={i === active}
            // the field keeps the focus: a click picks without blurring it first
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(s)}
            onMouseMove={() => active !== i && setActive(i)}
            className={`flex items-baseline justify-between gap-3 rounded px-3 py-2 cursor-pointer text-[15px] text-ink ${i === active ? 'bg-surface-subtle' : ''}`}
          >
            <span className="min-w-0">
              <span className="block font-medium break-words">
                {s.kind === 'listing' ? s.name || t('listing.defaultTitle') : s.name}
              </span>
              <span className="block text-xs text-ink-muted break-words">
                {[
                  t(`placeBox.kinds.${s.kind}`),
                  s.kind === 'sector' || s.kind === 'listing' ? s.city : null,
                  s.kind === 'province' || s.kind === 'listing' ? null : s.province,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </span>
            {s.kind === 'listing' ? (
              <span className="shrink-0 text-xs text-ink-muted">#{s.path}</span>
            ) : (
              <span className="shrink-0 text-xs text-ink-muted">
                {t('placeBox.listings', { count: s.listings, formatted: formatCount(s.listings) })}
              </span>
            )}
          </li>
        ))}
      </ul>
      <span role="status" className="sr-only">
        {status}
      </span>
    </div>
  );
}
