/**
 * Her leads (docs/agent-area.md "The page"): newest first, filtered by status and by what they asked
 * about, each with where it came from, one tap to call, write or WhatsApp (a message already
 * written in the lead's language), and its status, follow-up day and a note, saved in one call
 * (each lead's card: ./lead-card.tsx). Her newest 500 first, older ones a page at a time, and any of
 * them by her search, a status, what they asked about or (the team's) whose they are: the database
 * finds them (public.my_leads); where they came from and a follow-up day that has come are read here
 * on the leads she has. Read again every minute while the page is visible, so a new
 * lead shows without a reload.
 */
import type { Session } from '@supabase/auth-js';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  firstLeads,
  getMyAlertLeads,
  getMyLeads,
  LEAD_STATUSES,
  leadSource,
  leadsCsv,
  type Lead,
  LEAD_KINDS,
  type LeadKind,
  type LeadsAsk,
  type LeadStatus,
  type AlertLead,
} from '../lib/data/agent-area.ts';
import type { TeamAgent } from '../lib/data/agent-team.ts';
import { addOlder, refreshLeads } from '../lib/data/lead-pages.ts';
import { describeSearch, frequencyLabel } from '../../core/protocol/alerts.ts';
import type { FilterArgs } from '../../core/protocol/filters.ts';
import { useElement } from '../lib/element.tsx';
import { LeadCard } from './lead-card.tsx';
import { MorningMail } from './morning-mail.tsx';
import { FormField } from '../lib/ui/form-field.tsx';
import { SelectField } from '../lib/ui/select-field.tsx';
import { card, choice, field, label, link, secondary } from './ui.ts';
import { ListStatus } from './status.tsx';
import { ecuadorDay } from '../../core/protocol/calendar.ts';
import { ecuadorTimes, type EcuadorTimes } from './when.ts';
import { followUpState } from '../../core/protocol/follow-up.ts';

const REFRESH_MS = 60_000;
/** the follow-up states her "follow-up due" filter keeps: a day gone by, and today */
const DUE = new Set<string | null>(['overdue', 'today']);
/** how long after her last key the search is asked for */
const SEARCH_AFTER_MS = 350;
/** the cards shown at first, and added by "Show more" */
const PAGE = 25;

/**
 * `team`: the office's agents when she is the team's (each lead then says whose it is, and can be
 * given to another); `morningMail`: an agent's choice of her morning mail, hers to change (./morning-mail.tsx)
 */
