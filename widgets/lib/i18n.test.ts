import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../core/locales/en.json';
import es from '../../core/locales/es.json';
import { addPageTexts, addTexts, langOf, langReady, langsLoaded, translator } from './i18n.ts';
import { normaliseLang } from '../../core/lang.ts';
import { createI18n, fixedT, translatorFor } from '../../core/translate.ts';
import { completePlurals } from '../../scripts/locale-plurals.ts';

/** A unit's texts as the build writes them (scripts/widget-texts.ts): its English, and its Spanish's download. */
const unit = (
  english: Record<string, unknown>,
  spanish: () => Promise<Record<string, unknown>> = async () => ({}),
) => ({
  en: english,
  es: () => spanish().then((d) => ({ default: d })),
});

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
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
    void addTexts(unit({ testOnly: { english: 'Only English' } }));
    expect(translator('en')('testOnly.english')).toBe('Only English');
    expect(translator('es')('testOnly.english')).toBe('testOnly.english');
    // an element's texts never replace what is already there
    void addTexts(unit({ testOnly: { english: 'Other' } }));
    expect(translator('en')('testOnly.english')).toBe('Only English');
  });

  it('remembers the texts it made, and forgets them when texts arrive: a missing key asked for before its texts came, a language overwritten, a count or a value changed', () => {
    const en = translator('en');
    expect(en('testLater.hello', { name: 'Ana' })).toBe('testLater.hello');
    expect(en('testLater.plain')).toBe('testLater.plain');
    void addTexts(
      unit({
        testLater: {
          hello: 'Hello {{name}}',
          plain: 'Plain',
          n_one: 'one {{what}}',
          n_other: '{{count}} {{what}}',
          site: 'in {{city}}',
        },
      }),
    );
    expect(en('testLater.hello', { name: 'Ana' })).toBe('Hello Ana');
    expect(en('testLater.hello', { name: 'Bea' })).toBe('Hello Bea');
    expect(en('testLater.plain')).toBe('Plain');
    expect(en('testLater.n', { count: 1, what: 'home' })).toBe('one home');
    expect(en('testLater.n', { count: 4, what: 'home' })).toBe('4 home');
    // a value that is itself a text: the text, as it is now
    expect(en('testLater.site', { city: { $t: 'testLater.plain' } })).toBe('in Plain');
    const es = translator('es');
    expect(es('testLater.plain')).toBe('testLater.plain');
    addPageTexts('es', { testLater: { plain: 'Sencillo' } });
    expect(es('testLater.plain')).toBe('Sencillo');
    // a language's file arriving overwrites what was there (i18n.ts loadLang): what was made from it is made again
    const own = createI18n({ es: { a: { b: 'antes' } } }, 'es');
    const t = fixedT(own, 'es');
    expect(t('a.b')).toBe('antes');
    own.addResourceBundle('es', 'translation', { a: { b: 'después' } }, true, true);
    expect(t('a.b')).toBe('después');
  });

  it('downloads Spanish unit by unit, once each, when an element asks for it: a unit added later brings its own, and a part waits for it; a failed download is tried again', async () => {
    const asked: string[] = [];
    let failOnce = true;
    const first = unit({ testUnitA: { hi: 'Hi' } }, async () => {
      asked.push('a');
      return { testUnitA: { hi: 'Hola' } };
    });
    const second = unit({ testUnitB: { bye: 'Bye' } }, async () => {
      asked.push('b');
      if (failOnce) {
        failOnce = false;
        throw new Error('offline');
      }
      return { testUnitB: { bye: 'Chao' } };
    });
    // an English page: nothing in Spanish is downloaded
    await addTexts(first);
    expect(asked).toEqual([]);
    const arrivals = () =>
      new Promise<void>((done) => {
        const before = langsLoaded.value;
        const stop = langsLoaded.subscribe((n) => {
          if (n === before) return;
          stop();
          done();
        });
      });
    // the runtime's own texts and this unit's, each once however often it is asked
    while (!langReady('es')) await arrivals();
    langReady('es');
    expect(asked).toEqual(['a']);
    expect(translator('es')('testUnitA.hi')).toBe('Hola');
    // a unit that comes after Spanish was asked for: its promise waits for its Spanish (here failing once)
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await addTexts(second);
    expect(asked).toEqual(['a', 'b']);
    expect(langReady('es')).toBe(false);
    while (!langReady('es')) await arrivals();
    expect(asked).toEqual(['a', 'b', 'b']);
    expect(translator('es')('testUnitB.bye')).toBe('Chao');
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });

  it('picks the plural form of the language and fills placeholders', () => {
    void addTexts(unit({ testOnly: { n_one: '{{count}} home in {{city}}', n_other: '{{count}} homes in {{city}}' } }));
    expect(translator('en')('testOnly.n', { count: 1, city: 'Quito' })).toBe('1 home in Quito');
    expect(translator('en')('testOnly.n', { count: 3, city: 'Quito' })).toBe('3 homes in Quito');
    // a value is written as it is, '$&' and '{{x}}' included
    expect(translator('en')('testOnly.n', { count: 2, city: '$& {{city}}' })).toBe('2 homes in $& {{city}}');
  });

  it('writes each plural text in every CLDR form of its language, so i18next finds the one a count needs', () => {
    // English: one, other; Spanish: one, many, other (scripts/locale-plurals.ts wrote the missing ones)
    expect(completePlurals(structuredClone(en), 'en')).toBe(0);
    expect(completePlurals(structuredClone(es), 'es')).toBe(0);
    const t = translatorFor(es, 'es');
    const n = (count: number) => t('results.count', { count, formatted: new Intl.NumberFormat('es-EC').format(count) });
    expect([n(1), n(2), n(1_000_000), n(1_250_000)]).toEqual([
      '1 propiedad',
      '2 propiedades',
      '1.000.000 de propiedades',
      '1.250.000 propiedades',
    ]);
    const e = translatorFor(en, 'en');
    expect(
      [1, 2, 1_000_000].map((count) => e('results.count', { count, formatted: count.toLocaleString('en-US') })),
    ).toEqual(['1 property', '2 properties', '1,000,000 properties']);
  });

  it('has the same keys in English and Spanish, none empty', () => {
    // Spanish has a 'many' plural form (1.000.000 de propiedades) that English does not
    const base = (k: string) => k.replace(/_(one|many|other)$/, '');
    expect([...new Set(keys(es).map(base))].sort()).toEqual([...new Set(keys(en).map(base))].sort());
    const values = (o: object): string[] => Object.values(o).flatMap((v) => (typeof v === 'object' ? values(v) : [v]));
    expect(values(en).filter((v) => !String(v).trim())).toEqual([]);
    expect(values(es).filter((v) => !String(v).trim())).toEqual([]);
  });

  it('speaks to the visitor in one register in Spanish: tú, never usted (docs/decisions.md #35)', () => {
    const values = (o: object): string[] =>
      Object.values(o).flatMap((v) => (typeof v === 'object' ? values(v) : [String(v)]));
    // usted and the formal imperatives a page asks with; "su" stays (it is also his, her, its, their)
    // (capitalised where the word is also a subjunctive: "que un agente encuentre" is right)
    const formal =
      /\b(usted(es)?|Busque|Encuentre|Pregunte|Siga|Reciba|Hable|Postule|Visite|Elija|Escriba|Guarde|Mire|Descubra|Explore|Agende|Conozca|Compre|Venda|Seleccione|Intente|Verifique|Haga|Espere|[ÚúUu]nase|[Cc]uéntenos|[Ee]nvíenos|[Ll]lámenos|[Cc]ontáctenos|[Dd]éjenos|[Ss]uscríbase|[Ii]ngrese|[Ii]nténtelo|[Ll]lámelos|[Ee]scríbales|[Rr]eúnase|[Cc]apacítese)\b/;
    expect(values(es).filter((v) => formal.test(v))).toEqual([]);
  });
});
