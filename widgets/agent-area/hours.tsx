/**
 * Her visiting hours (docs/agent-area.md "Visits"): the periods of each day of the week in which a
 * visit may start and end, and her days off; saved at once (public.set_visiting_hours), they bound
 * every new request from then on. A refusal says which rule (the database's hint), and nothing is
 * changed.
 */
import texts from 'virtual:exp-texts/lazy/agent-area/hours';
import type { Session } from '@supabase/auth-js';
import { useState, type FormEvent } from 'react';
import { ecuadorDay } from '../../core/protocol/calendar.ts';
import { getMyHours, setMyHours, type VisitingHours, type VisitingPeriod } from '../lib/data/agent-calendar.ts';
import { useElement } from '../lib/element.tsx';
import { card, field, link, primary, secondary } from './ui.ts';
import { addTexts } from '../lib/i18n.ts';
import { saveWith, useLoad } from './use-load.ts';

await addTexts(texts);

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** A weekday's name: 1 January 2024 was a Monday. */
const weekdayName = (weekday: number, lang: string) =>
  new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-GB', { weekday: 'long', timeZone: 'UTC' }).format(
    Date.UTC(2024, 0, weekday),
  );
const dayName = (day: string, lang: string) =>
  new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );

export function Hours({ id, session }: { id: string; session: Session }) {
  const { t, api, lang } = useElement();
  const [saved, setSaved] = useState<VisitingHours | null | undefined>(undefined);
  const [hours, setHours] = useState<VisitingPeriod[]>([]);
  const [daysOff, setDaysOff] = useState<string[]>([]);
  const [newDay, setNewDay] = useState('');
  /** the locale key of what the last load or save came to */
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const show = (h: VisitingHours | null) => {
    setSaved(h);
    if (h) {
      setHours(h.hours);
      setDaysOff(h.days_off);
    }
  };
  useLoad(
    () => getMyHours(api, session),
    show,
    () => setMessage('agentArea.failed'),
    'load the hours',
    [api, session],
  );

  const change = (i: number, part: Partial<VisitingPeriod>) =>
    setHours(hours.map((h, j) => (j === i ? { ...h, ...part } : h)));
  const save = (e: FormEvent) => {
    e.preventDefault();
    return saveWith(
      () => setMyHours(api, session, hours, daysOff),
      {
        busy: setBusy,
        message: setMessage,
        refusals: 'agentArea.hours.refused',
        saved: 'agentArea.hours.saved',
        what: 'the hours',
      },
      show,
    );
  };

  if (saved === undefined)
    return (
      <p className="m-0 text-ink" role="status">
        {t(message || 'agentArea.loading')}
      </p>
    );
  if (saved === null) return <p className="m-0 text-ink">{t('agentArea.hours.notAnAgent')}</p>;
  return (
    <form className="flex flex-col gap-4" onSubmit={save} part="hours" aria-labelledby={`${id}-hours`}>
      <h2 id={`${id}-hours`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.hours.title')}
      </h2>
      <p className="m-0 text-ink-muted">{t(saved.own ? 'agentArea.hours.intro' : 'agentArea.hours.introDefault')}</p>
      {WEEKDAYS.map((weekday) => {
        const periods = hours.map((h, i) => ({ h, i })).filter(({ h }) => h.weekday === weekday);
        const name = weekdayName(weekday, lang);
        return (
          <fieldset key={weekday} className={`${card} m-0`} part="weekday">
            <legend className="px-1 font-semibold text-ink first-letter:uppercase">{name}</legend>
            {periods.length ? null : <p className="m-0 text-ink-muted">{t('agentArea.hours.closed')}</p>}
            {periods.map(({ h, i }) => (
              <div key={i} className="flex flex-wrap items-end gap-2">
                {(['opens', 'closes'] as const).map((end) => (
                  <label key={end} className="flex flex-col gap-1 text-ink grow basis-[128px]">
                    {t(end === 'opens' ? 'agentArea.hours.opens' : 'agentArea.hours.closes')}
                    <input
                      type="time"
                      step={1800}
                      required
                      value={h[end]}
                      onChange={(e) => change(i, { [end]: e.target.value })}
                      className={field}
                    />
                  </label>
                ))}
                <button
                  type="button"
                  className={`${link} h-12`}
                  onClick={() => setHours(hours.filter((_, j) => j !== i))}
                  aria-label={t('agentArea.hours.remove', { day: name, opens: h.opens, closes: h.closes })}
                >
                  {t('agentArea.hours.removeShort')}
                </button>
              </div>
            ))}
            <button
              type="button"
              className={link}
              onClick={() => setHours([...hours, { weekday, opens: '09:00', closes: '13:00' }])}
            >
              {t('agentArea.hours.add', { day: name })}
            </button>
          </fieldset>
        );
      })}
      <fieldset className={`${card} m-0`} part="days-off">
        <legend className="px-1 font-semibold text-ink">{t('agentArea.hours.daysOff')}</legend>
        {daysOff.length ? (
          <ul className="list-none m-0 p-0 flex flex-col gap-2">
            {daysOff.map((day) => (
              <li key={day} className="flex items-center justify-between gap-2">
                <span className="text-ink first-letter:uppercase">{dayName(day, lang)}</span>
                <button
                  type="button"
                  className={link}
                  onClick={() => setDaysOff(daysOff.filter((d) => d !== day))}
                  aria-label={t('agentArea.hours.removeDay', { day: dayName(day, lang) })}
                >
                  {t('agentArea.hours.removeShort')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="m-0 text-ink-muted">{t('agentArea.hours.noDaysOff')}</p>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-ink grow">
            {t('agentArea.hours.dayOff')}
            <input
              type="date"
              min={ecuadorDay()}
              value={newDay}
              onChange={(e) => setNewDay(e.target.value)}
              className={field}
            />
          </label>
          <button
            type="button"
            className={secondary}
            disabled={!newDay}
            onClick={() => {
              if (newDay && !daysOff.includes(newDay)) setDaysOff([...daysOff, newDay].sort());
              setNewDay('');
            }}
          >
            {t('agentArea.hours.addDay')}
          </button>
        </div>
      </fieldset>
      <button type="submit" className={primary} disabled={busy}>
        {t('agentArea.hours.save')}
      </button>
      <p className="m-0 text-ink" role="status" aria-live="polite" part="hours-message">
        {message ? t(message) : ''}
      </p>
    </form>
  );
}
