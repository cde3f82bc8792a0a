import { signal, type Signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useLayoutEffect, useRef } from 'react';

/** A message: a translation key with its values (translated when drawn, so it follows `lang`). */
export interface Message {
  key: string;
  params?: Record<string, unknown>;
}

export interface ToastInput {
  title: Message;
  description?: Message;
  variant?: 'default' | 'destructive';
  /** ms on screen; destructive toasts stay longer */
  duration?: number;
  /** what it is about, for a later toast that `replaces` it */
  topic?: string;
  /** the topics of the toasts on screen that this one takes the place of (they said less, or wrongly) */
  replaces?: string[];
}

export interface Toast extends ToastInput {
  id: number;
}

export interface Toaster {
  toasts: Signal<Toast[]>;
  show(input: ToastInput): number;
  dismiss(id: number): void;
  /** what screen readers are told without a toast on screen (a listing saved) */
  announcement: Signal<Message | null>;
  announce(message: Message): void;
}

let nextId = 1;

/** One toast list per element instance; the element renders it in its own shadow root. */
export function createToaster(limit = 3): Toaster {
  const toasts = signal<Toast[]>([]);
  const announcement = signal<Message | null>(null);
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const dismiss = (id: number) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
    toasts.value = toasts.value.filter((t) => t.id !== id);
  };
  return {
    toasts,
    dismiss,
    announcement,
    announce(message) {
      // a new object each time: the same words twice are read twice
      announcement.value = { ...message };
    },
    show(input) {
      const id = nextId++;
      const toast: Toast = { ...input, id };
      for (const old of toasts.value) if (old.topic && input.replaces?.includes(old.topic)) dismiss(old.id);
      const kept = toasts.value.slice(-(limit - 1));
      for (const old of toasts.value) if (!kept.includes(old)) dismiss(old.id);
      toasts.value = [...kept, toast];
      timers.set(
        id,
        setTimeout(() => dismiss(id), input.duration ?? (input.variant === 'destructive' ? 8000 : 4000)),
      );
      return id;
    },
  };
}

const popoverSupported = typeof HTMLElement !== 'undefined' && 'showPopover' in HTMLElement.prototype;

/**
 * The toasts of one element. A manual popover: in the top layer, so a toast shows above an open
 * modal dialog (an inquiry error must be seen) and above any stacking context of the host page.
 */
export function ToastRegion({
  toaster,
  t,
}: {
  toaster: Toaster;
  t: (key: string, params?: Record<string, unknown>) => string;
}) {
  useSignals();
  const list = toaster.toasts.value;
  const ref = useRef<HTMLDivElement>(null);
  const newest = list[list.length - 1]?.id;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !popoverSupported || !el.isConnected) return;
    const open = el.matches(':popover-open');
    if (open) el.hidePopover();
    // shown again for each new toast: the most recent top-layer entry is drawn on top
    if (list.length) el.showPopover();
  }, [newest, list.length]);
  const said = toaster.announcement.value;
  return (
    <>
      {/* outside the popover, which is hidden (and so silent) while no toast shows */}
      <p className="exp-sr-only" role="status" aria-live="polite">
        {said ? t(said.key, said.params) : ''}
      </p>
      <div
        ref={ref}
        popover={popoverSupported ? 'manual' : undefined}
        className="exp-toasts flex flex-col gap-2 items-stretch sm:items-end pointer-events-none"
        part="toasts"
      >
        {list.map((toast) => (
          <div
            key={toast.id}
            role={toast.variant === 'destructive' ? 'alert' : 'status'}
            aria-live={toast.variant === 'destructive' ? 'assertive' : 'polite'}
            part={toast.variant === 'destructive' ? 'toast toast-destructive' : 'toast'}
            className={`pointer-events-auto w-full sm:w-[360px] rounded-brand shadow-lg border px-4 py-3 flex gap-3 items-start ${
              toast.variant === 'destructive' ? 'bg-danger text-white border-danger' : 'bg-surface text-ink border-line'
            }`}
          >
            <div className="flex-1 min-w-0">
              <p className="font-semibold text-sm m-0">{t(toast.title.key, toast.title.params)}</p>
              {toast.description ? (
                <p className="text-sm m-0 mt-1 opacity-90">{t(toast.description.key, toast.description.params)}</p>
              ) : null}
            </div>
            <button
              type="button"
              className="shrink-0 -mr-1 -mt-1 w-8 h-8 rounded-full flex items-center justify-center bg-transparent text-current cursor-pointer hover:bg-black/10"
              aria-label={t('common.close')}
              onClick={() => toaster.dismiss(toast.id)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
    </>
  );
}
