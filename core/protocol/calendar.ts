/**
 * The brokerage's calendar is Ecuador's (docs/decisions.md #33): its days, months and years,
 * whatever zone the machine or the session is in, as SQL's internal.this_month() has them
 * (supabase/schemas/00_setup.sql). Ecuador (America/Guayaquil, ./visit-time.ts ECUADOR_TIME_ZONE)
 * has been UTC-5 all year since 1993, so a day there is the UTC day of five hours before: no
 * time-zone database needed in the browser. "Now" is the one clock's (core/clock.ts).
 */
import { now } from '../clock.ts';

const ECUADOR_OFFSET_MS = -5 * 3_600_000;

/** The day it is in Ecuador at `at` (now by default), YYYY-MM-DD. */
export function ecuadorDay(at: Date | string | number = now()): string {
  return new Date(new Date(at).getTime() + ECUADOR_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a day of Ecuador's (YYYY-MM-DD) begins. */
export function ecuadorMidnight(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - ECUADOR_OFFSET_MS);
}

/** The day `n` days after `day` (before, for a negative `n`), YYYY-MM-DD. */
export function ecuadorDaysAfter(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
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
