/**
 * The site header's side panel: every page of the site, the saved listings and the external Agent
 * Login. Its own chunk, downloaded when the menu button is first pointed at, focused or touched
 * (widgets/lib/lazy-part.ts): a page that nobody opens the menu on does not carry it.
 */
import texts from 'virtual:exp-texts/lazy/site-header/side-panel';
import { useId } from 'react';
import { formatCount } from '../../core/protocol/format.ts';
import { SITE } from '../../core/site.ts';
import { useElement } from '../lib/element.tsx';
import { addTexts } from '../lib/i18n.ts';
import { Dialog } from '../lib/ui/dialog.tsx';
import { CloseIcon } from '../lib/ui/icons/close.tsx';
import { ExternalIcon } from '../lib/ui/icons/external.tsx';
import { HeartIcon } from '../lib/ui/icons/heart.tsx';
import { SITE_PAGES } from '../lib/site-pages.ts';

await addTexts(texts);

export interface SidePanelProps {
  open: boolean;
  onClose: () => void;
  /** a page's address on this site, in this language */
  link: (path: string) => string;
  /** `'page'` for the link to the page the visitor is on */
  current: (path: string) => 'page' | undefined;
  savedCount: number;
}

export function SidePanel({ open, onClose, link, current, savedCount }: SidePanelProps) {
  const { t } = useElement();
  const titleId = useId();
  const pages = SITE_PAGES.map((p) => ({ path: p.path, label: t(p.label) }));
  return (
    <Dialog open={open} onClose={onClose} labelledBy={titleId} variant="side" part="panel">
      <div className="flex items-center justify-between px-5 h-[72px] border-b border-line">
        <h2 id={titleId} className="m-0 text-lg font-bold text-ink">
          {t('header.panelTitle')}
        </h2>
        <button
          type="button"
          onClick={onClose}
          className="inline-flex items-center justify-center w-11 h-11 -mr-2 rounded-full border-0 bg-transparent text-ink cursor-pointer hover:bg-surface-subtle"
        >
          <CloseIcon size={24} />
          <span className="exp-sr-only">{t('header.closeMenu')}</span>
        </button>
      </div>
      <nav aria-labelledby={titleId} className="py-2">
        <ul className="list-none m-0 p-0">
          {pages.map((p) => (
            <li key={p.path}>
              <a
                href={link(p.path)}
                aria-current={current(p.path)}
                part="panel-link"
                className={`flex items-center px-5 py-3.5 text-[17px] no-underline hover:bg-surface-subtle ${current(p.path) ? 'font-bold text-primary' : 'font-medium text-ink'}`}
              >
                {p.label}
              </a>
            </li>
          ))}
          <li>
            <a
              href={link('/saved')}
              aria-current={current('/saved')}
              part="panel-link"
              className={`flex items-center gap-2 px-5 py-3.5 text-[17px] no-underline hover:bg-surface-subtle ${current('/saved') ? 'font-bold text-primary' : 'font-medium text-ink'}`}
            >
              <HeartIcon size={18} filled={savedCount > 0} className={savedCount ? 'text-accent' : 'text-ink-muted'} />
              {t('nav.saved')}
              {savedCount ? (
                <span className="ml-auto rounded-full bg-surface-subtle px-2 text-sm font-semibold text-ink">
                  {formatCount(savedCount)}
                </span>
              ) : null}
            </a>
          </li>
          <li className="border-t border-line mt-2 pt-2">
            <a
              href={SITE.external.agentLogin}
              target="_blank"
              rel="noopener noreferrer"
              part="panel-link"
              className="flex items-center gap-2 px-5 py-3.5 text-[17px] font-medium text-ink no-underline hover:bg-surface-subtle"
            >
              {t('nav.agentLogin')}
              <ExternalIcon size={16} className="text-ink-muted" />
              <span className="exp-sr-only"> {t('header.newTab')}</span>
            </a>
          </li>
        </ul>
      </nav>
    </Dialog>
  );
}
