/**
 * The calendar's edges (docs/decisions.md #33), each with a case that fails if the edge is off by
 * one: a month's first and last instant in Ecuador (05:00 UTC), New Year's Eve at 23:50 in
 * Guayaquil (already the next day and year in UTC), 29 February, and a visitor in Madrid on the
 * night the clocks change there (Ecuador has no daylight saving time). Instants are written in UTC
 * so that what each case means does not depend on the machine's zone.
 */
import { describe, expect, it } from 'vitest';
import { clockOffsetMs, now, nowDate, pinClock, setClockOffset } from '../clock.ts';
import { ecuadorDay, ecuadorMonth, ecuadorYear } from './calendar.ts';
import { daysOnMarket, recentPriceCut } from './listing.ts';
import { lastFullMonth, type MarketFigure } from './market.ts';
import { upcomingOpenHouses } from './open-houses.ts';
import { ecuadorBeside, localDay } from './visits.ts';
import { formatVisitTime } from './visit-time.ts';

const figure = (month: string): MarketFigure => ({
  month,
  path: 'quito',
  name: 'Quito',
  listings: 9,
  median: 1500,
  p25: 1200,
  p75: 1800,
  newListings: 1,
  priceCuts: 0,
  medianDays: 40,
});

describe("the brokerage's calendar is Ecuador's", () => {
  it("a month's first instant in Ecuador is 05:00 UTC on its first day; the instant before is the month before", () => {
    expect(ecuadorDay('2026-12-01T05:00:00.000Z')).toBe('2026-12-01');
    expect(ecuadorMonth('2026-12-01T05:00:00.000Z')).toBe('2026-12-01');
    expect(ecuadorDay('2026-12-01T04:59:59.999Z')).toBe('2026-11-30');
    expect(ecuadorMonth('2026-12-01T04:59:59.999Z')).toBe('2026-11-01');
    expect(ecuadorMonth('2026-12-01T04:59:59.999Z', 1)).toBe('2026-10-01');
  });

  it("New Year's Eve at 23:50 in Guayaquil is still 2026 there (2027 in UTC): this month December, last month November", () => {
    const eve = '2027-01-01T04:50:00.000Z';
    expect(ecuadorDay(eve)).toBe('2026-12-31');
    expect(ecuadorYear(eve)).toBe(2026);
    expect(ecuadorMonth(eve)).toBe('2026-12-01');
    expect(ecuadorMonth(eve, 1)).toBe('2026-11-01');
    expect(ecuadorMonth(eve, -1)).toBe('2027-01-01');
    expect(ecuadorMonth(eve, 12)).toBe('2025-12-01');
    // the market's last full month then: November's figure, not December's
    const figures = ['2026-10-01', '2026-11-01', '2026-12-01'].map(figure);
    expect(lastFullMonth(figures, Date.parse(eve))?.month).toBe('2026-11-01');
    expect(lastFullMonth(figures, Date.parse('2027-01-01T05:00:00.000Z'))?.month).toBe('2026-12-01');
  });

  it('29 February 2028 is a day of its own: the month is February, the next day March 1st', () => {
    expect(ecuadorDay('2028-02-29T12:00:00.000Z')).toBe('2028-02-29');
    expect(ecuadorMonth('2028-02-29T12:00:00.000Z')).toBe('2028-02-01');
    expect(ecuadorMonth('2028-02-29T12:00:00.000Z', 1)).toBe('2028-01-01');
    expect(ecuadorMonth('2028-02-29T12:00:00.000Z', 12)).toBe('2027-02-01');
    // its last instant in Ecuador is already March 1st in UTC
    expect(ecuadorDay('2028-03-01T04:59:59.999Z')).toBe('2028-02-29');
    expect(ecuadorDay('2028-03-01T05:00:00.000Z')).toBe('2028-03-01');
    // a listing put on the market on the 28th at noon has been on it one whole day on the 29th at noon, two on March 1st
    const listed = { listedAt: '2028-02-28T17:00:00.000Z' };
    expect(daysOnMarket(listed, Date.parse('2028-02-29T17:00:00.000Z'))).toBe(1);
    expect(daysOnMarket(listed, Date.parse('2028-02-29T16:59:59.999Z'))).toBe(0);
    expect(daysOnMarket(listed, Date.parse('2028-03-01T17:00:00.000Z'))).toBe(2);
    // a price cut is news for 30 days: through 29 February, from January 30th
    const cut = { price: 90_000, priceCut: { at: '2028-01-30T17:00:00.000Z', before: 100_000 } };
    expect(recentPriceCut(cut, Date.parse('2028-02-29T17:00:00.000Z'))).not.toBeNull();
    expect(recentPriceCut(cut, Date.parse('2028-02-29T17:00:00.001Z'))).toBeNull();
  });

  it("is the time-zone database's America/Guayaquil (UTC-5 all year since 1993), hour by hour over five years and at every month's edge", () => {
    const zone = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Guayaquil',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    for (let t = Date.parse('2024-01-01T00:00:00Z'); t < Date.parse('2029-01-01T00:00:00Z'); t += 3_600_000) {
      if (ecuadorDay(t) !== zone.format(t))
        expect(`${new Date(t).toISOString()}: ${ecuadorDay(t)}`).toBe(zone.format(t));
    }
    for (let m = 0; m < 60; m++) {
      const start = Date.UTC(2024, m, 1, 5);
      expect(ecuadorMonth(start)).toBe(zone.format(start).slice(0, 8) + '01');
      expect(ecuadorMonth(start - 1)).toBe(zone.format(start - 1).slice(0, 8) + '01');
    }
  });

  it('an open house is upcoming until its last instant', () => {
    const list = [{ start: '2027-01-01T04:00:00.000Z', end: '2027-01-01T04:50:00.000Z' }];
    expect(upcomingOpenHouses(list, Date.parse('2027-01-01T04:49:59.999Z'))).toHaveLength(1);
    expect(upcomingOpenHouses(list, Date.parse('2027-01-01T04:50:00.000Z'))).toHaveLength(0);
  });
});

