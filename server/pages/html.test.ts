import { describe, expect, it } from 'vitest';
import { excerpt, fitTitle } from './html.tsx';

describe("a page's title and description, as a search result shows them", () => {
  const long = (title: string) => `${title} – $144,000 | eXp Realty Ecuador`;
  const short = (title: string) => `${title} – $144,000`;

  it('keeps the site name when the whole title fits, and drops it before it cuts a word of the listing', () => {
    expect(fitTitle('Casa en Cumbayá', long, short)).toBe('Casa en Cumbayá – $144,000 | eXp Realty Ecuador');
    // 72 characters with the site's name: the listing's own words come first
    expect(fitTitle('Residencia de 103 m² en Iñaquito, Quito', long, short)).toBe(
      'Residencia de 103 m² en Iñaquito, Quito – $144,000',
    );
  });

  it('cuts a title too long even without the site name at a word, not after a comma, within 70 characters', () => {
    const title = 'Departamento amoblado con vista al parque La Carolina, cerca del Quicentro, Quito';
    const fitted = fitTitle(title, long, short);
    expect(fitted.length).toBeLessThanOrEqual(70);
    expect(fitted).toMatch(/^Departamento amoblado con vista al parque La Carolina[^,]*… – \$144,000$/);
  });

  it('counts the title as the page source writes it (an ampersand is five characters there)', () => {
    const title = 'Casa & jardín & piscina & terraza';
    expect(long(title).length).toBeLessThanOrEqual(70);
    expect(fitTitle(title, long, short)).toBe(short(title));
  });

  it('ends a cut description on a word, without the comma it was cut after', () => {
    expect(excerpt('Residencia de 103 m² en Iñaquito, Quito, cerca del parque', 36)).toBe(
      'Residencia de 103 m² en Iñaquito…',
    );
  });
});
