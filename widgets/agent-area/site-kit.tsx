/**
 * Her site kit (docs/agent-area.md "Site kit"): the code that puts our search, her profile or the
 * home valuation on her own website, with her `lead-agent-id` (every lead it brings is hers), her
 * colour and language; a live preview of the element as it will look there; and the WordPress
 * plugin's settings with the same values.
 */
import texts from 'virtual:exp-texts/lazy/agent-area/site-kit';
import type { Session } from '@supabase/auth-js';
import { createElement, Fragment, useId, useMemo, useState, type CSSProperties } from 'react';
import { getMyProfile } from '../lib/data/agent-area.ts';
import { useElement } from '../lib/element.tsx';
import { DEFAULT_COLOR, HEX, KINDS, kitAttributes, kitSnippet, type Kind } from './kit.ts';
import { choice, card, field, label, primary, secondary } from './ui.ts';
import { FormField } from '../lib/ui/form-field.tsx';
import { SelectField } from '../lib/ui/select-field.tsx';
import { Failed, Loading } from './status.tsx';
import { addTexts } from '../lib/i18n.ts';
import { useLoad } from './use-load.ts';

await addTexts(texts);

/** Her kit, once her agent id is known (the team's account has none). */
export function SiteKit({ id, session }: { id: string; session: Session }) {
  const { t, api } = useElement();
  // undefined while it is asked; 'failed' when it could not be (not "the team's account")
  const [agentId, setAgentId] = useState<number | null | undefined | 'failed'>(undefined);
  const [attempt, setAttempt] = useState(0);
  useLoad(
    () => getMyProfile(api, session),
    (p) => setAgentId(p ? p.id : null),
    () => setAgentId('failed'),
    'load the profile',
    [api, session, attempt],
  );
  if (agentId === undefined) return <Loading />;
  if (agentId === 'failed')
    return (
      <Failed
        onRetry={() => {
          setAgentId(undefined);
          setAttempt((n) => n + 1);
        }}
      />
    );
  if (agentId === null) return <p className="m-0 text-ink">{t('agentArea.kit.notAnAgent')}</p>;
  // the script our site serves, where partners load it from too (docs/embedding.md)
  return <Kit id={id} agentId={agentId} scriptUrl={new URL('/widgets/exp-widgets.js', location.href).href} />;
}

function Kit({ id, agentId, scriptUrl }: { id: string; agentId: number; scriptUrl: string }) {
  const { t, api, lang: pageLang } = useElement();
  const own = useId();
  const [kind, setKind] = useState<Kind>('exp-property-search');
  const [lang, setLang] = useState<'en' | 'es'>(pageLang === 'en' ? 'en' : 'es');
  const [color, setColor] = useState<string>(DEFAULT_COLOR);
  const [copied, setCopied] = useState<'' | 'copied' | 'failed'>('');
  const attrs = useMemo(() => kitAttributes(kind, agentId, lang, color), [kind, agentId, lang, color]);
  const snippet = kitSnippet(scriptUrl, kind, attrs);
  const copy = () =>
    navigator.clipboard.writeText(snippet).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  const preview = Object.fromEntries(attrs.filter(([k]) => k !== 'style'));

  return (
    <section className="flex flex-col gap-4" part="site-kit" aria-labelledby={`${id}-kit`}>
      <h2 id={`${id}-kit`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.kit.title')}
      </h2>
      <p className="m-0 text-ink-muted">{t('agentArea.kit.intro')}</p>
      <div className={card}>
        <SelectField
          id={`${own}-kind`}
          label={t('agentArea.kit.element')}
          value={kind}
          onChange={(v) => setKind(v as Kind)}
          {...choice}
          options={KINDS.map((k) => ({ value: k, label: t(`agentArea.kit.kind.${k}`) }))}
        />
        <SelectField
          id={`${own}-lang`}
          label={t('agentArea.kit.language')}
          value={lang}
          onChange={(v) => setLang(v === 'en' ? 'en' : 'es')}
          {...choice}
          options={(['es', 'en'] as const).map((l) => ({ value: l, label: t(`language.${l}`) }))}
        />
        <label className="flex items-center gap-3 font-semibold text-ink">
          <input
            type="color"
            value={color}
            onChange={(e) => setColor(e.target.value)}
            className="h-12 w-16 shrink-0 rounded-md border border-line bg-surface"
          />
          {t('agentArea.kit.color')}
        </label>
      </div>
      <FormField controlId={`${own}-code`} label={t('agentArea.kit.code')} labelClassName={label}>
        <textarea
          id={`${own}-code`}
          readOnly
          rows={5}
          value={snippet}
          className={`${field} h-auto py-2 font-mono text-sm`}
          onFocus={(e) => e.currentTarget.select()}
          part="kit-code"
        />
      </FormField>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className={primary} onClick={() => void copy()}>
          {t('agentArea.kit.copy')}
        </button>
        <span role="status" aria-live="polite" className="text-ink">
          {copied ? t(`agentArea.kit.${copied}`) : ''}
        </span>
      </div>
      <div className={card} part="kit-wordpress">
        <h3 className="m-0 text-lg font-semibold text-ink">{t('agentArea.kit.wordpress')}</h3>
        <p className="m-0 text-ink">{t('agentArea.kit.wordpressIntro')}</p>
        <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-ink">
          {(
            [
              ['wpApiUrl', api.url],
              ['wpApiKey', api.key],
              ['wpScript', scriptUrl],
              ['wpBrand', color.toLowerCase()],
              ['wpLeadAgent', String(agentId)],
            ] as const
          ).map(([label, value]) => (
            <Fragment key={label}>
              <dt className="font-semibold">{t(`agentArea.kit.${label}`)}</dt>
              <dd className="m-0 break-all font-mono text-sm">{value}</dd>
            </Fragment>
          ))}
        </dl>
        <a className={`${secondary} no-underline self-start`} href="/wordpress/exp-ecuador.zip" download>
          {t('agentArea.kit.wordpressDownload')}
        </a>
      </div>
      <section className="flex flex-col gap-2" aria-labelledby={`${own}-preview`}>
        <h3 id={`${own}-preview`} className="m-0 text-lg font-semibold text-ink">
          {t('agentArea.kit.preview')}
        </h3>
        <div
          className="rounded-brand border border-dashed border-line p-2 min-w-0 overflow-hidden"
          style={HEX.test(color) ? ({ '--exp-color-primary': color } as CSSProperties) : undefined}
          part="kit-preview"
        >
          {createElement(kind, { key: `${kind}-${lang}`, ...preview, 'sync-url': 'false', 'show-map': 'false' })}
        </div>
      </section>
    </section>
  );
}
