/**
 * "Schedule a visit" (docs/visits.md), in the detail dialog and on the listing's page: in person or
 * by video call, up to three times among those open in the calendar of the agent the request goes
 * to (public.visit_times: the agent's hours, two hours to fourteen days ahead, never over a
 * confirmed visit), shown in the visitor's time zone with Ecuador's beside them when the clocks
 * differ; then the inquiry form's contact fields. The request is an inquiry with a `visit` part, so
 * it goes where an inquiry about the listing goes. Times booked meanwhile are said and taken out.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  browserTimeZone,
  ecuadorBeside,
  localDay,
  MAX_VISIT_TIMES,
  VISIT_MODES,
  type VisitMode,
} from '../../../core/protocol/visits.ts';
import { ECUADOR_TIME_ZONE, formatVisitTime } from '../../../core/protocol/visit-time.ts';
import type { Property } from '../../../core/protocol/listing.ts';
import { getClients } from '../data/client.ts';
import { getVisitTimes } from '../data/visits.ts';
import { useElement } from '../element.tsx';
import { InquiryForm, listingTarget } from '../inquiry/inquiry-form.tsx';
import { useVisitIntent } from './intent.ts';

type Times = { status: 'loading' } | { status: 'error' } | { status: 'ready'; times: string[] };

export function VisitScheduler({
  property: p,
  headingLevel: Heading,
  heading,
}: {
  property: Property;
  headingLevel: 'h2' | 'h3';
  /** its heading, when not "Schedule a visit" (a project's "Visit the show flat") */
  heading?: string | undefined;
}) {
  const { t, api, lang, leadAgentId } = useElement();
  const id = useId();
  const section = useRef<HTMLElement>(null);
  // opened by the map's "Schedule a visit", or by #visit in the address (a visitor's "another time")
  const [open, setOpen] = useState(useVisitIntent(p.id));
  const [sent, setSent] = useState<string[] | null>(null);
  const [mode, setMode] = useState<VisitMode>('in_person');
  const [times, setTimes] = useState<Times>({ status: 'loading' });
  const [day, setDay] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // the visitor's zone is read when the form opens: reading it makes the page's first date
  // formatter, some 75 ms of a phone's main thread (docs/benchmarks.md), and a closed form shows no time
  const zone = open ? browserTimeZone() : ECUADOR_TIME_ZONE;
  const problemRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (open) section.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setTimes({ status: 'loading' });
    getVisitTimes(getClients(api).rest, p.id, leadAgentId, controller.signal)
      .then((list) => {
        setTimes({ status: 'ready', times: list });
        setChosen((c) => c.filter((x) => list.includes(x)));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('[exp] the visit times could not be loaded:', error);
        setTimes({ status: 'error' });
      });
    return () => controller.abort();
  }, [open, api, p.id, leadAgentId, attempt]);

  const days = useMemo(() => {
    const out = new Map<string, string[]>();
    if (times.status === 'ready')
      for (const at of times.times) out.set(localDay(at, zone), [...(out.get(localDay(at, zone)) ?? []), at]);
    return out;
  }, [times, zone]);
  const shownDay = day && days.has(day) ? day : ([...days.keys()][0] ?? null);
  const beside = (at: string) => ecuadorBeside(at, lang, zone);
  const full = chosen.length >= MAX_VISIT_TIMES;

  const toggle = (at: string) => {
    setProblem(null);
    setChosen((c) =>
      c.includes(at) ? c.filter((x) => x !== at) : c.length >= MAX_VISIT_TIMES ? c : [...c, at].sort(),
    );
  };
  const say = (key: string) => {
    setProblem(key);
    requestAnimationFrame(() => problemRef.current?.focus());
  };

  if (sent) {
    return (
      <section
        ref={section}
        id="visit"
        className="rounded-brand border border-line p-4 flex flex-col gap-2"
        part="visit"
        aria-labelledby={`${id}-heading`}
      >
        <Heading id={`${id}-heading`} className="m-0 text-lg font-semibold text-ink">
          {t('visits.sentHeading')}
        </Heading>
        <p className="m-0 text-ink" role="status">
          {t('visits.sentText')}
        </p>
        <ul className="m-0 pl-5 text-ink" part="visit-sent">
          {sent.map((at) => (
            <li key={at}>{formatVisitTime(at, lang, zone)}</li>
          ))}
        </ul>
      </section>
    );
  }

  return (
    <section
      ref={section}
      id="visit"
      className="rounded-brand border border-line p-4 flex flex-col gap-3"
      part="visit"
      aria-labelledby={`${id}-heading`}
    >
      <Heading id={`${id}-heading`} className="m-0 text-lg font-semibold text-ink">
        {heading ?? t('visits.heading')}
      </Heading>
      {!open ? (
        <>
          <p className="m-0 text-sm text-ink-muted">{t('visits.intro')}</p>
          <button
            type="button"
            part="visit-open"
            onClick={() => setOpen(true)}
            className="inline-flex items-center justify-center rounded-md border border-primary px-4 py-2.5 text-[15px] font-semibold text-primary cursor-pointer hover:bg-surface-subtle"
          >
            {t('visits.open')}
          </button>
        </>
      ) : (
        <InquiryForm
          submitLabel={t('visits.submit')}
          sentKeys={{ title: 'visits.sentHeading', text: 'visits.sentText' }}
          target={listingTarget(p)}
          extra={() => {
            if (!chosen.length) {
              say('visits.errors.noTime');
              return null;
            }
            return { visit: { mode, times: chosen, timeZone: zone } };
          }}
          onSent={() => setSent(chosen)}
          onUnavailable={(result) => {
            if (result.error === 'listing_unavailable') return say('visits.errors.listingGone');
            // some times were booked meanwhile: they go, and the times are asked again
            setChosen((c) => c.filter((x) => !result.times.includes(x)));
            setAttempt((n) => n + 1);
            say('visits.errors.taken');
          }}
        >
          <fieldset className="m-0 p-0 border-0 flex flex-col gap-2" part="visit-mode">
            <legend className="mb-1 p-0 text-sm font-medium text-ink">{t('visits.how')}</legend>
            <div className="flex flex-wrap gap-2">
              {VISIT_MODES.map((m) => (
                <label
                  key={m}
                  className={`flex items-center gap-2 rounded-md border px-3 py-2 text-[15px] cursor-pointer ${mode === m ? 'border-primary bg-surface-subtle font-semibold text-ink ring-2 ring-primary/30' : 'border-line bg-surface text-ink'}`}
                >
                  <input
                    type="radio"
                    name={`${id}-mode`}
                    value={m}
                    checked={mode === m}
                    onChange={() => setMode(m)}
                    className="accent-primary"
                  />
                  {t(`visits.mode.${m}`)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset
            className="m-0 p-0 border-0 flex flex-col gap-2 min-w-0"
            part="visit-times"
            aria-describedby={`${id}-zone`}
          >
            <legend className="mb-1 p-0 text-sm font-medium text-ink">
              {t('visits.when', { max: MAX_VISIT_TIMES })}
            </legend>
            <p id={`${id}-zone`} className="m-0 text-xs text-ink-muted">
              {zone === ECUADOR_TIME_ZONE
                ? t('visits.zoneEcuador')
                : t('visits.zone', { zone: zone.replace(/_/g, ' ') })}
            </p>
            {times.status === 'loading' ? (
              <p className="m-0 text-sm text-ink-muted" role="status">
                {t('visits.loading')}
              </p>
            ) : times.status === 'error' ? (
              <p className="m-0 text-sm text-danger" role="alert">
                {t('visits.errors.load')}{' '}
                <button
                  type="button"
                  className="underline cursor-pointer text-primary"
                  onClick={() => setAttempt((n) => n + 1)}
                >
                  {t('common.tryAgain')}
                </button>
              </p>
            ) : !days.size ? (
              <p className="m-0 text-sm text-ink-muted" role="status">
                {t('visits.none')}
              </p>
            ) : (
              <>
                <div
                  className="flex gap-2 overflow-x-auto pb-1"
                  role="group"
                  aria-label={t('visits.day')}
                  part="visit-days"
                >
                  {[...days.keys()].map((d) => (
                    <button
                      key={d}
                      type="button"
                      aria-pressed={d === shownDay}
                      onClick={() => setDay(d)}
                      className={`shrink-0 rounded-md border px-3 py-1.5 text-sm cursor-pointer ${d === shownDay ? 'border-primary bg-primary text-primary-contrast' : 'border-line bg-surface text-ink hover:border-primary'}`}
                    >
                      {formatVisitTime(days.get(d)?.[0] as string, lang, zone, 'shortDay')}
                    </button>
                  ))}
                </div>
                <div
                  className="grid grid-cols-[repeat(auto-fill,minmax(92px,1fr))] gap-2"
                  role="group"
                  aria-label={shownDay ? formatVisitTime(days.get(shownDay)?.[0] as string, lang, zone, 'day') : ''}
                >
                  {(shownDay ? (days.get(shownDay) ?? []) : []).map((at) => {
                    const on = chosen.includes(at);
                    const ecuador = beside(at);
                    return (
                      <button
                        key={at}
                        type="button"
                        aria-pressed={on}
                        disabled={!on && full}
                        onClick={() => toggle(at)}
                        part={on ? 'visit-time chosen' : 'visit-time'}
                        className={`flex flex-col items-center rounded-md border px-2 py-1.5 text-sm cursor-pointer disabled:cursor-not-allowed disabled:opacity-50 ${on ? 'border-primary bg-primary text-primary-contrast' : 'border-line bg-surface text-ink hover:border-primary'}`}
                      >
                        <span className="font-semibold">{formatVisitTime(at, lang, zone, 'time')}</span>
                        {ecuador ? (
                          <span className={`text-xs ${on ? '' : 'text-ink-muted'}`}>
                            {t('visits.ecuadorShort', { time: formatVisitTime(at, lang, ECUADOR_TIME_ZONE, 'time') })}
                          </span>
                        ) : null}
                      </button>
                    );
                  })}
                </div>
              </>
            )}
            {chosen.length ? (
              <ul className="m-0 p-0 list-none flex flex-col gap-1" aria-label={t('visits.chosen')} part="visit-chosen">
                {chosen.map((at) => (
                  <li
                    key={at}
                    className="flex items-center justify-between gap-2 rounded-md bg-surface-subtle px-3 py-1.5 text-sm text-ink"
                  >
                    <span>
                      {formatVisitTime(at, lang, zone)}
                      {beside(at) ? (
                        <span className="text-ink-muted"> ({t('visits.ecuadorTime', { time: beside(at) })})</span>
                      ) : null}
                    </span>
                    <button
                      type="button"
                      className="text-primary underline cursor-pointer"
                      onClick={() => toggle(at)}
                      aria-label={t('visits.remove', { time: formatVisitTime(at, lang, zone) })}
                    >
                      {t('visits.removeShort')}
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            {full ? <p className="m-0 text-xs text-ink-muted">{t('visits.full', { max: MAX_VISIT_TIMES })}</p> : null}
            {problem ? (
              <p ref={problemRef} tabIndex={-1} role="alert" className="m-0 text-sm text-danger" part="visit-error">
                {t(problem)}
              </p>
            ) : null}
          </fieldset>
        </InquiryForm>
      )}
    </section>
  );
}
