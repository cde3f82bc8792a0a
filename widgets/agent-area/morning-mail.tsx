/**
 * Whether she gets her morning mail of the leads to follow up (docs/agent-area.md "Her morning
 * mail"): one box under her leads' filters, as her role says it when the area opens, saved as she
 * ticks it, and said so (an agent's only: the team's own members get none).
 */
import type { Session } from '@supabase/auth-js';
import { useId, useState } from 'react';
import { setFollowUpMail } from '../lib/data/follow-up-mail.ts';
import { useElement } from '../lib/element.tsx';

/** `wanted`: her choice as the area knows it; `onChange`: the area keeps what she chose (the tab may close and open again). */
export function MorningMail({
  session,
  wanted,
  onChange,
}: {
  session: Session;
  wanted: boolean;
  onChange: (wanted: boolean) => void;
}) {
  const { t, api } = useElement();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const change = async (next: boolean) => {
    onChange(next);
    setBusy(true);
    setSaid('');
    try {
      const kept = await setFollowUpMail(api, session, next);
      onChange(kept);
      setSaid(kept ? 'agentArea.morningMail.on' : 'agentArea.morningMail.off');
    } catch (error) {
      console.error('[exp-agent-area] could not save the morning mail:', error);
      onChange(!next);
      setSaid('agentArea.saveFailed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-1" part="morning-mail">
      <label className="inline-flex items-start gap-3 text-ink cursor-pointer">
        <input
          type="checkbox"
          className="mt-1 w-5 h-5 shrink-0 accent-primary"
          checked={wanted}
          disabled={busy}
          aria-describedby={`${id}-hint`}
          onChange={(e) => void change(e.target.checked)}
        />
        <span>{t('agentArea.morningMail.label')}</span>
      </label>
      <p id={`${id}-hint`} className="m-0 ml-8 text-sm text-ink-muted">
        {t('agentArea.morningMail.hint')}
      </p>
      <p className="m-0 ml-8 text-sm text-ink" role="status" aria-live="polite">
        {said ? t(said) : ''}
      </p>
    </div>
  );
}
