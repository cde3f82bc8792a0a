import { describe, expect, it } from 'vitest';
import { excerpt, markWords, wordStems } from './words.ts';

const marked = (text: string, words: string) =>
  markWords(text, wordStems(words))
    .filter((p) => p.match)
    .map((p) => p.text);

describe('the words asked for, marked in a card', () => {
  it('marks each word, its plural and its accents as the database folds them; not an excluded word, a stop word or "or"', () => {
    expect(marked('Casa con piscina y jardín; dos piscinas, vista al mar', 'piscina jardin')).toEqual([
      'piscina',
      'jardín',
      'piscinas',
    ]);
    expect(marked('Casa con piscina y vista al mar', '"vista al mar" -piscina')).toEqual(['vista', 'mar']);
    expect(marked('Pool and ocean view', 'pool or view')).toEqual(['Pool', 'view']);
    expect(marked('Cerca del parque La Carolina', 'cerca del parque')).toEqual(['parque']);
    expect(marked('Nada que ver', '')).toEqual([]);
    // a short word is a whole word: 'mar' is not 'mármol'
    expect(marked('Piso de mármol frente al mar', 'mar')).toEqual(['mar']);
  });

  it('keeps the whole text, in order, whatever it says', () => {
    const text = '<b>Piscina</b> & "más" $1';
    expect(
      markWords(text, wordStems('piscina'))
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
  });

  it('cuts a description around the first word asked for', () => {
    const description =
      'Excelente oportunidad en Ingahurco, uno de los sectores más buscados de Ambato. 124 m² de construcción, 2 dormitorios. Cuenta con jardín privado y piscina temperada. Documentos en regla.';
    const cut = excerpt(description, wordStems('piscina')) as string;
    expect(cut).toContain('piscina temperada');
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(114);
    expect(excerpt(description, wordStems('ascensor'))).toBeUndefined();
  });
});
