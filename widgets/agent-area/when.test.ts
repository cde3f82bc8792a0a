/**
 * A lead's time on Ecuador's clock (./when.ts) is Intl's in America/Guayaquil at a month's and a
 * year's edges, on 29 February and on the night Europe's clocks change; written with the site's
 * short month names (core/protocol/month.test.ts holds them to Intl's).
 */
import { describe, expect, it } from 'vitest';
import en from '../../core/locales/en.json' with { type: 'json' };
import es from '../../core/locales/es.json' with { type: 'json' };
import { translatorFor } from '../../core/translate.ts';
import { ecuadorClock, ecuadorTimes } from './when.ts';

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
  it('writes a time in the language of the area, with its short month name', () => {
    const at = new Date('2026-12-02T19:05:00Z');
    expect(ecuadorTimes(translatorFor(en, 'en')).format(at)).toBe('2 Dec 2026, 14:05');
    expect(ecuadorTimes(translatorFor(es, 'es')).format(at)).toBe('2 dic 2026, 14:05');
    expect(ecuadorTimes(translatorFor(es, 'es')).format(new Date('2026-09-30T23:59:00Z'))).toBe('30 sept 2026, 18:59');
  });
});
