import { useEffect } from 'react';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { applyDocumentLang, savedLang } from '../lib/i18n.ts';
import type { languageSwitchAttributes } from './language-switch.attributes.ts';
import { LANGUAGES, type Lang } from '../../core/lang.ts';

export function LanguageSwitch({ tone, persist }: ElementProps<typeof languageSwitchAttributes>) {
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
