import { describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import { translatorFor } from '../translate.ts';
import { formatMonth } from './month.ts';

describe('a month named', () => {
  it('from the locale files, as the calendar of each language names it (Intl, the independent reader), every month, long and short', () => {
    for (const [lang, locale, dict] of [
      ['en', 'en-US', en],
      ['es', 'es-EC', es],
    ] as const) {
      const t = translatorFor(dict, lang);
      for (const style of ['long', 'short'] as const) {
        const intl = new Intl.DateTimeFormat(locale, { month: style, year: 'numeric', timeZone: 'UTC' });
        for (let m = 1; m <= 12; m++) {
          const month = `2026-${String(m).padStart(2, '0')}`;
          expect(formatMonth(`${month}-01`, t, style), `${lang} ${style} ${month}`).toBe(
            intl.format(new Date(`${month}-15T00:00:00Z`)),
          );
        }
      }
    }
    expect(formatMonth('2026-11-01', translatorFor(es, 'es'))).toBe('noviembre de 2026');
  });
});
