import { signal, type Signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** ms on screen; destructive toasts stay longer */
  duration?: number;
}

export interface Toast extends ToastInput {
  id: number;
}

export interface Toaster {
  toasts: Signal<Toast[]>;
  show(input: ToastInput): number;
  dismiss(id: number): void;
}

let nextId = 1;

/** One toast list per element instance; the element renders it in its own shadow root. */
export function createToaster(limit = 3): Toaster {
  const toasts = signal<Toast[]>([]);
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const dismiss = (id: number) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
    toasts.value = toasts.value.filter((t) => t.id !== id);
  };
  return {
    toasts,
    dismiss,
    show(input) {
      const id = nextId++;
      const toast: Toast = { ...input, id };
      const kept = toasts.value.slice(-(limit - 1));
      for (const old of toasts.value) if (!kept.includes(old)) dismiss(old.id);
      toasts.value = [...kept, toast];
      timers.set(id, setTimeout(() => dismiss(id), input.duration ?? (input.variant === 'destructive' ? 8000 : 4000)));
      return id;
    },
  };
}

export function ToastRegion({ toaster, closeLabel }: { toaster: Toaster; closeLabel: string }) {
  useSignals();
  const list = toaster.toasts.value;
  return (
    <div className="fixed z-[2147483000] bottom-4 right-4 left-4 sm:left-auto flex flex-col gap-2 items-stretch sm:items-end pointer-events-none" part="toasts">
      {list.map((t) => (
        <div
          key={t.id}
          role={t.variant === 'destructive' ? 'alert' : 'status'}
          aria-live={t.variant === 'destructive' ? 'assertive' : 'polite'}
          part={t.variant === 'destructive' ? 'toast toast-destructive' : 'toast'}
          className={`pointer-events-auto w-full sm:w-[360px] rounded-brand shadow-lg border px-4 py-3 flex gap-3 items-start ${
            t.variant === 'destructive' ? 'bg-danger text-white border-danger' : 'bg-surface text-ink border-line'
          }`}
        >
          <div className="flex-1 min-w-0">
            <p className="font-semibold text-sm m-0">{t.title}</p>
            {t.description ? <p className="text-sm m-0 mt-1 opacity-90">{t.description}</p> : null}
          </div>
          <button
            type="button"
            className="shrink-0 -mr-1 -mt-1 w-8 h-8 rounded-full flex items-center justify-center bg-transparent text-current cursor-pointer hover:bg-black/10"
            aria-label={closeLabel}
            onClick={() => toaster.dismiss(t.id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </div>
  );
}
