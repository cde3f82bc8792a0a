/**
 * Her visits' calendar (docs/agent-area.md "Visits"): a day or a week in Ecuador's time, each
 * request with its proposed times and each confirmed visit, confirmed, moved to another of her open
 * times, or cancelled here with the same effects as the mails' links (public.act_on_visit: both
 * sides' mails, the CRM's webhook, the lead to "visit booked").
 */
import texts from 'virtual:exp-texts/lazy/agent-area/visits';
import type { Session } from '@supabase/auth-js';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { now } from '../../core/clock.ts';
import { ecuadorDay, ecuadorDaysAfter, ecuadorMidnight } from '../../core/protocol/calendar.ts';
import { telHref } from '../../core/protocol/format.ts';
import { ECUADOR_TIME_ZONE, formatVisitTime } from '../../core/protocol/visit-time.ts';
import {
  actOnVisit,
  getMyOpenTimes,
  getMyVisits,
  type CalendarVisit,
  type VisitResult,
} from '../lib/data/agent-calendar.ts';
import { useElement } from '../lib/element.tsx';
import { choice, card, field, label, link, primary, secondary } from './ui.ts';
import { FormField } from '../lib/ui/form-field.tsx';
import { SelectField } from '../lib/ui/select-field.tsx';
import { ListStatus } from './status.tsx';
import { addTexts } from '../lib/i18n.ts';

await addTexts(texts);

/** The Monday of the week a day is in. */
const mondayOf = (day: string) => ecuadorDaysAfter(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));

/** The day a visit shows on: its confirmed time's, else its first proposed time in the range. */
function dayOf(v: CalendarVisit, from: Date, to: Date): string {
  if (v.visit_start) return ecuadorDay(v.visit_start);
  const inRange = v.proposed.find((p) => new Date(p) >= from && new Date(p) < to);
  return ecuadorDay(inRange ?? v.proposed[0] ?? from);
}

