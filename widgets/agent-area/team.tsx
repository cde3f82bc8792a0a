/**
 * The team's console (docs/agent-area.md "The team's hands" and "Routing"): the office's agents
 * with their open leads, inviting one and deactivating one (her open leads then move by the
 * routing), and the routing itself: rules by place, type, price and source in priority order, and
 * the default for what no rule takes (the team's inbox, or an even spread over the agents).
 */
import texts from 'virtual:exp-texts/lazy/agent-area/team';
import type { Session } from '@supabase/auth-js';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import {
  deactivateAgent,
  getPrivacyOverview,
  getRouting,
  getTeamAgents,
  inviteAgent,
  saveRouting,
  type PrivacyOverview,
  type Routing,
  type RoutingRule,
  type TeamAgent,
} from '../lib/data/agent-team.ts';
import { ecuadorTimes } from './when.ts';
import { fold } from '../../core/protocol/text.ts';
import { useElement } from '../lib/element.tsx';
import { choice, card, field, link, primary, secondary } from './ui.ts';
import { SelectField } from '../lib/ui/select-field.tsx';
import { Failed, Loading } from './status.tsx';
import { addTexts } from '../lib/i18n.ts';
import { useLoad } from './use-load.ts';

await addTexts(texts);

export function Team({
  id,
  session,
  agents,
  onAgents,
}: {
  id: string;
  session: Session;
  agents: TeamAgent[];
  onAgents: (agents: TeamAgent[]) => void;
}) {
  const { t, api } = useElement();
  const reload = useCallback(
    () =>
      getTeamAgents(api, session).then(onAgents, (error: unknown) =>
        console.error('[exp-agent-area] could not load the agents:', error),
      ),
    [api, session, onAgents],
  );
  // (their open leads, as they are now: leads may have been given since the list was read)
  useEffect(() => void reload(), [reload]);
  const [find, setFind] = useState('');
  // those the search finds (name or e-mail, any case and accent), the first ten of them
  const found = agents.filter((a) => !find.trim() || fold(`${a.name} ${a.email ?? ''}`).includes(fold(find.trim())));
  const listed = found.slice(0, 10);
  return (
    <div className="flex flex-col gap-6" part="team">
      <section className="flex flex-col gap-3" aria-labelledby={`${id}-agents`}>
        <h2 id={`${id}-agents`} className="m-0 text-2xl font-bold text-ink">
          {t('agentArea.team.agents')}
        </h2>
        <label className="flex flex-col gap-1 font-semibold text-ink">
          {t('agentArea.team.find')}
          <input
            type="search"
            value={find}
            onChange={(e) => setFind(e.target.value)}
            className={`${field} font-normal`}
          />
        </label>
        <p className="m-0 text-sm text-ink-muted" role="status" aria-live="polite">
          {t('agentArea.team.showing', { shown: listed.length, count: found.length })}
        </p>
        <ul className="list-none m-0 p-0 flex flex-col gap-2">
          {listed.map((a) => (
            <li key={a.id}>
              <AgentRow agent={a} session={session} onChanged={() => void reload()} />
            </li>
          ))}
        </ul>
        <Invite session={session} onInvited={() => void reload()} />
      </section>
      <RoutingEditor id={id} session={session} agents={agents.filter((a) => a.active)} />
      <Privacy id={id} session={session} />
    </div>
  );
}