describe('a visitor in Madrid on the night the clocks change there (2027-03-28, 02:00 CET becomes 03:00 CEST at 01:00 UTC)', () => {
  // Ecuador's visiting hours each side of the change: Saturday 17:00, Monday 09:00 (UTC-5 both)
  const saturday = '2027-03-27T22:00:00.000Z';
  const monday = '2027-03-29T14:00:00.000Z';

  it('sees each Ecuadorian time at her own clock of that day: one hour more after the change', () => {
    expect(formatVisitTime(saturday, 'es', 'Europe/Madrid', 'time')).toBe('23:00');
    expect(formatVisitTime(monday, 'es', 'Europe/Madrid', 'time')).toBe('16:00');
    expect(formatVisitTime(saturday, 'es', 'America/Guayaquil', 'time')).toBe('17:00');
    expect(formatVisitTime(monday, 'es', 'America/Guayaquil', 'time')).toBe('09:00');
    // Ecuador's time beside hers, the time alone on the same day
    expect(ecuadorBeside(saturday, 'es', 'Europe/Madrid')).toBe('17:00');
    expect(ecuadorBeside(monday, 'es', 'Europe/Madrid')).toBe('09:00');
  });

  it("groups the times by her own days: a time after midnight hers is the next day, with Ecuador's day beside", () => {
    // Saturday 18:30 in Ecuador (an agent's late hour) is Sunday 01:30 CET in Madrid: before the change
    const late = '2027-03-27T23:30:00.000Z';
    expect(localDay(late, 'Europe/Madrid')).toBe('2027-03-28');
    expect(localDay(late, 'America/Guayaquil')).toBe('2027-03-27');
    expect(formatVisitTime(late, 'en', 'Europe/Madrid', 'time')).toBe('00:30');
    expect(ecuadorBeside(late, 'en', 'Europe/Madrid')).toBe(formatVisitTime(late, 'en', 'America/Guayaquil', 'both'));
    // an hour later, after the change: 03:30 CEST, not 02:30 (which never happens in Madrid that night)
    const after = '2027-03-28T01:30:00.000Z';
    expect(formatVisitTime(after, 'en', 'Europe/Madrid', 'time')).toBe('03:30');
    expect(localDay(after, 'America/Guayaquil')).toBe('2027-03-27');
  });
});

describe('the clock a test sets', () => {
  it('reads the instant it was pinned at and runs on; the offset travels in the environment; 0 is the wall clock', () => {
    const before = clockOffsetMs();
    try {
      const offset = pinClock('2027-01-01T04:50:00.000Z');
      expect(process.env.EXP_CLOCK_OFFSET_MS).toBe(String(offset));
      expect(Math.abs(now() - Date.parse('2027-01-01T04:50:00.000Z'))).toBeLessThan(1000);
      expect(ecuadorMonth()).toBe('2026-12-01');
      expect(nowDate().getTime()).toBeGreaterThanOrEqual(Date.parse('2027-01-01T04:50:00.000Z'));
      setClockOffset(0);
      expect(process.env.EXP_CLOCK_OFFSET_MS).toBeUndefined();
      expect(Math.abs(now() - Date.now())).toBeLessThan(5);
      expect(() => pinClock('not a date')).toThrow(/not an instant/);
    } finally {
      setClockOffset(before);
    }
  });
});
