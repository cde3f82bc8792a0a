/**
 * The property detail dialog, loaded when it is first wanted: the detail, the agent's card, the
 * share menu and the inquiry form are not part of a page's first screen (and a partner's page that
 * never opens a listing never downloads them). A card or a pin the visitor points at, focuses or
 * touches starts the download (preloadPropertyDialog), so it is usually there by the click; if not,
 * a 'Loading...' overlay shows until it is. A failed download closes with a message and is tried
 * again (under a new URL) on the next open.
 */
import { useEffect, useState } from 'react';
import { useElement } from '../element.tsx';
import { lazyChunk } from '../lazy-chunk.ts';
import { partDidNotLoad } from '../lazy-part.ts';
import type * as Dialog from './property-dialog.tsx';
import type { PropertyDialogProps } from './property-dialog.tsx';

type DialogModule = typeof Dialog;

const load = lazyChunk(() => import('./property-dialog.tsx'));
let loaded: DialogModule | undefined;
let loading: Promise<DialogModule> | undefined;

function loadDialog(): Promise<DialogModule> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= load().then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Starts downloading the dialog (a card or pin the visitor is about to open). */
export function preloadPropertyDialog(): void {
  loadDialog().catch(() => {
    // tried again when the dialog is opened
  });
}

export function PropertyDialog(props: PropertyDialogProps) {
  const { t, toaster } = useElement();
  const [dialog, setDialog] = useState<DialogModule | undefined>(loaded);
  const wanted = props.property !== null;
  const { onClose } = props;
  useEffect(() => {
    if (!wanted || dialog) return;
    let live = true;
    loadDialog()
      .then((m) => live && setDialog(m))
      .catch((error: unknown) => {
        if (!live) return console.error('[exp] the property detail did not load:', error);
        partDidNotLoad(toaster, 'the property detail', error);
        onClose();
      });
    return () => {
      live = false;
    };
  }, [wanted, dialog, toaster, onClose]);
  if (dialog) return <dialog.PropertyDialog {...props} />;
  if (!wanted) return null;
  return (
    <div className="fixed inset-0 z-[2147482000] flex items-center justify-center bg-black/40" part="detail-loading">
      <p role="status" className="m-0 rounded-md bg-surface px-4 py-3 text-sm font-medium text-ink shadow-lg">
        {t('common.loading')}
      </p>
    </div>
  );
}
