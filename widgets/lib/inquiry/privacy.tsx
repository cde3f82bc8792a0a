/**
 * What a form that takes personal data says about it (docs/privacy.md): the optional consents it
 * offers, each a box of its own and never ticked in advance ("Consents"), and the one line beside
 * its button that says where what she types goes, with the notice linked.
 */
import type { ConsentPurpose } from '../../../core/protocol/privacy.ts';
import { useElement } from '../element.tsx';
import { siteUrl } from '../site-links.ts';

export function ConsentBoxes<P extends ConsentPurpose>({
  purposes,
  given,
  onChange,
  className = '',
}: {
  purposes: readonly P[];
  given: ReadonlySet<P>;
  onChange: (next: Set<P>) => void;
  className?: string;
}) {
  const { t } = useElement();
  const toggle = (purpose: P, on: boolean) => {
    const next = new Set(given);
    if (on) next.add(purpose);
    else next.delete(purpose);
    onChange(next);
  };
  return (
    <fieldset className={`m-0 min-w-0 border-0 p-0 flex flex-col gap-1.5 ${className}`} part="consents">
      <legend className="mb-1 p-0 text-sm text-ink-muted">{t('consent.legend')}</legend>
      {purposes.map((purpose) => (
        <label key={purpose} className="inline-flex items-start gap-2 text-[15px] text-ink cursor-pointer">
          <input
            type="checkbox"
            name={`consent-${purpose}`}
            className="mt-[3px] h-4 w-4 shrink-0 accent-primary"
            checked={given.has(purpose)}
            onChange={(e) => toggle(purpose, e.target.checked)}
            part={`consent consent-${purpose}`}
          />
          {t(`consent.${purpose}`)}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The line beside a form's button: who receives what she types (`says`, a key of the form's own
 * group), and the notice linked (`notice`). The keys are the caller's, so that a form carries only
 * its own group's texts (scripts/widget-texts.ts).
 */
export function PrivacyLine({ says, notice }: { says: string; notice: string }) {
  const { t, site, lang } = useElement();
  return (
    <p className="m-0 text-xs text-ink-muted" part="privacy">
      {t(says)}{' '}
      <a
        href={siteUrl('/privacy', site, lang)}
        target="_blank"
        rel="noopener"
        className="text-[color:inherit] underline"
      >
        {t(notice)}
      </a>
    </p>
  );
}
