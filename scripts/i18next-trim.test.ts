import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as I18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../core/translate.ts';
import { I18NEXT_CUTS, trimI18next } from './i18next-trim.ts';

const source = readFileSync(
  createRequire(import.meta.url)
    .resolve('i18next')
    .replace(/[\\/]dist[\\/].*$/, '/dist/esm/i18next.js'),
  'utf8',
);
const locales = ['en', 'es'].map((lang) =>
  readFileSync(new URL(`../core/locales/${lang}.json`, import.meta.url), 'utf8'),
);

/** i18next's ESM build, trimmed, as a module of its own */
async function trimmed(): Promise<typeof I18next> {
  const url = `data:text/javascript;base64,${Buffer.from(trimI18next(source)).toString('base64')}`;
  return (await import(/* @vite-ignore */ url)) as typeof I18next;
}

describe("i18next trimmed from the widgets' runtime (scripts/i18next-trim.ts)", () => {
  it('cuts what it says, once each: an upgrade that moves a cut fails here, not silently', () => {
    const out = trimI18next(source);
    for (const cut of I18NEXT_CUTS) expect(source.split(`\n${cut.from}\n`), cut.name).toHaveLength(2);
    // the formats' parser and the connector's queue are gone
    expect(out).not.toContain('parseFormatStr');
    expect(out).not.toContain('queueLoad(');
    expect(out.length).toBeLessThan(source.length - 10_000);
    expect(() =>
      trimI18next(source.replace('const removePending = (q, name) => {', 'const removePending = (q, n) => {')),
    ).toThrow(/formatter/);
  });

  it('our texts name no i18next format ({{value, number}}): the formats are what it cuts', () => {
    for (const text of locales) expect(text.match(/\{\{[^}]*,[^}]*\}\}/g) ?? []).toEqual([]);
  });

  it('translates as the whole i18next does: plurals, placeholders, a missing key, texts added later, a language switched', async () => {
    const whole = createI18n({ en: JSON.parse(locales[0]!), es: JSON.parse(locales[1]!) }, 'en');
    const { default: cut } = await trimmed();
    const instance = cut.createInstance();
    await instance.init({
      fallbackLng: false,
      keySeparator: '.',
      nsSeparator: false,
      interpolation: { escapeValue: false, skipOnVariables: true },
      returnNull: false,
      initAsync: false,
      lng: 'en',
      resources: { en: { translation: JSON.parse(locales[0]!) }, es: { translation: {} } },
    });
    instance.addResourceBundle('es', 'translation', JSON.parse(locales[1]!), true, true);
    for (const lang of ['en', 'es']) {
      const a = whole.getFixedT(lang);
      const b = instance.getFixedT(lang);
      // one, many (Spanish's "de"), other; a placeholder; a missing key shows the key
      for (const [key, params] of [
        ['results.count', { count: 1, formatted: '1' }],
        ['results.count', { count: 1_000_000, formatted: '1.000.000' }],
        ['results.count', { count: 1762, formatted: '1,762' }],
        ['no.such.key', undefined],
      ] as const)
        expect(b(key, params), `${lang} ${key}`).toBe(a(key, params));
    }
    expect(instance.getFixedT('es')('results.count', { count: 1_000_000, formatted: '1.000.000' })).toBe(
      '1.000.000 de propiedades',
    );
    await instance.changeLanguage('es');
    expect(instance.t('language.es')).toBe('Español');
    expect(instance.language).toBe('es');
    // a format, were a text ever to name one, says where it went
    expect(() => instance.services.interpolator.interpolate('{{n, number}}', { n: 1 }, 'en', {})).toThrow(
      /not bundled/,
    );
  });
});
