import { useEffect } from 'react';
import { useElement } from '../element.tsx';
import { emit } from '../events.ts';
import { applyDocumentLang, savedLang } from '../i18n.ts';
import { LANGUAGES, type Lang } from '../../../core/lang.ts';

export interface LanguageSwitchProps {
  /** 'light' for white text over photos and video, 'dark' on light backgrounds */
  tone: 'dark' | 'light';
  /** restore and remember the visitor's choice (localStorage and ?lang=); false only switches <html lang> */
  persist: boolean;
}

/**
 * The two languages as a pill: the whole of <exp-language-switch>, and the switch of the site's
 * header, which renders it in its own shadow root rather than as a nested element (one element, one
 * sheet and one chunk fewer on every page of ours). Either way its host emits `exp-language-change`.
 */
export function LanguageSwitch({ tone, persist }: LanguageSwitchProps) {
  const { host, lang, t } = useElement();

  // restore the visitor's earlier choice (?lang= or localStorage) when the page starts; a page that
  // has an address per language (our site) is already in the language of its address
  useEffect(() => {
    if (!persist || document.querySelector('link[rel="alternate"][hreflang]')) return;
    const saved = savedLang();
    if (saved && saved !== document.documentElement.lang) applyDocumentLang(saved, { updateUrl: false });
  }, [persist]);

  const choose = (next: Lang) => {
    if (next === lang) return;
    applyDocumentLang(next, { updateUrl: persist });
    emit(host, 'exp-language-change', { lang: next });
  };

  const light = tone === 'light';
  return (
    <div
      role="group"
      aria-label={t('language.label')}
      part="group"
      className={`inline-flex items-center gap-0.5 rounded-full p-0.5 border ${light ? 'border-white/60' : 'border-line bg-surface'}`}
    >
      {LANGUAGES.map((code) => {
        const active = code === lang;
        const colours = active
          ? light
            ? 'bg-white text-ink'
            : 'bg-primary text-primary-contrast'
          : light
            ? 'bg-transparent text-white hover:bg-white/20'
            : 'bg-transparent text-ink hover:bg-surface-subtle';
        return (
          <button
            key={code}
            type="button"
            part={active ? 'option option-active' : 'option'}
            aria-pressed={active}
            lang={code}
            onClick={() => choose(code)}
            className={`min-w-[40px] h-8 px-2.5 rounded-full text-[13px] font-semibold tracking-wide uppercase cursor-pointer transition-colors ${colours}`}
          >
            {t(`language.${code}Short`)}
            <span className="exp-sr-only"> {t(`language.${code}`)}</span>
          </button>
        );
      })}
    </div>
  );
}
