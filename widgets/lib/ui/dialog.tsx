/**
 * A modal on the native <dialog>: the rest of the page becomes inert (focus stays inside), Escape
 * and the backdrop close it, focus returns to what opened it. In the top layer, so no host-page
 * stacking context or overflow can clip it.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useElement, useStyles } from '../element.tsx';
import { CloseIcon } from './icons/close.tsx';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  children: ReactNode;
  className?: string;
  part?: string;
  /** 'center' (default): a centred modal; 'side': a full-height panel on the right; 'sheet': the whole screen (a phone's filters) */
  variant?: 'center' | 'side' | 'sheet';
}

export function Dialog({
  open,
  onClose,
  labelledBy,
  children,
  className = '',
  part = 'dialog',
  variant = 'center',
}: DialogProps) {
  useStyles(dialogCss);
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // the element that had focus, looked up through shadow roots
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      opener.current = active;
      dialog.showModal();
      dialog.scrollTop = 0;
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCancel = (e: Event) => {
      e.preventDefault();
      onCloseRef.current();
    };
    const onDialogClose = () => {
      const target = opener.current as HTMLElement | null;
      opener.current = null;
      if (target?.isConnected) target.focus({ preventScroll: true });
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onDialogClose);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onDialogClose);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      part={part}
      // a click on the backdrop lands on the dialog element itself
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      className={`exp-dialog ${variant === 'side' ? SIDE : variant === 'sheet' ? SHEET : CENTER} ${className}`}
    >
      {open ? children : null}
    </dialog>
  );
}

const CENTER =
  'p-0 m-auto border-0 rounded-brand bg-surface text-ink shadow-2xl w-[calc(100vw-24px)] max-w-[920px] max-h-[90vh] overflow-hidden';
/** The round button that closes a dialog, named "Close" in the element's language. */
export function DialogClose({ onClose, className = '' }: { onClose: () => void; className?: string }) {
  const { t } = useElement();
  return (
    <button
      type="button"
      onClick={onClose}
      aria-label={t('common.close')}
      className={`w-10 h-10 shrink-0 rounded-full flex items-center justify-center bg-transparent text-ink cursor-pointer hover:bg-surface-subtle ${className}`}
    >
      <CloseIcon size={22} />
    </button>
  );
}

// 300 px on desktop; about three quarters of a phone's width, at most 320 px
const SIDE =
  'exp-dialog-side p-0 m-0 ml-auto border-0 bg-surface text-ink shadow-2xl h-full max-h-screen w-[75vw] max-w-[320px] md:w-[300px] overflow-y-auto';

const SHEET = 'exp-dialog-sheet p-0 m-0 border-0 bg-surface text-ink w-full max-w-none h-full overflow-hidden';

/** Backdrop and animation of the dialog (adopted by the element it opens in, useStyles). */
const dialogCss = `
.exp-dialog::backdrop { background: rgba(15, 23, 42, 0.55); }
.exp-dialog[open] { animation: exp-dialog-in 160ms ease-out; display: flex; flex-direction: column; }
.exp-dialog-sheet[open] { position: fixed; inset: 0; width: 100%; height: 100%; max-width: none; max-height: none; animation: exp-sheet-in 200ms ease-out; }
@keyframes exp-sheet-in { from { transform: translateY(24px); opacity: 0; } to { transform: none; opacity: 1; } }
.exp-dialog-side[open] { animation: exp-panel-in 200ms ease-out; inset: 0 0 0 auto; position: fixed; }
@keyframes exp-panel-in { from { transform: translateX(100%); } to { transform: none; } }
@keyframes exp-dialog-in { from { opacity: 0; transform: translateY(8px) scale(0.99); } to { opacity: 1; transform: none; } }
`;
