import { describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import { createI18n, fixedT, type Dict } from '../translate.ts';
import { formatMonth } from './month.ts';

describe('a month named', () => {
  it('from the locale files, as the calendar of each language names it (Intl, the independent reader), every month, long and short', () => {
    const i18n = createI18n({ en: en as Dict, es: es as Dict });
    for (const [lang, locale] of [
      ['en', 'en-US'],
      ['es', 'es-EC'],
    ] as const) {
      const t = fixedT(i18n, lang);
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
    expect(formatMonth('2026-11-01', fixedT(i18n, 'es'))).toBe('noviembre de 2026');
  });
});
