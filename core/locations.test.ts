import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import es from './locales/es.json';
import { slugify } from './routes.ts';
import { findLocation, heroLocation, LOCATIONS } from './locations.ts';

describe('search hero locations (docs/decisions.md #4)', () => {
  it('turns names into slugs without accents or punctuation', () => {
    expect(slugify('Bahía de Caráquez')).toBe('bahia-de-caraquez');
    expect(slugify('  QUITO ')).toBe('quito');
    expect(slugify('point_loma')).toBe('point-loma');
    expect(slugify('<script>')).toBe('script');
    expect(slugify('')).toBe('');
  });

  it('knows the spec three and the Ecuador places, each with a name and a subtitle in both languages', () => {
    for (const slug of [
      'point-loma',
      'ocean-beach',
      'sunset-cliffs',
      'quito',
      'guayaquil',
      'cuenca',
      'cumbaya',
      'samborondon',
      'salinas',
      'manta',
    ])
      expect(findLocation(slug)?.slug).toBe(slug);
    const names = (d: typeof en) => d.site.locations as Record<string, { name: string; subtitle: string }>;
    for (const l of LOCATIONS) {
      expect(names(en)[l.slug]?.subtitle, l.slug).toBeTruthy();
      expect(names(es)[l.slug]?.subtitle, l.slug).toBeTruthy();
    }
    // only Ecuador places preset the search
    expect(findLocation('point-loma')?.city).toBeUndefined();
    expect(findLocation('Cumbayá')?.city).toBe('Cumbayá');
  });

  it('takes the path segment first, then ?location=, then ?city=', () => {
    expect(heroLocation('/search-properties/cumbaya', '?location=quito').known?.slug).toBe('cumbaya');
    expect(heroLocation('/search-properties', '?location=Ocean%20Beach').known?.slug).toBe('ocean-beach');
    expect(heroLocation('/search-properties', '?city=Guayaquil').known?.slug).toBe('guayaquil');
    expect(heroLocation('/search-properties', '')).toEqual({});
    expect(heroLocation('/search-properties', '?location=atlantis')).toEqual({ unknown: 'atlantis' });
    expect(heroLocation('/search-properties/%E2%9C%93', '').unknown).toBe('✓');
  });
});
