/**
 * The search's "Get alerts" button (docs/decisions.md #23), and a market report's "Follow this
 * market" (docs/market.md): the caller gives its words and what is followed. The form (alert-dialog.tsx) is its own
 * chunk, downloaded when the button is pointed at, focused or touched, else on the click; a
 * failed download says so and is tried again (under a new URL) on the next click.
 */
import { useState } from 'react';
import type { SearchFilters } from '../../../core/protocol/filters.ts';
import type { MarketFollow } from '../../../core/protocol/alerts.ts';
import { useElement } from '../element.tsx';
import { lazyChunk } from '../lazy-chunk.ts';
import { BellIcon } from '../ui/icons/bell.tsx';
import type * as Dialog from './alert-dialog.tsx';

type DialogModule = typeof Dialog;

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
  const { toaster } = useElement();
  const [dialog, setDialog] = useState<DialogModule | null>(null);
  const [open, setOpen] = useState(false);
  const preload = () => void load().catch(() => {});
  return (
    <>
      <button
        type="button"
        onPointerEnter={preload}
        onFocus={preload}
        onTouchStart={preload}
        onClick={() => {
          load().then(
            (m) => {
              setDialog(() => m);
              setOpen(true);
            },
            (error: unknown) => {
              console.error('[exp] the alert form did not load:', error);
              toaster.show({
                title: { key: 'common.error' },
                description: { key: 'errors.unexpected' },
                variant: 'destructive',
              });
            },
          );
        }}
        aria-label={label}
        aria-haspopup="dialog"
        part={part}
        className="inline-flex items-center gap-1.5 h-10 rounded-md border border-line bg-surface px-3 text-sm font-semibold text-primary cursor-pointer hover:bg-surface-subtle"
      >
        <BellIcon size={18} />
        {text}
      </button>
      {dialog ? (
        <dialog.AlertDialog open={open} filters={filters ?? {}} market={market} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
