/**
 * A visit request as both sides read it (docs/visits.md): the form in the browser and the
 * send-property-inquiry function, which takes a request to visit as an inquiry with a `visit` part.
 * One set of rules for the shape (the mode, one to three distinct times, a time zone); which times
 * are open is the database's rule (internal.open_visit_times), asked by the form through
 * public.visit_times and checked again by the function. How a time is written: ./visit-time.ts.
 */
import { ECUADOR_TIME_ZONE, formatVisitTime } from './visit-time.ts';

export const VISIT_MODES = ['in_person', 'video'] as const;
export type VisitMode = (typeof VISIT_MODES)[number];

/** At most this many times in one request. */
export const MAX_VISIT_TIMES = 3;

/** The `visit` part of an inquiry's body. */
export interface VisitRequest {
  mode: VisitMode;
  /** the times proposed, as UTC instants (ISO 8601), one to three, each one of public.visit_times */
  times: string[];
  /** the visitor's time zone (an IANA name, what the browser says), for their mails */
  timeZone: string;
}

export type VisitCheck =
  | { ok: true; value: VisitRequest }
  | { ok: false; field: 'visit' | 'visit.mode' | 'visit.times' | 'visit.timeZone'; error: 'required' | 'invalid' };

/** An IANA time zone name this runtime knows. */
function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The shape of a request's `visit` (the times are instants, distinct, one to three, in order). */
export function checkVisit(raw: unknown): VisitCheck {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, field: 'visit', error: 'invalid' };
  const v = raw as Record<string, unknown>;
  if (v.mode === undefined) return { ok: false, field: 'visit.mode', error: 'required' };
  if (!(VISIT_MODES as readonly unknown[]).includes(v.mode))
    return { ok: false, field: 'visit.mode', error: 'invalid' };
  if (!Array.isArray(v.times) || v.times.length === 0) return { ok: false, field: 'visit.times', error: 'required' };
  if (
    v.times.length > MAX_VISIT_TIMES ||
    !v.times.every((t) => typeof t === 'string' && INSTANT.test(t) && Number.isFinite(Date.parse(t)))
  ) {
    return { ok: false, field: 'visit.times', error: 'invalid' };
  }
  const times = [...new Set((v.times as string[]).map((t) => new Date(t).toISOString()))].sort();
  if (times.length !== v.times.length) return { ok: false, field: 'visit.times', error: 'invalid' };
  const timeZone =
    v.timeZone === undefined || v.timeZone === null || v.timeZone === '' ? ECUADOR_TIME_ZONE : v.timeZone;
  if (!isTimeZone(timeZone)) return { ok: false, field: 'visit.timeZone', error: 'invalid' };
  return { ok: true, value: { mode: v.mode as VisitMode, times, timeZone } };
}

/** The visitor's time zone as the browser says it (Ecuador's when it says none this runtime knows), read once. */
export function browserTimeZone(): string {
  if (visitorZone === undefined) {
    const zone = typeof Intl === 'undefined' ? undefined : Intl.DateTimeFormat().resolvedOptions().timeZone;
    visitorZone = isTimeZone(zone) ? zone : ECUADOR_TIME_ZONE;
  }
  return visitorZone;
}
let visitorZone: string | undefined;

/** The day a time falls on in a time zone, as YYYY-MM-DD (to group times by day). */
export function localDay(at: Date | string, timeZone: string): string {
  let f = days.get(timeZone);
  if (!f)
    days.set(
      timeZone,
      (f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })),
    );
  return f.format(typeof at === 'string' ? new Date(at) : at);
}

/** Whether two time zones tell the same clock time at this moment (Madrid and Ecuador do not). */
function sameClock(at: Date | string, a: string, b: string): boolean {
  return (
    formatVisitTime(at, 'en', a, 'time') === formatVisitTime(at, 'en', b, 'time') && localDay(at, a) === localDay(at, b)
  );
}

/**
 * Ecuador's time of a moment, to show beside the visitor's: null when their clocks agree, the time
 * alone on the same day ("10:30"), else the day too.
 */
export function ecuadorBeside(at: Date | string, lang: string, timeZone: string): string | null {
  if (sameClock(at, timeZone, ECUADOR_TIME_ZONE)) return null;
  return formatVisitTime(
    at,
    lang,
    ECUADOR_TIME_ZONE,
    localDay(at, timeZone) === localDay(at, ECUADOR_TIME_ZONE) ? 'time' : 'both',
  );
}

const days = new Map<string, Intl.DateTimeFormat>();