export function Visits({ id, session }: { id: string; session: Session }) {
  const { t, api, lang } = useElement();
  const [view, setView] = useState<'week' | 'day'>('week');
  const [anchor, setAnchor] = useState(() => ecuadorDay());
  const [visits, setVisits] = useState<CalendarVisit[] | null>(null);
  const [failed, setFailed] = useState(false);
  const first = view === 'week' ? mondayOf(anchor) : anchor;
  const length = view === 'week' ? 7 : 1;
  const days = useMemo(() => Array.from({ length }, (_, i) => ecuadorDaysAfter(first, i)), [first, length]);
  const range = useMemo(
    () => ({ from: ecuadorMidnight(first), to: ecuadorMidnight(ecuadorDaysAfter(first, length)) }),
    [first, length],
  );

  const load = useCallback(
    (signal?: AbortSignal) =>
      getMyVisits(api, session, range.from, range.to, signal).then(
        (rows) => {
          setVisits(rows);
          setFailed(false);
        },
        (error: unknown) => {
          if (signal?.aborted) return;
          console.error('[exp-agent-area] could not load the visits:', error);
          setFailed(true);
        },
      ),
    [api, session, range],
  );
  useEffect(() => {
    const controller = new AbortController();
    setVisits(null);
    setFailed(false);
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const byDay = useMemo(() => {
    const map = new Map<string, CalendarVisit[]>();
    for (const v of visits ?? []) {
      const day = dayOf(v, range.from, range.to);
      map.set(day, [...(map.get(day) ?? []), v]);
    }
    return map;
  }, [visits, range]);
  const dayName = (day: string, part: 'day' | 'shortDay' = 'day') =>
    formatVisitTime(new Date(ecuadorMidnight(day).getTime() + 12 * 3_600_000), lang, ECUADOR_TIME_ZONE, part);
  const title =
    view === 'week'
      ? t('agentArea.visits.weekOf', { from: dayName(days[0]!, 'shortDay'), to: dayName(days.at(-1)!, 'shortDay') })
      : dayName(anchor);

  return (
    <section className="flex flex-col gap-4" part="visits" aria-labelledby={`${id}-visits`}>
      <h2 id={`${id}-visits`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.visits.title')}
      </h2>
      <div className="flex flex-wrap items-center gap-2" part="calendar-controls">
        <div role="group" aria-label={t('agentArea.visits.viewLabel')} className="flex gap-1">
          {(['day', 'week'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={view === v ? primary : secondary}
            >
              {t(`agentArea.visits.view.${v}`)}
            </button>
          ))}
        </div>
        <div className="flex gap-1">
          <button
            type="button"
            className={secondary}
            onClick={() => setAnchor(ecuadorDaysAfter(anchor, view === 'week' ? -7 : -1))}
            aria-label={t(`agentArea.visits.previous.${view}`)}
          >
            ‹
          </button>
          <button type="button" className={secondary} onClick={() => setAnchor(ecuadorDay())}>
            {t('agentArea.visits.today')}
          </button>
          <button
            type="button"
            className={secondary}
            onClick={() => setAnchor(ecuadorDaysAfter(anchor, view === 'week' ? 7 : 1))}
            aria-label={t(`agentArea.visits.next.${view}`)}
          >
            ›
          </button>
        </div>
      </div>
      <h3 className="m-0 text-lg font-semibold text-ink" aria-live="polite" part="range">
        {title}
      </h3>
      <p className="m-0 text-sm text-ink-muted">{t('agentArea.visits.timeZone')}</p>
      <ListStatus
        counted={visits && t('agentArea.visits.count', { count: visits.length })}
        failed={failed}
        part="visits-count"
        onRetry={() => void load()}
      />
      <ol className="list-none m-0 p-0 flex flex-col gap-4" part="days">
        {days.map((day) => {
          const those = byDay.get(day) ?? [];
          if (view === 'week' && !those.length) return null;
          return (
            <li key={day} className="flex flex-col gap-2" part="day">
              <h4 className="m-0 font-semibold text-ink first-letter:uppercase">{dayName(day)}</h4>
              {those.length ? (
                <ul className="list-none m-0 p-0 flex flex-col gap-3">
                  {those.map((v) => (
                    <li key={v.id}>
                      <VisitCard visit={v} session={session} onChanged={() => void load()} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="m-0 text-ink-muted">{t('agentArea.visits.none')}</p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function VisitCard({
  visit: v,
  session,
  onChanged,
}: {
  visit: CalendarVisit;
  session: Session;
  onChanged: () => void;
}) {
  const { t, api, lang } = useElement();
  const id = useId();
  const [place, setPlace] = useState('');
  const [open, setOpen] = useState<string[] | null>(null);
  const [other, setOther] = useState('');
  const [sure, setSure] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<VisitResult | 'failed' | ''>('');
  const time = (at: string) => formatVisitTime(at, lang, ECUADOR_TIME_ZONE, 'time');
  const when = (at: string) => formatVisitTime(at, lang, ECUADOR_TIME_ZONE, 'both');
  const future = v.proposed.map((p, i) => ({ at: p, choice: i + 1 })).filter((p) => new Date(p.at).getTime() > now());

  const act = async (action: 'confirm' | 'propose' | 'cancel', extra: { choice?: number; startAt?: string } = {}) => {
    setBusy(true);
    try {
      const r = await actOnVisit(api, session, { id: v.id, action, place, ...extra });
      setResult(r);
      setSure(false);
      if (r === 'confirmed' || r === 'cancelled') onChanged();
    } catch (error) {
      console.error('[exp-agent-area] could not act on the visit:', error);
      setResult('failed');
    } finally {
      setBusy(false);
    }
  };
  const loadOpen = async () => {
    try {
      const times = await getMyOpenTimes(api, session, v.id);
      setOpen(times);
      setOther(times[0] ?? '');
    } catch (error) {
      console.error('[exp-agent-area] could not load the open times:', error);
      setResult('failed');
    }
  };

  return (
    <article className={card} part={`visit visit-${v.status}`} aria-labelledby={`${id}-what`}>
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h5 id={`${id}-what`} className="m-0 text-base font-semibold text-ink">
          {v.visit_start && v.visit_end
            ? `${time(v.visit_start)}–${time(v.visit_end)}`
            : t('agentArea.visits.requestedTimes', { count: v.proposed.length })}{' '}
          · {v.title ?? ''}
        </h5>
        <span className="rounded-full border border-line px-2 text-sm text-ink" part="visit-status">
          {t(`agentArea.visits.status.${v.status}`)}
        </span>
      </header>
      {v.address ? <p className="m-0 text-ink-muted">{v.address}</p> : null}
      <p className="m-0 text-ink">
        {t('agentArea.visits.who', { name: v.name, mode: t(`agentArea.visits.mode.${v.mode}`) })}
        {v.agent_name ? ` · ${t('agentArea.visits.agent', { name: v.agent_name })}` : ''}
      </p>
      {v.message ? <p className="m-0 text-ink whitespace-pre-line">{v.message}</p> : null}
      {v.location && v.status === 'confirmed' ? (
        <p className="m-0 text-ink">{t('agentArea.visits.where', { place: v.location })}</p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {v.phone ? (
          <a className={link} href={telHref(v.phone)}>
            {t('agentArea.call')}
          </a>
        ) : null}
        <a className={link} href={`mailto:${v.email}`}>
          {t('agentArea.write')}
        </a>
      </div>
      {v.status === 'requested' ? (
        <div className="flex flex-col gap-2" part="visit-actions">
          <FormField
            controlId={`${id}-place`}
            label={t(v.mode === 'video' ? 'agentArea.visits.placeVideo' : 'agentArea.visits.placeInPerson')}
            labelClassName={label}
          >
            <input
              id={`${id}-place`}
              value={place}
              maxLength={300}
              onChange={(e) => setPlace(e.target.value)}
              className={field}
              placeholder={v.mode === 'in_person' ? (v.address ?? '') : ''}
            />
          </FormField>
          {future.length ? (
            future.map((p) => (
              <button
                key={p.choice}
                type="button"
                className={primary}
                disabled={busy}
                onClick={() => void act('confirm', { choice: p.choice })}
              >
                {t('agentArea.visits.confirmAt', { time: when(p.at) })}
              </button>
            ))
          ) : (
            <p className="m-0 text-ink-muted">{t('agentArea.visits.allPast')}</p>
          )}
          {open === null ? (
            <button type="button" className={secondary} disabled={busy} onClick={() => void loadOpen()}>
              {t('agentArea.visits.proposeOther')}
            </button>
          ) : open.length ? (
            <div className="flex flex-col gap-2">
              <SelectField
                id={`${id}-other`}
                label={t('agentArea.visits.otherTime')}
                value={other}
                onChange={setOther}
                {...choice}
                options={open.map((at) => ({ value: at, label: when(at) }))}
              />
              <button
                type="button"
                className={primary}
                disabled={busy || !other}
                onClick={() => void act('propose', { startAt: other })}
              >
                {t('agentArea.visits.confirmOther')}
              </button>
            </div>
          ) : (
            <p className="m-0 text-ink-muted">{t('agentArea.visits.noOpenTimes')}</p>
          )}
        </div>
      ) : null}
      {v.status !== 'cancelled' ? (
        sure ? (
          <div className="flex flex-wrap gap-2">
            <button type="button" className={primary} disabled={busy} onClick={() => void act('cancel')}>
              {t('agentArea.visits.cancelSure')}
            </button>
            <button type="button" className={secondary} onClick={() => setSure(false)}>
              {t('agentArea.visits.keep')}
            </button>
          </div>
        ) : (
          <button type="button" className={link} onClick={() => setSure(true)}>
            {t(v.status === 'requested' ? 'agentArea.visits.decline' : 'agentArea.visits.cancel')}
          </button>
        )
      ) : null}
      <p className="m-0 text-sm text-ink" role="status" aria-live="polite" part="visit-result">
        {result ? t(`agentArea.visits.result.${result}`) : ''}
      </p>
    </article>
  );
}
