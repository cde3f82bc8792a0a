/**
 * A lead's time on Ecuador's clock (./when.ts) is Intl's in America/Guayaquil at a month's and a
 * year's edges, on 29 February and on the night Europe's clocks change; the months' short names in
 * the locale files are Intl's.
 */
import { describe, expect, it } from 'vitest';
import { ecuadorClock } from './when.ts';

describe('a time on Ecuador\'s clock without Intl (the agents\' leads: docs/agent-area.md "Speed")', () => {
  const intl = (at: string) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/Guayaquil',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(at))
        .map((p) => [p.type, p.value]),
    );
    return {
      year: Number(parts.year),
      month: Number(parts.month),
      day: Number(parts.day),
      hour: Number(parts.hour),
      minute: Number(parts.minute),
    };
  };
  it.each([
    '2026-12-01T05:00:00.000Z',
    '2026-12-01T04:59:59.999Z',
    '2027-01-01T04:50:00.000Z',
    '2028-02-29T18:30:00.000Z',
    '2026-03-29T01:15:00.000Z',
    '2026-07-15T12:00:00.000Z',
  ])('reads %s as Intl does in Guayaquil', (at) => {
    expect(ecuadorClock(at)).toEqual(intl(at));
  });
  it.each(['en', 'es'] as const)("the %s months' short names are Intl's", async (lang) => {
    const texts = (await import(`../../core/locales/${lang}.json`, { with: { type: 'json' } })) as {
      default: { agentArea: { months: string } };
    };
    const intlMonths = Array.from({ length: 12 }, (_, m) =>
      new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-US', { month: 'short', timeZone: 'UTC' })
        .format(Date.UTC(2026, m, 15))
        .replace(/\.$/, ''),
    );
    expect(texts.default.agentArea.months.split(' ')).toEqual(intlMonths);
  });
});
