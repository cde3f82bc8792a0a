import { describe, expect, it } from 'vitest';
import { appliedFilters, filterArgs, filtersFromArgs, type SearchFilters } from './filters.ts';
import { parseBbox, searchPageQuery } from './filter-params.ts';
import {
  pageWindow,
  parseSearchAnswer,
  readSearchParams,
  searchFiltersKey,
  searchFiltersKey as filtersKey,
  showingRange,
  totalPages,
  writeSearchParams,
} from './search-state.ts';

describe('search state in the URL', () => {
  it('reads every filter name of docs/product.md §4, flags only when "true"', () => {
    const s = readSearchParams(
      new URLSearchParams(
        'propertyType=house&minPrice=100000&maxPrice=500000&beds=2&baths=1&minSqft=50&maxSqft=300&yearBuiltFrom=1990&yearBuiltTo=2020&minLotSize=100&maxLotSize=900&city=Quito&pool=true&view=true&waterfront=false&garage=TRUE&newConstruction=true&airConditioning=1&sort=price_desc&page=3&property=42',
      ),
    );
    expect(s.filters).toEqual({
      propertyType: 'house',
      minPrice: 100000,
      maxPrice: 500000,
      beds: 2,
      baths: 1,
      minSqft: 50,
      maxSqft: 300,
      yearBuiltFrom: 1990,
      yearBuiltTo: 2020,
      minLotSize: 100,
      maxLotSize: 900,
      city: 'Quito',
      features: { pool: true, view: true, newConstruction: true },
    });
    expect(s).toMatchObject({ sort: 'price_desc', page: 3, property: '42' });
  });

  it('ignores malformed values', () => {
    const s = readSearchParams(
      new URLSearchParams('minPrice=abc&beds=-2&page=0&sort=cheapest&property=<script>&bbox=1,2,3&city=%20%20'),
    );
    expect(s).toEqual({ filters: {} });
    expect(parseBbox('-78.5,-0.3,-78.4,-0.1')).toEqual([-78.5, -0.3, -78.4, -0.1]);
    expect(parseBbox('-78.4,-0.3,-78.5,-0.1')).toBeUndefined();
  });

  it('writes every non-empty value, flags only when true, and keeps the keys of others', () => {
    const out = writeSearchParams(new URLSearchParams('lang=es&utm_source=mail&city=Old&page=9'), {
      filters: { city: 'Cuenca', propertyType: '', minPrice: 0, beds: 3, features: { pool: true, view: false } },
      sort: 'featured',
      page: 1,
    });
    expect(out.toString()).toBe('lang=es&utm_source=mail&city=Cuenca&beds=3&pool=true');
  });

  it('reads a place picked in the location box when it is a place path, with its words; anything else is no place', () => {
    expect(
      readSearchParams(new URLSearchParams('place=quito%2Finaquito&placeName=I%C3%B1aquito%2C+Quito')).filters,
    ).toEqual({
      place: 'quito/inaquito',
      placeName: 'Iñaquito, Quito',
    });
    expect(readSearchParams(new URLSearchParams('place=provincia/pichincha')).filters).toEqual({
      place: 'provincia/pichincha',
    });
    for (const bad of ['quito//x', '../etc', 'quito/inaquito/extra', 'provincia/', '<b>', 'a'.repeat(200)])
      expect(readSearchParams(new URLSearchParams({ place: bad, placeName: 'x' })).filters, bad).toEqual({});
    const out = writeSearchParams(new URLSearchParams(), {
      filters: { place: 'cumbaya', placeName: 'Cumbayá', features: { pool: true } },
      sort: 'featured',
      page: 1,
    });
    expect(out.toString()).toBe('place=cumbaya&placeName=Cumbay%C3%A1&pool=true');
  });

  it('round-trips', () => {
    const state = {
      filters: {
        propertyType: 'apartment',
        city: 'Cumbayá',
        minPrice: 250000,
        maxPrice: 1000000,
        baths: 2,
        bbox: [-78.5, -0.3, -78.4, -0.1] as [number, number, number, number],
      },
      sort: 'price_asc' as const,
      page: 4,
      property: '17',
    };
    const back = readSearchParams(writeSearchParams(new URLSearchParams(), state));
    expect(back).toEqual(state);
  });

  it('reads and writes the words and a drawn area (compactly encoded); a broken area is no area', () => {
    const polygon: [number, number][] = [
      [-78.44312, -0.20541],
      [-78.42011, -0.19873],
      [-78.41234, -0.21502],
    ];
    const out = writeSearchParams(new URLSearchParams(), {
      filters: { keywords: ' piscina  -ruido ', polygon },
      sort: 'relevance',
      page: 1,
    });
    expect(out.get('keywords')).toBe('piscina -ruido');
    expect(out.get('polygon')).toMatch(/^[A-Za-z0-9_-]{10,30}$/);
    expect(readSearchParams(out)).toEqual({ filters: { keywords: 'piscina -ruido', polygon }, sort: 'relevance' });
    expect(readSearchParams(new URLSearchParams({ polygon: `${out.get('polygon')}!` })).filters).toEqual({});
    expect(readSearchParams(new URLSearchParams({ keywords: 'x'.repeat(500) })).filters.keywords).toHaveLength(200);
  });

  it('keys filters so the same search is cached once', () => {
    expect(filtersKey({ city: 'Quito ' })).toBe(filtersKey({ city: 'quito' }));
    expect(filtersKey({ city: 'Quito' })).not.toBe(filtersKey({ city: 'Loja' }));
  });
});

