/**
 * One lead's card in her leads (./leads.tsx, docs/agent-area.md "The page"): what the lead asked
 * about and where it came from, one tap to call, write or WhatsApp (a message already written in
 * the lead's language), and its status, follow-up day and a note, saved in one call; the team's
 * account can also give the lead to another agent.
 */
import type { Session } from '@supabase/auth-js';
import { useId, useState, type FormEvent } from 'react';
import { formatPrice, telHref, whatsappHref } from '../../core/protocol/format.ts';
import { parseEstimate } from '../../core/protocol/valuation.ts';
import { ecuadorDay } from '../../core/protocol/calendar.ts';
import { dayLabel, followUpState, leadAbout } from '../../core/protocol/follow-up.ts';
import { LEAD_STATUSES, leadWhy, moveLead, type Lead, type LeadStatus } from '../lib/data/agent-area.ts';
import { reassignLead, type TeamAgent } from '../lib/data/agent-team.ts';
import { useElement } from '../lib/element.tsx';
import { choice, card, field, label, link, primary } from './ui.ts';
import { FormField } from '../lib/ui/form-field.tsx';
import { SelectField } from '../lib/ui/select-field.tsx';

export function LeadCard({
  lead,
  when,
  phoneCountryCode,
  session,
  team,
  onSaved,
}: {
  lead: Lead;
  when: string;
  phoneCountryCode: string;
  session: Session;
  team: TeamAgent[] | null;
  onSaved: () => void;
}) {
  const { t, api } = useElement();
  const id = useId();
  const [status, setStatus] = useState<LeadStatus>(lead.status);
  const [followUp, setFollowUp] = useState(lead.follow_up_on ?? '');
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState<'' | 'saving' | 'saved' | 'failed'>('');
  // its forms are made when she opens them: a list of cards stays light on a phone
  const [open, setOpen] = useState(false);
  const leadLang = lead.lang === 'en' ? 'en' : 'es';
  const estimate = lead.seller ? parseEstimate(lead.seller.estimate) : null;
  const about = leadAbout(lead, t);
  const greeting = t(`agentArea.replyText.${leadLang}`, { name: lead.name.split(' ')[0] ?? lead.name });
  const whatsapp = whatsappHref(lead.phone, phoneCountryCode);
  const source = [lead.element, lead.page_url, lead.utm?.utm_campaign].filter(Boolean).join(' · ');

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving('saving');
    try {
      await moveLead(api, session, { id: lead.id, status, followUpOn: followUp || null, note });
      setNote('');
      setSaving('saved');
      onSaved();
    } catch (error) {
      console.error('[exp-agent-area] could not save the lead:', error);
      setSaving('failed');
    }
  };

  const due = followUpState(lead, ecuadorDay());
  return (
    <article className={card} part="lead" aria-labelledby={`${id}-name`}>
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`${id}-name`} className="m-0 text-lg font-semibold text-ink">
          {lead.erased_at ? t('agentArea.erased') : lead.name}
        </h3>
        <span className="text-sm text-ink-muted">{when}</span>
      </header>
      {/* where she has got with it, seen without opening it; a follow-up day gone by stands out */}
      <p className="m-0 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" part="state">
        <span className="rounded-full border border-line px-2 py-0.5 font-semibold text-ink">
          {t(`agentArea.status.${lead.status}`)}
        </span>
        {/* (a lead won or lost has nothing left to follow up) */}
        {due === 'overdue' ? (
          <span className="font-semibold text-danger" part="overdue">
            {t('agentArea.followUpOverdue', { date: dayLabel(lead.follow_up_on!, t) })}
          </span>
        ) : due === 'today' ? (
          <span className="font-semibold text-ink">{t('agentArea.followUpToday')}</span>
        ) : due ? (
          <span className="text-ink-muted">{t('agentArea.followUpOn', { date: dayLabel(lead.follow_up_on!, t) })}</span>
        ) : null}
      </p>
      <p className="m-0 font-semibold text-ink">{about}</p>
      {estimate?.value ? (
        <p className="m-0 text-ink" part="estimate">
          {t('agentArea.estimate', {
            value: formatPrice(estimate.value),
            low: formatPrice(estimate.low),
            high: formatPrice(estimate.high),
          })}
        </p>
      ) : null}
      {lead.message ? <p className="m-0 text-ink whitespace-pre-line">{lead.message}</p> : null}
      {source ? <p className="m-0 text-sm text-ink-muted break-words">{t('agentArea.source', { source })}</p> : null}
      <p className="m-0 text-sm text-ink-muted" part="why">
        {team
          ? `${t('agentArea.owner', { name: team.find((a) => a.id === lead.owner_agent_id)?.name ?? t('agentArea.theTeam') })} · `
          : ''}
        {t(`agentArea.why.${leadWhy(lead)}`)}
      </p>
      {lead.consents?.length ? (
        <p className="m-0 text-sm text-ink-muted" part="consents">
          {t('agentArea.consents', {
            list: lead.consents
              .map((c) =>
                c.withdrawn_at
                  ? t('agentArea.consentWithdrawn', { name: t(`agentArea.consentNames.${c.purpose}`) })
                  : t(`agentArea.consentNames.${c.purpose}`),
              )
              .join(' · '),
          })}
        </p>
      ) : null}
      {lead.erased_at ? null : (
        <div className="flex flex-wrap gap-2" part="contact">
          {lead.phone ? (
            <a className={`${primary} no-underline`} href={telHref(lead.phone)}>
              {t('agentArea.call')}
            </a>
          ) : null}
          <a
            className={`${primary} no-underline`}
            href={`mailto:${lead.email}?subject=${encodeURIComponent(about)}&body=${encodeURIComponent(greeting)}`}
          >
            {t('agentArea.write')}
          </a>
          {whatsapp ? (
            <a
              className={`${primary} no-underline`}
              href={`${whatsapp}?text=${encodeURIComponent(greeting)}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('agentArea.whatsapp')}
            </a>
          ) : null}
        </div>
      )}
      <button
        type="button"
        className={`${link} self-start`}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        part="update"
      >
        {t(open ? 'agentArea.closeUpdate' : 'agentArea.update')}
      </button>
      {open ? (
        <form onSubmit={save} className="flex flex-col gap-2" part="move">
          <SelectField
            id={`${id}-status`}
            {...choice}
            label={t('agentArea.statusLabel')}
            value={status}
            onChange={(v) => setStatus(v as LeadStatus)}
            options={LEAD_STATUSES.map((s) => ({ value: s, label: t(`agentArea.status.${s}`) }))}
          />
          <FormField controlId={`${id}-follow`} label={t('agentArea.followUp')} labelClassName={label}>
            <input
              id={`${id}-follow`}
              type="date"
              value={followUp}
              onChange={(e) => setFollowUp(e.target.value)}
              className={field}
            />
          </FormField>
          <FormField controlId={`${id}-note`} label={t('agentArea.note')} labelClassName={label}>
            <textarea
              id={`${id}-note`}
              rows={2}
              maxLength={4000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              className={`${field} h-auto py-2`}
            />
          </FormField>
          <button type="submit" disabled={saving === 'saving'} className={primary}>
            {t('agentArea.save')}
          </button>
          <p className="m-0 text-sm text-ink" role="status" aria-live="polite">
            {saving === 'saved' ? t('agentArea.saved') : saving === 'failed' ? t('agentArea.saveFailed') : ''}
          </p>
        </form>
      ) : null}
      {open && team ? <GiveTo lead={lead} session={session} agents={team} onDone={onSaved} /> : null}
      {!open && saving ? (
        <p className="m-0 text-sm text-ink" role="status">
          {saving === 'saved' ? t('agentArea.saved') : ''}
        </p>
      ) : null}
    </article>
  );
}

/** The team gives the lead to another agent of ours, or to the team, saying why (public.reassign_lead). */
function GiveTo({
  lead,
  session,
  agents,
  onDone,
}: {
  lead: Lead;
  session: Session;
  agents: TeamAgent[];
  onDone: () => void;
}) {
  const { t, api } = useElement();
  const id = useId();
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [state, setState] = useState<'' | 'busy' | 'done' | 'failed'>('');
  const give = async (e: FormEvent) => {
    e.preventDefault();
    setState('busy');
    try {
      await reassignLead(api, session, lead.id, to === 'team' ? null : Number(to), reason);
      setState('done');
      setReason('');
      onDone();
    } catch (error) {
      console.error('[exp-agent-area] could not give the lead:', error);
      setState('failed');
    }
  };
  return (
    <form onSubmit={give} className="flex flex-col gap-2 border-t border-line pt-3" part="give">
      <SelectField
        id={`${id}-to`}
        {...choice}
        label={t('agentArea.giveTo')}
        value={to}
        onChange={setTo}
        required
        options={[
          { value: '', label: t('agentArea.chooseAgent') },
          { value: 'team', label: t('agentArea.theTeam') },
          ...agents
            .filter((a) => a.active && a.id !== lead.owner_agent_id)
            .map((a) => ({ value: String(a.id), label: a.name })),
        ]}
      />
      <FormField controlId={`${id}-why`} label={t('agentArea.giveWhy')} labelClassName={label}>
        <input
          id={`${id}-why`}
          maxLength={300}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          className={field}
        />
      </FormField>
      <button type="submit" className={primary} disabled={state === 'busy' || !to}>
        {t('agentArea.give')}
      </button>
      <p className="m-0 text-sm text-ink" role="status" aria-live="polite">
        {state === 'done' ? t('agentArea.given') : state === 'failed' ? t('agentArea.saveFailed') : ''}
      </p>
    </form>
  );
}
