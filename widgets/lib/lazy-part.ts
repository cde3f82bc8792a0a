/**
 * A part of an element that a control opens, downloaded when the control is first pointed at,
 * focused or touched, else on the click (docs/embedding.md "The script"): the alert form behind
 * "Get alerts", the header's side panel. A failed download is said in a toast and tried again (under
 * a new URL: lazy-chunk.ts) on the next click.
 */
import { useState } from 'react';
import { useElement } from './element.tsx';
import type { Toaster } from './toast.tsx';

/** A part that did not download: said in the console and to the visitor, who may try again. */
export function partDidNotLoad(toaster: Toaster, what: string, error: unknown): void {
  console.error(`[exp] ${what} did not load:`, error);
  toaster.show({ title: { key: 'common.error' }, description: { key: 'errors.unexpected' }, variant: 'destructive' });
}

export interface LazyPart<M> {
  /** the part's module, once a click has brought it */
  module: M | undefined;
  /** the control's pointer-enter, focus and touch-start, each starting the download (spread on the control) */
  preloadOn: { onPointerEnter: () => void; onFocus: () => void; onTouchStart: () => void };
  /** for the control's click: the part, then `opened` (a failed download: a toast, and nothing opens) */
  open: (opened?: (module: M) => void) => void;
}

/** `load`: a `lazyChunk` (one download, shared by every caller); `what`: the part, for the console. */
export function useLazyPart<M>(load: () => Promise<M>, what: string): LazyPart<M> {
  const { toaster } = useElement();
  const [module, setModule] = useState<M | undefined>(undefined);
  const preload = () => void load().catch(() => {});
  return {
    module,
    preloadOn: { onPointerEnter: preload, onFocus: preload, onTouchStart: preload },
    open: (opened) =>
      void load().then(
        (m) => {
          setModule(() => m);
          opened?.(m);
        },
        (error: unknown) => partDidNotLoad(toaster, what, error),
      ),
  };
}
