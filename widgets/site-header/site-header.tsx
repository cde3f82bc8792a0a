/**
 * <exp-site-header> (docs/product.md §2, shared header). The bar reads the window's scroll position
 * (transparent at the top, solid past 20 px) and marks the link of the current page. A heart with
 * the number of saved listings leads to them (the saved list of this browser, followed live).
 */
import { useEffect, useState } from 'react';
import { formatCount } from '../../core/protocol/format.ts';
import { useSavedListings } from '../lib/saved/store.ts';
import { HeartIcon } from '../lib/ui/icons/heart.tsx';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { MenuIcon } from '../lib/ui/icons/menu.tsx';
import { Logo } from '../lib/ui/logo.tsx';
import { LanguageSwitch } from '../lib/ui/language-switch.tsx';
import { siteUrl } from '../lib/site-links.ts';
import { lazyChunk } from '../lib/lazy-chunk.ts';
import { useLazyPart } from '../lib/lazy-part.ts';
import type { siteHeaderAttributes } from './site-header.attributes.ts';

/** the side panel (side-panel.tsx): its own chunk, a part the menu button opens (lib/lazy-part.ts) */
const loadPanel = lazyChunk(() => import('./side-panel.tsx'));

/** the number of saved listings, on the heart (or the menu button where the heart has no room) */
const COUNT_BADGE =
  'absolute top-0.5 right-0 min-w-[18px] h-[18px] px-1 rounded-full bg-accent text-accent-contrast text-[11px] font-bold leading-[18px] text-center';

/** docs/product.md §4: the header turns solid once the page is scrolled more than this. */
const SCROLL_THRESHOLD = 20;

/**
 * Whether the page is scrolled past the threshold. Reading the scroll position makes the browser lay
 * the page out first when anything changed: read during the render, or in the effect while the other
 * elements of the page are still drawing, it laid out the whole page in the middle of their work.
 * The first reading waits for the frame after the header's first (the layout is fresh then), and
 * each later one comes with a scroll.
 */
function useScrolled(): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > SCROLL_THRESHOLD);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(update, 0)));
    window.addEventListener('scroll', update, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      window.removeEventListener('scroll', update);
    };
  }, []);
  return scrolled;
}

export function SiteHeader({ tone, position }: ElementProps<typeof siteHeaderAttributes>) {
  const { t, host, site, lang, api } = useElement();
  const savedCount = useSavedListings(api.url).length;
  const scrolled = useScrolled();
  const [open, setOpen] = useState(false);
  const panel = useLazyPart(loadPanel, 'the menu');

  const solid = scrolled || position === 'static';
  // white text only while transparent over the hero of a light-toned page
  const light = tone === 'light' && !solid;
  const link = (path: string) => siteUrl(path, site, lang);
  const here = typeof location === 'undefined' ? '' : location.pathname.replace(/\/+$/, '') || '/';
  const current = (path: string) => {
    const target = link(path);
    // a link to this page (not to the same path on another site)
    return target.startsWith('/') &&
      (here === target || (target !== '/' && target !== '/es' && here.startsWith(target + '/')))
      ? 'page'
      : undefined;
  };

  const toggle = (next: boolean) => {
    setOpen(next);
    emit(host, 'exp-menu-toggle', { open: next });
  };

  const text = light ? 'text-white' : 'text-ink';
  return (
    <header
      part="bar"
      data-state={solid ? 'scrolled' : 'top'}
      className={`exp-bar flex items-center ${solid ? 'bg-surface shadow-md' : 'bg-transparent shadow-none'}`}
    >
      <div className="w-full max-w-[1400px] mx-auto px-2 cq-xs:px-3 cq-sm:px-4 cq-md:px-8 flex items-center gap-1.5 cq-xs:gap-2 cq-sm:gap-3">
        <a href={link('/')} className="flex items-center shrink-0 rounded-sm" aria-current={current('/')}>
          <span className="cq-sm:hidden">
            <Logo tone={light ? 'light' : 'dark'} label={t('header.home')} compact />
          </span>
          <span className="hidden cq-sm:block">
            <Logo tone={light ? 'light' : 'dark'} label={t('header.home')} />
          </span>
        </a>
        <nav
          aria-label={t('header.navLabel')}
          part="nav"
          className="ml-auto flex items-center gap-2 cq-md:gap-4 min-w-0"
        >
          {/* on the smallest phones the link takes two lines, so the menu button stays on screen; on
              other phones too when the saved listings' heart needs the room */}
          <a
            href={link('/search-properties')}
            aria-current={current('/search-properties')}
            part="link"
            className={`block px-1 py-1 text-[13px] leading-tight text-center max-w-[7.5em] ${savedCount ? 'cq-xs:text-[14px] cq-sm:max-w-none cq-sm:py-2 cq-sm:leading-normal cq-sm:whitespace-nowrap' : 'cq-xs:max-w-none cq-xs:py-2 cq-xs:text-[14px] cq-xs:leading-normal cq-xs:whitespace-nowrap'} cq-sm:text-[15px] font-semibold no-underline hover:underline underline-offset-4 ${text}`}
          >
            {t('nav.searchProperties')}
          </a>
          <a
            href={link('/join')}
            aria-current={current('/join')}
            part="join"
            data-variant={tone === 'dark' || solid ? 'dark' : 'light'}
            className={`hidden cq-md:inline-flex items-center h-10 px-5 rounded-full text-[15px] font-semibold no-underline ${tone === 'dark' || solid ? 'bg-primary text-primary-contrast hover:bg-primary-hover' : 'bg-white text-primary hover:bg-white/90'}`}
          >
            {t('nav.joinExp')}
          </a>
        </nav>
        {savedCount ? (
          <a
            href={link('/saved')}
            aria-current={current('/saved')}
            aria-label={t('saved.headerLabel', { count: savedCount, formatted: formatCount(savedCount) })}
            part="saved-link"
            className={`hidden cq-xs:inline-flex relative items-center justify-center w-10 h-10 shrink-0 rounded-full no-underline ${light ? 'text-white hover:bg-white/15' : 'text-ink hover:bg-surface-subtle'}`}
          >
            <HeartIcon size={22} />
            <span aria-hidden="true" className={COUNT_BADGE}>
              {formatCount(savedCount)}
            </span>
          </a>
        ) : null}
        <LanguageSwitch tone={light ? 'light' : 'dark'} persist />
        <button
          type="button"
          part="menu-button"
          aria-haspopup="dialog"
          aria-expanded={open}
          {...panel.preloadOn}
          onClick={() => panel.open(() => toggle(true))}
          className={`relative inline-flex items-center justify-center w-10 h-10 cq-sm:w-11 cq-sm:h-11 shrink-0 rounded-full border-0 bg-transparent cursor-pointer ${light ? 'text-white hover:bg-white/15' : 'text-ink hover:bg-surface-subtle'}`}
        >
          <MenuIcon size={26} />
          {/* where the bar has no room for the heart, the menu (which lists Saved) carries the count */}
          {savedCount ? (
            <span aria-hidden="true" className={`cq-xs:hidden ${COUNT_BADGE}`}>
              {formatCount(savedCount)}
            </span>
          ) : null}
          <span className="exp-sr-only">{t('header.openMenu')}</span>
        </button>
      </div>
      {panel.module ? (
        <panel.module.SidePanel
          open={open}
          onClose={() => toggle(false)}
          link={link}
          current={current}
          savedCount={savedCount}
        />
      ) : null}
    </header>
  );
}
