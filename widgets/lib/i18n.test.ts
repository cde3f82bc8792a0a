import { afterEach, describe, expect, it } from 'vitest';
import en from '../../core/locales/en.json';
import es from '../../core/locales/es.json';
import { i18n, langOf, translator } from './i18n.ts';
import { normaliseLang } from '../../core/lang.ts';

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

describe('i18n', () => {
  afterEach(() => {
    document.documentElement.removeAttribute('lang');
    document.body.innerHTML = '';
  });

  it('normalises language tags', () => {
    expect(normaliseLang('es-EC')).toBe('es');
    expect(normaliseLang('ES')).toBe('es');
    expect(normaliseLang('en_US')).toBe('en');
    expect(normaliseLang('fr')).toBeUndefined();
    expect(normaliseLang(null)).toBeUndefined();
  });

  it('finds the language on the element, an ancestor, across a shadow root, else <html>, else English', () => {
    document.body.innerHTML = '<section lang="es"><div id="a"></div></section><div id="b"></div>';
    expect(langOf(document.getElementById('a'))).toBe('es');
    expect(langOf(document.getElementById('b'))).toBe('en');
    document.documentElement.lang = 'es';
    expect(langOf(document.getElementById('b'))).toBe('es');
    const host = document.createElement('div');
    host.setAttribute('lang', 'en');
    document.body.append(host);
    const inner = document.createElement('span');
    host.attachShadow({ mode: 'open' }).append(inner);
    expect(langOf(inner)).toBe('en');
    document.documentElement.lang = 'fr';
    expect(langOf(document.getElementById('b'))).toBe('en');
  });

  it('shows the key for a missing translation, never another language', () => {
    expect(translator('es')('no.such.key')).toBe('no.such.key');
    i18n.addResourceBundle('en', 'test-only', { english: 'Only English' });
    expect(i18n.getFixedT('en', 'test-only')('english')).toBe('Only English');
    expect(i18n.getFixedT('es', 'test-only')('english')).toBe('english');
  });

  it('has the same keys in English and Spanish, none empty', () => {
    // Spanish has a 'many' plural form (1.000.000 de propiedades) that English does not
    const base = (k: string) => k.replace(/_(one|many|other)$/, '');
    expect([...new Set(keys(es).map(base))].sort()).toEqual([...new Set(keys(en).map(base))].sort());
    const values = (o: object): string[] => Object.values(o).flatMap((v) => (typeof v === 'object' ? values(v) : [v]));
    expect(values(en).filter((v) => !String(v).trim())).toEqual([]);
    expect(values(es).filter((v) => !String(v).trim())).toEqual([]);
  });
});