describe("an alert mail's link to its search (protocol/filters.ts searchPageQuery)", () => {
  const CASES: SearchFilters[] = [
    {},
    { city: 'Cumbayá', propertyType: 'house' },
    { minPrice: 100000, maxPrice: 500000, beds: 3, baths: 2, minSqft: 80, maxSqft: 400 },
    { city: '100% & más', bbox: [-78.51234567, -0.25, -78.4, -0.1] },
    { propertyType: 'any', minPrice: 0, maxPrice: 999999999, city: '  ' },
    { keywords: '"vista al mar" -ruido piscina', features: { pool: true }, place: 'cumbaya', placeName: 'Cumbayá' },
    {
      polygon: [
        [-78.44312, -0.20541],
        [-78.42011, -0.19873],
        [-78.41234, -0.21502],
        [-78.43689, -0.22811],
      ],
      keywords: 'jardín & más',
    },
  ];
  it.each(CASES)('reads back as the same search on the page: %j', (filters) => {
    // as a saved search keeps them, then as the search page reads its address
    const kept = filtersFromArgs(filterArgs(filters));
    const read = readSearchParams(new URLSearchParams(searchPageQuery(kept, { sort: 'newest' })));
    expect(read.sort).toBe('newest');
    const rounded = (f: SearchFilters) => ({
      ...appliedFilters(f),
      ...(f.bbox ? { bbox: f.bbox.map((n) => Number(n.toFixed(5))) } : {}),
    });
    expect(appliedFilters(read.filters)).toEqual(rounded(filters));
  });
});

describe('pagination', () => {
  it('shows a window of at most 5 pages that follows the current one, pinned at the ends', () => {
    expect(pageWindow(1, 73)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 73)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 73)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 73)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(40, 73)).toEqual([38, 39, 40, 41, 42]);
    expect(pageWindow(72, 73)).toEqual([69, 70, 71, 72, 73]);
    expect(pageWindow(73, 73)).toEqual([69, 70, 71, 72, 73]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(9, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('counts pages and the showing range', () => {
    expect(totalPages(1732, 24)).toBe(73);
    expect(totalPages(0, 24)).toBe(0);
    expect(showingRange(1, 24, 1732)).toEqual([1, 24]);
    expect(showingRange(73, 24, 1732)).toEqual([1729, 1732]);
    expect(showingRange(1, 24, 0)).toEqual([0, 0]);
  });
});

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

describe("a search page's embedded answer", () => {
  const good = {
    filtersKey: searchFiltersKey({ city: 'Quito' }),
    sort: 'featured',
    page: 2,
    total: 30,
    rows: [{ id: 1 }],
  };
  it('is read as written, and anything else is no answer (the element then asks for it)', () => {
    expect(parseSearchAnswer(good)).toEqual(good);
    for (const bad of [
      '',
      null,
      'not json',
      '[]',
      JSON.stringify({ ...good, total: '30' }),
      JSON.stringify({ ...good, rows: [1, 2] }),
      JSON.stringify({ ...good, rows: [null] }),
      'null',
    ])
      expect(parseSearchAnswer(typeof bad === 'string' ? safeJson(bad) : bad), String(bad)).toBeUndefined();
  });
});
