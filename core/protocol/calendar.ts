/**
 * The brokerage's calendar is Ecuador's (America/Guayaquil, UTC-5 all year since 1993): its days,
 * months and years, whatever zone the machine or the session is in (docs/decisions.md #33). SQL has
 * the same rule in internal.this_month() (supabase/schemas/00_setup.sql). "Now" is the one clock's
 * (core/clock.ts).
 */
import { now } from '../clock.ts';
import { ECUADOR_TIME_ZONE } from './visit-time.ts';

const days = new Map<string, Intl.DateTimeFormat>();

/** The day a time falls on in a time zone, as YYYY-MM-DD (to group times by day). */
export function localDay(at: Date | string | number, timeZone: string): string {
  let f = days.get(timeZone);
  if (!f) days.set(timeZone, (f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return f.format(typeof at === 'object' ? at : new Date(at));
}

/** The day it is in Ecuador at `at` (now by default), YYYY-MM-DD. */
export function ecuadorDay(at: Date | string | number = now()): string {
  return localDay(at, ECUADOR_TIME_ZONE);
}

/** The first day of the month `back` months before the one it is in Ecuador at `at`, YYYY-MM-01. */
export function ecuadorMonth(at: Date | string | number = now(), back = 0): string {
  const [y, m] = ecuadorDay(at).split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 - back, 1)).toISOString().slice(0, 10);
}

/** The year it is in Ecuador at `at`. */
export function ecuadorYear(at: Date | string | number = now()): number {
  return Number(ecuadorDay(at).slice(0, 4));
}
