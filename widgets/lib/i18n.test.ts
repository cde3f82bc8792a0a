import { afterEach, describe, expect, it } from 'vitest';
import en from '../../core/locales/en.json';
import es from '../../core/locales/es.json';
import { addTexts, langOf, translator } from './i18n.ts';
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
    addTexts({ testOnly: { english: 'Only English' } });
    expect(translator('en')('testOnly.english')).toBe('Only English');
    expect(translator('es')('testOnly.english')).toBe('testOnly.english');
    // an element's texts never replace what is already there
    addTexts({ testOnly: { english: 'Other' } });
    expect(translator('en')('testOnly.english')).toBe('Only English');
  });

  it('picks the plural form of the language and fills placeholders', () => {
    addTexts({ testOnly: { n_one: '{{count}} home in {{city}}', n_other: '{{count}} homes in {{city}}' } });
    expect(translator('en')('testOnly.n', { count: 1, city: 'Quito' })).toBe('1 home in Quito');
    expect(translator('en')('testOnly.n', { count: 3, city: 'Quito' })).toBe('3 homes in Quito');
    // a value is written as it is, '$&' and '{{x}}' included
    expect(translator('en')('testOnly.n', { count: 2, city: '$& {{city}}' })).toBe('2 homes in $& {{city}}');
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