export function Leads({
  id,
  session,
  phoneCountryCode,
  team,
  morningMail,
}: {
  id: string;
  session: Session;
  phoneCountryCode: string;
  team: TeamAgent[] | null;
  morningMail: { wanted: boolean; onChange: (wanted: boolean) => void } | null;
}) {
  const { t, api } = useElement();
  // what she has of her leads for what was asked (`query`); `more`: older ones are still to be asked for
  const [had, setHad] = useState<{ leads: Lead[]; more: boolean; query: string } | null>(null);
  const leads = had?.leads ?? null;
  const [failed, setFailed] = useState(false);
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState('');
  // a status, or 'due': those whose follow-up day has come (today or before), the longest due first
  const [status, setStatus] = useState<LeadStatus | 'due' | ''>('');
  // (the team's) one agent's leads, 0 its own, null everyone's
  const [owner, setOwner] = useState<number | null>(null);
  const [kind, setKind] = useState<LeadKind | ''>('');
  // what the database is asked for: her search, a status ('due' is the day's, read here), a kind, whose
  const ask = useMemo<LeadsAsk>(
    () => ({
      ...(searched ? { search: searched } : {}),
      ...(status && status !== 'due' ? { status } : {}),
      ...(kind ? { kind } : {}),
      ...(owner === null ? {} : { ownerId: owner }),
    }),
    [searched, status, kind, owner],
  );
  const query = JSON.stringify(ask);
  // the ask the answers are for: an answer to an earlier one is dropped
  const asked = useRef(query);
  asked.current = query;
  const [fetching, setFetching] = useState(false);
  const [source, setSource] = useState<string | null>(null);
  const [alerts, setAlerts] = useState<AlertLead[]>([]);

  const load = useCallback(
    (signal?: AbortSignal, first = false) =>
      (first && query === '{}'
        ? firstLeads(api, session, signal)
        : Promise.all([getMyLeads(api, session, signal, ask), getMyAlertLeads(api, session, signal)])
      ).then(
        ([rows, subscriptions]) => {
          if (asked.current !== query) return;
          setHad((before) => ({ ...refreshLeads(before?.query === query ? before : null, rows), query }));
          setAlerts(subscriptions);
          setFailed(false);
        },
        (error: unknown) => {
          if (signal?.aborted) return;
          console.error('[exp-agent-area] could not load the leads:', error);
          setFailed(true);
        },
      ),
    [api, session, ask, query],
  );
  useEffect(() => {
    const timer = setTimeout(() => setSearched(typed.trim()), SEARCH_AFTER_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal, true);
    const timer = setInterval(() => document.visibilityState !== 'hidden' && void load(), REFRESH_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [load]);

  const shown = useMemo(() => {
    const today = ecuadorDay();
    const kept = (leads ?? []).filter(
      (l) =>
        (!status || (status === 'due' ? DUE.has(followUpState(l, today)) : l.status === status)) &&
        (!kind || l.kind === kind) &&
        (source === null || leadSource(l) === source),
    );
    return status === 'due' ? kept.sort((a, b) => a.follow_up_on!.localeCompare(b.follow_up_on!)) : kept;
  }, [leads, status, kind, source]);
  // the sources her leads came from, most leads first
  const sources = useMemo(() => {
    const counts = new Map<string, number>();
    for (const l of leads ?? []) counts.set(leadSource(l), (counts.get(leadSource(l)) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([s]) => s);
  }, [leads]);
  // the first PAGE cards, then PAGE more on request: a phone renders 25 cards, not her 500
  const [listed, setListed] = useState(PAGE);
  useEffect(() => setListed(PAGE), [status, kind, source, query]);
  /** the next page of her leads, older than the last she has */
  const older = () => {
    const last = leads?.at(-1);
    if (!last || fetching) return;
    setFetching(true);
    getMyLeads(api, session, undefined, { ...ask, olderThan: last })
      .then(
        (rows) => {
          if (asked.current !== query) return;
          setHad((before) => before && { ...addOlder(before.leads, rows), query });
          setListed(listed + PAGE);
          setFailed(false);
        },
        (error: unknown) => {
          console.error('[exp-agent-area] could not load older leads:', error);
          setFailed(true);
        },
      )
      .finally(() => setFetching(false));
  };
  /** what she sees, as a spreadsheet's file */
  const download = () => {
    const csv = leadsCsv(
      [
        'received_at',
        'name',
        'email',
        'phone',
        'kind',
        'about',
        'message',
        'status',
        'follow_up_on',
        'element',
        'page',
        'campaign',
      ],
      shown.map((l) => [
        l.received_at,
        l.name,
        l.email,
        l.phone,
        l.kind,
        l.property_title,
        l.message,
        l.status,
        l.follow_up_on,
        l.element,
        l.page_url,
        l.utm?.utm_campaign,
      ]),
    );
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    link.download = 'leads.csv';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  const dates = useMemo(() => ecuadorTimes(t), [t]);
  // by status, by what the lead asked about, by where it came from (a source may be '': unknown)
  const filters = [
    {
      key: 'status',
      label: t('agentArea.filterStatus'),
      value: status,
      onChange: (v: string) => setStatus(v as LeadStatus | 'due' | ''),
      options: [
        { value: '', label: t('agentArea.allStatuses') },
        { value: 'due', label: t('agentArea.followUpDue') },
        ...LEAD_STATUSES.map((s) => ({ value: s, label: t(`agentArea.status.${s}`) })),
      ],
    },
    // (the team's: whose they are)
    ...(team
      ? [
          {
            key: 'owner',
            label: t('agentArea.filterOwner'),
            value: owner === null ? '*' : String(owner),
            onChange: (v: string) => setOwner(v === '*' ? null : Number(v)),
            options: [
              { value: '*', label: t('agentArea.allOwners') },
              { value: '0', label: t('agentArea.teamsOwn') },
              ...team.map((a) => ({ value: String(a.id), label: a.name })),
            ],
          },
        ]
      : []),
    {
      key: 'kind',
      label: t('agentArea.filterKind'),
      value: kind,
      onChange: (v: string) => setKind(v as LeadKind | ''),
      options: [
        { value: '', label: t('agentArea.allKinds') },
        ...LEAD_KINDS.map((k) => ({ value: k, label: t(`agentArea.kind.${k}`) })),
      ],
    },
    {
      key: 'source',
      label: t('agentArea.filterSource'),
      value: source === null ? '*' : `=${source}`,
      onChange: (v: string) => setSource(v === '*' ? null : v.slice(1)),
      options: [
        { value: '*', label: t('agentArea.allSources') },
        ...sources.map((s) => ({ value: `=${s}`, label: s || t('agentArea.unknownSource') })),
      ],
    },
  ];

  return (
    <section className="flex flex-col gap-4" part="leads" aria-labelledby={`${id}-leads`}>
      <h2 id={`${id}-leads`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.leadsTitle')}
      </h2>
      {/* any of her leads, however old, by a name, an address, a phone or words from its message */}
      <FormField controlId={`${id}-search`} label={t('agentArea.search')} labelClassName={label}>
        <input
          id={`${id}-search`}
          type="search"
          className={field}
          value={typed}
          maxLength={100}
          autoComplete="off"
          enterKeyHint="search"
          aria-describedby={`${id}-search-hint`}
          onChange={(e) => setTyped(e.target.value)}
          part="search"
        />
        <p id={`${id}-search-hint`} className="m-0 text-sm text-ink-muted">
          {t('agentArea.searchHint')}
        </p>
      </FormField>
      {/* the filters side by side where there is room (a desk), one under the other on a phone */}
      <div className={`grid grid-cols-2 gap-3 ${team ? 'cq-lg:grid-cols-4' : 'cq-lg:grid-cols-3'}`} part="filters">
        {filters.map(({ key, ...f }) => (
          <SelectField key={key} id={`${id}-${key}`} part={`${key}-filter`} {...choice} {...f} />
        ))}
      </div>
      <button type="button" className={link} onClick={download} disabled={!shown.length} part="export">
        {t('agentArea.export')}
      </button>
      {morningMail ? <MorningMail session={session} {...morningMail} /> : null}
      <ListStatus
        counted={
          had?.query !== query
            ? null
            : !had.more
              ? t('agentArea.count', { count: shown.length })
              : shown.length === had.leads.length
                ? t('agentArea.countNewest', { count: shown.length })
                : t('agentArea.countAmong', { count: shown.length, loaded: had.leads.length })
        }
        failed={failed}
        part="count"
        onRetry={() => void load()}
      />
      {/* none yet says where leads come from; none among the filtered, that the filters hide them */}
      {had?.query === query && !shown.length ? (
        <p className="m-0 text-ink-muted" part="empty">
          {had.leads.length
            ? t('agentArea.noneMatch')
            : searched
              ? t('agentArea.noneFound', { search: searched })
              : query !== '{}'
                ? t('agentArea.noneMatch')
                : t('agentArea.noLeadsYet')}
        </p>
      ) : null}
      <ul className="list-none m-0 p-0 flex flex-col gap-4" part="list">
        {shown.slice(0, listed).map((lead) => (
          <li key={lead.id}>
            <LeadCard
              lead={lead}
              when={dates.format(new Date(lead.received_at))}
              phoneCountryCode={phoneCountryCode}
              session={session}
              team={team}
              onSaved={() => void load()}
            />
          </li>
        ))}
      </ul>
      {/* the cards she has, 25 more at a time; past them, her older leads from the database */}
      {shown.length > listed ? (
        <button
          type="button"
          className={`${secondary} self-start`}
          onClick={() => setListed(listed + PAGE)}
          part="more"
        >
          {t('agentArea.showMore', { count: Math.min(PAGE, shown.length - listed) })}
        </button>
      ) : had?.more ? (
        <button type="button" className={`${secondary} self-start`} onClick={older} disabled={fetching} part="older">
          {t('agentArea.showOlder')}
        </button>
      ) : null}
      {/* (they come with her leads: before, or when neither could be read, nothing is known of them) */}
      {leads ? <Subscriptions alerts={alerts} dates={dates} /> : null}
    </section>
  );
}

/** Her confirmed alert subscriptions: who follows what, how often, since when, from where. */
function Subscriptions({ alerts, dates }: { alerts: AlertLead[]; dates: EcuadorTimes }) {
  const { t } = useElement();
  const id = useId();
  return (
    <section className="flex flex-col gap-3" aria-labelledby={`${id}-alerts`} part="subscriptions">
      <h3 id={`${id}-alerts`} className="m-0 text-xl font-bold text-ink">
        {t('agentArea.alerts.title', { count: alerts.length })}
      </h3>
      {alerts.length ? null : <p className="m-0 text-ink-muted">{t('agentArea.alerts.none')}</p>}
      <ul className="list-none m-0 p-0 flex flex-col gap-2">
        {alerts.map((a) => {
          const what = a.home
            ? t('agentArea.alerts.home')
            : a.market
              ? t('agentArea.alerts.market', { name: a.market.name ?? '' })
              : describeSearch(a.filters as FilterArgs, t);
          const source = [a.element, a.page_url, a.utm?.utm_campaign].filter(Boolean).join(' · ');
          return (
            <li key={a.id} className={`${card} gap-1`} part="subscription">
              <p className="m-0 font-semibold text-ink">{what}</p>
              <p className="m-0 text-ink">
                <a className={link} href={`mailto:${a.email}`}>
                  {a.email}
                </a>{' '}
                · {frequencyLabel(a.frequency, t)} ·{' '}
                {t('agentArea.alerts.since', { date: dates.format(new Date(a.confirmed_at)) })}
                {a.status === 'paused' ? ` · ${t('agentArea.alerts.paused')}` : ''}
              </p>
              {source ? (
                <p className="m-0 text-sm text-ink-muted break-words">{t('agentArea.source', { source })}</p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
