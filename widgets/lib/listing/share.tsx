/**
 * Sharing a listing (its own page's address): the system's share sheet where the browser has one
 * (phones), else a small menu with WhatsApp, e-mail and copying the link.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { copyText } from '../clipboard.ts';
import { useElement } from '../element.tsx';
import { shareLinks, type ShareTarget } from '../../../core/protocol/share.ts';
import { CheckIcon } from '../ui/icons/check.tsx';
import { LinkIcon } from '../ui/icons/link.tsx';
import { MailIcon } from '../ui/icons/mail.tsx';
import { ShareIcon } from '../ui/icons/share.tsx';
import { WhatsAppIcon } from '../ui/icons/whats-app.tsx';

export { shareLinks, type ShareTarget };

export function ShareButton({ target }: { target: ShareTarget }) {
  const { t } = useElement();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const menuId = useId();
  const box = useRef<HTMLDivElement>(null);
  const links = shareLinks(target);

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (!e.composedPath().includes(box.current as EventTarget)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', close, true);
    document.addEventListener('keydown', escape, true);
    return () => {
      document.removeEventListener('pointerdown', close, true);
      document.removeEventListener('keydown', escape, true);
    };
  }, [open]);
  useEffect(() => {
    if (copied === 'idle') return;
    const timer = setTimeout(() => setCopied('idle'), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const share = async () => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: target.title, text: `${target.title} – ${target.text}`, url: target.url });
        return;
      } catch (error) {
        // the visitor closed the sheet: nothing to do; the sheet failed: the menu instead
        if ((error as Error)?.name === 'AbortError') return;
      }
    }
    setOpen((o) => !o);
  };

  const item =
    'flex items-center gap-2 w-full px-3 py-2.5 text-sm text-ink no-underline bg-transparent border-0 cursor-pointer text-left hover:bg-surface-subtle';
  return (
    <div ref={box} className="relative inline-block">
      <button
        type="button"
        onClick={() => void share()}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        part="share"
        className="inline-flex items-center gap-1.5 h-10 px-3 rounded-full border border-line bg-surface text-sm font-semibold text-ink cursor-pointer hover:bg-surface-subtle"
      >
        <ShareIcon size={18} />
        {t('share.label')}
      </button>
      {open ? (
        <div
          id={menuId}
          role="menu"
          aria-label={t('share.label')}
          part="share-menu"
          className="absolute right-0 top-full mt-1 z-10 min-w-[200px] overflow-hidden rounded-md border border-line bg-surface shadow-lg py-1"
        >
          <a
            role="menuitem"
            href={links.whatsapp}
            target="_blank"
            rel="noopener noreferrer"
            className={item}
            onClick={() => setOpen(false)}
          >
            <WhatsAppIcon size={18} /> {t('share.whatsapp')}
          </a>
          <a role="menuitem" href={links.email} className={item} onClick={() => setOpen(false)}>
            <MailIcon size={18} /> {t('share.email')}
          </a>
          <button
            role="menuitem"
            type="button"
            className={item}
            onClick={async () => setCopied((await copyText(target.url)) ? 'copied' : 'failed')}
          >
            {copied === 'copied' ? <CheckIcon size={18} className="text-success" /> : <LinkIcon size={18} />}
            <span aria-live="polite">
              {copied === 'copied' ? t('share.copied') : copied === 'failed' ? t('agent.copyFailed') : t('share.copy')}
            </span>
          </button>
        </div>
      ) : null}
    </div>
  );
}
