/**
 * The search's "Get alerts" button (docs/decisions.md #23), and a market report's "Follow this
 * market" (docs/market.md): the caller gives its words and what is followed. The form
 * (alert-dialog.tsx) is its own chunk, a part the button opens (lazy-part.ts).
 */
import { useState } from 'react';
import type { SearchFilters } from '../../../core/protocol/filters.ts';
import type { MarketFollow } from '../../../core/protocol/alerts.ts';
import { lazyChunk } from '../lazy-chunk.ts';
import { useLazyPart } from '../lazy-part.ts';
import { BellIcon } from '../ui/icons/bell.tsx';

const load = lazyChunk(() => import('./alert-dialog.tsx'));

export interface AlertButtonProps {
  /** what is followed: a search's filters, or a place's market report */
  filters?: SearchFilters;
  market?: MarketFollow;
  /** the button's text and its accessible name */
  text: string;
  label: string;
  part: string;
}

export function AlertButton({ filters, market, text, label, part }: AlertButtonProps) {
  const dialog = useLazyPart(load, 'the alert form');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        {...dialog.preloadOn}
        onClick={() => dialog.open(() => setOpen(true))}
        aria-label={label}
        aria-haspopup="dialog"
        part={part}
        className="inline-flex items-center gap-1.5 h-10 rounded-md border border-line bg-surface px-3 text-sm font-semibold text-primary cursor-pointer hover:bg-surface-subtle"
      >
        <BellIcon size={18} />
        {text}
      </button>
      {dialog.module ? (
        <dialog.module.AlertDialog open={open} filters={filters ?? {}} market={market} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