/** Visitors' requests about their data (docs/privacy.md): each kind, when asked and answered, never who; and the retention job's last run. */
function Privacy({ id, session }: { id: string; session: Session }) {
  const { t, api } = useElement();
  const [overview, setOverview] = useState<PrivacyOverview | null | 'failed'>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = () => {
    setOverview(null);
    setAttempt((n) => n + 1);
  };
  useLoad(
    () => getPrivacyOverview(api, session),
    setOverview,
    () => setOverview('failed'),
    'read the privacy requests',
    [api, session, attempt],
  );
  const times = ecuadorTimes(t);
  const when = (at: string) => times.format(new Date(at));
  return (
    <section className="flex flex-col gap-3" aria-labelledby={`${id}-privacy`} part="privacy-requests">
      <h2 id={`${id}-privacy`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.team.privacy.title')}
      </h2>
      <p className="m-0 text-ink-muted">{t('agentArea.team.privacy.intro')}</p>
      {overview === null ? (
        <Loading />
      ) : overview === 'failed' ? (
        <Failed onRetry={retry} />
      ) : (
        <>
          <p className="m-0 text-ink" part="retention">
            {overview.retention
              ? t('agentArea.team.privacy.retention', {
                  at: when(overview.retention.at),
                  leads: overview.retention.outcome.leads,
                  mails: overview.retention.outcome.mails,
                  searches: overview.retention.outcome.pending_searches,
                })
              : t('agentArea.team.privacy.retentionNever')}
          </p>
          {overview.requests.length ? (
            <ul className="list-none m-0 p-0 flex flex-col gap-2">
              {overview.requests.map((r) => (
                <li key={`${r.kind}-${r.asked_at}`} className={card}>
                  <p className="m-0 font-semibold text-ink">{t(`agentArea.team.privacy.kinds.${r.kind}`)}</p>
                  <p className="m-0 text-sm text-ink-muted">
                    {t('agentArea.team.privacy.asked', { at: when(r.asked_at) })} ·{' '}
                    {r.answered_at
                      ? t('agentArea.team.privacy.answered', { at: when(r.answered_at) })
                      : t('agentArea.team.privacy.open')}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="m-0 text-ink-muted">{t('agentArea.team.privacy.none')}</p>
          )}
        </>
      )}
    </section>
  );
}

function AgentRow({ agent: a, session, onChanged }: { agent: TeamAgent; session: Session; onChanged: () => void }) {
  const { t, api } = useElement();
  const [sure, setSure] = useState(false);
  const [message, setMessage] = useState('');
  const deactivate = async () => {
    try {
      const done = await deactivateAgent(api, session, a.id);
      setMessage(t('agentArea.team.deactivated', { count: done.leads_moved }));
      setSure(false);
      onChanged();
    } catch (error) {
      console.error('[exp-agent-area] could not deactivate:', error);
      setMessage(t('agentArea.saveFailed'));
    }
  };
  return (
    <article className={`${card} gap-1`} part="team-agent" aria-label={a.name}>
      <p className="m-0 font-semibold text-ink">
        {a.name}{' '}
        {a.active ? null : <span className="font-normal text-ink-muted">· {t('agentArea.team.inactive')}</span>}
      </p>
      <p className="m-0 text-sm text-ink-muted [overflow-wrap:anywhere]">
        {a.email} · {t('agentArea.team.openLeads', { count: a.open_leads })} ·{' '}
        {a.to_follow_up ? (
          <span className="font-semibold text-danger" part="to-follow-up">
            {t('agentArea.team.toFollowUp', { count: a.to_follow_up })}
          </span>
        ) : null}
        {a.to_follow_up ? ' · ' : null}
        {t(a.signed_in ? 'agentArea.team.signedIn' : 'agentArea.team.neverSignedIn')}
      </p>
      {a.active ? (
        sure ? (
          <div className="flex flex-wrap gap-2">
            <button type="button" className={primary} onClick={() => void deactivate()}>
              {t('agentArea.team.deactivateSure', { name: a.name })}
            </button>
            <button type="button" className={secondary} onClick={() => setSure(false)}>
              {t('agentArea.visits.keep')}
            </button>
          </div>
        ) : (
          <button type="button" className={`${link} self-start`} onClick={() => setSure(true)}>
            {t('agentArea.team.deactivate')}
          </button>
        )
      ) : null}
      <p className="m-0 text-sm text-ink" role="status" aria-live="polite">
        {message}
      </p>
    </article>
  );
}

function Invite({ session, onInvited }: { session: Session; onInvited: () => void }) {
  const { t, api } = useElement();
  const [form, setForm] = useState({ email: '', firstName: '', lastName: '' });
  const [message, setMessage] = useState('');
  const invite = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const done = await inviteAgent(api, session, form);
      if ('refused' in done) setMessage(t(`agentArea.team.inviteRefused.${done.refused}`));
      else {
        setMessage(t('agentArea.team.invited', { email: form.email }));
        setForm({ email: '', firstName: '', lastName: '' });
        onInvited();
      }
    } catch (error) {
      console.error('[exp-agent-area] could not invite:', error);
      setMessage(t('agentArea.saveFailed'));
    }
  };
  const input = (name: keyof typeof form, type = 'text') => (
    <label className="flex flex-col gap-1 font-semibold text-ink">
      {t(`agentArea.team.field.${name}`)}
      <input
        type={type}
        required={name !== 'lastName'}
        value={form[name]}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
        className={`${field} font-normal`}
      />
    </label>
  );
  return (
    <form onSubmit={invite} className={card} part="invite">
      <h3 className="m-0 text-lg font-semibold text-ink">{t('agentArea.team.invite')}</h3>
      {input('email', 'email')}
      {input('firstName')}
      {input('lastName')}
      <button type="submit" className={primary}>
        {t('agentArea.team.inviteButton')}
      </button>
      <p className="m-0 text-sm text-ink" role="status" aria-live="polite">
        {message}
      </p>
    </form>
  );
}

const EMPTY_RULE = (agentId: number): RoutingRule => ({
  place: null,
  property_type: null,
  min_price: null,
  max_price: null,
  source: null,
  agent_id: agentId,
});

function RoutingEditor({ id, session, agents }: { id: string; session: Session; agents: TeamAgent[] }) {
  const { t, api } = useElement();
  const own = useId();
  const [routing, setRouting] = useState<Routing | null>(null);
  const [message, setMessage] = useState('');
  // (a routing that cannot be read is not shown: the team's page says the rest)
  useLoad(
    () => getRouting(api, session),
    setRouting,
    () => {},
    'load the routing',
    [api, session],
  );
  if (!routing) return null;
  const change = (i: number, part: Partial<RoutingRule>) =>
    setRouting({ ...routing, rules: routing.rules.map((r, j) => (j === i ? { ...r, ...part } : r)) });
  const move = (i: number, by: -1 | 1) => {
    const rules = [...routing.rules];
    const [rule] = rules.splice(i, 1);
    rules.splice(i + by, 0, rule!);
    setRouting({ ...routing, rules });
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const done = await saveRouting(api, session, routing);
      if ('refused' in done) {
        const [field, position] = done.refused.split(':');
        setMessage(t(`agentArea.team.routingRefused.${field}`, { position }));
      } else {
        setRouting(done);
        setMessage(t('agentArea.team.routingSaved'));
      }
    } catch (error) {
      console.error('[exp-agent-area] could not save the routing:', error);
      setMessage(t('agentArea.saveFailed'));
    }
  };
  const text = (i: number, name: 'place' | 'property_type' | 'source', value: string | null) => (
    <label className="flex flex-col gap-1 text-ink grow basis-[160px]">
      {t(`agentArea.team.rule.${name}`)}
      <input value={value ?? ''} onChange={(e) => change(i, { [name]: e.target.value || null })} className={field} />
    </label>
  );
  const price = (i: number, name: 'min_price' | 'max_price', value: number | null) => (
    <label className="flex flex-col gap-1 text-ink grow basis-[120px]">
      {t(`agentArea.team.rule.${name}`)}
      <input
        type="number"
        min={0}
        step={1000}
        value={value ?? ''}
        onChange={(e) => change(i, { [name]: e.target.value === '' ? null : Number(e.target.value) })}
        className={field}
      />
    </label>
  );

  return (
    <form onSubmit={save} className="flex flex-col gap-3" part="routing" aria-labelledby={`${id}-routing`}>
      <h2 id={`${id}-routing`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.team.routing')}
      </h2>
      <p className="m-0 text-ink-muted">{t('agentArea.team.routingIntro')}</p>
      <ol className="list-none m-0 p-0 flex flex-col gap-3">
        {routing.rules.map((rule, i) => (
          <li key={i}>
            <fieldset className={`${card} m-0`} part="rule">
              <legend className="px-1 font-semibold text-ink">{t('agentArea.team.ruleN', { n: i + 1 })}</legend>
              <div className="flex flex-wrap gap-2">
                {text(i, 'place', rule.place)}
                {text(i, 'property_type', rule.property_type)}
                {price(i, 'min_price', rule.min_price)}
                {price(i, 'max_price', rule.max_price)}
                {text(i, 'source', rule.source)}
              </div>
              <SelectField
                id={`${own}-rule-${i}-agent`}
                label={t('agentArea.team.rule.agent')}
                value={String(rule.agent_id)}
                onChange={(v) => change(i, { agent_id: Number(v) })}
                {...choice}
                options={agents.map((a) => ({ value: String(a.id), label: a.name }))}
              />
              <div className="flex flex-wrap gap-2">
                <button type="button" className={secondary} disabled={i === 0} onClick={() => move(i, -1)}>
                  {t('agentArea.team.up')}
                </button>
                <button
                  type="button"
                  className={secondary}
                  disabled={i === routing.rules.length - 1}
                  onClick={() => move(i, 1)}
                >
                  {t('agentArea.team.down')}
                </button>
                <button
                  type="button"
                  className={link}
                  onClick={() => setRouting({ ...routing, rules: routing.rules.filter((_, j) => j !== i) })}
                >
                  {t('agentArea.team.removeRule', { n: i + 1 })}
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className={`${secondary} self-start`}
        disabled={!agents.length}
        onClick={() => setRouting({ ...routing, rules: [...routing.rules, EMPTY_RULE(agents[0]!.id)] })}
      >
        {t('agentArea.team.addRule')}
      </button>
      <SelectField
        id={`${own}-default`}
        label={t('agentArea.team.default')}
        value={routing.default}
        onChange={(v) => setRouting({ ...routing, default: v === 'spread' ? 'spread' : 'team' })}
        {...choice}
        options={[
          { value: 'team', label: t('agentArea.team.defaultTeam') },
          { value: 'spread', label: t('agentArea.team.defaultSpread') },
        ]}
      />
      <button type="submit" className={primary}>
        {t('agentArea.team.saveRouting')}
      </button>
      <p className="m-0 text-ink" role="status" aria-live="polite" part="routing-message">
        {message}
      </p>
    </form>
  );
}
