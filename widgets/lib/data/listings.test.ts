import { describe, expect, it } from 'vitest';
import { PRICE_MAX_ANY, searchArgs, type SearchFilters } from './listings.ts';
import { agentSearchFilter } from './agents.ts';

const args = (f: SearchFilters) => searchArgs(f, 'featured', 1).filters;
const TRIANGLE: Array<[number, number]> = [
  [-78.45, -0.2],
  [-78.44, -0.2],
  [-78.44, -0.19],
];

describe('the search call (docs/decisions.md #27): the filters as internal.listing_matches names them', () => {
  it('asks for nothing more than active EC listings when nothing is filtered', () => {
    expect(searchArgs({}, 'featured', 1)).toEqual({ filters: {}, sort: 'featured', page_size: 24, page_offset: 0 });
  });

  it('names every filter', () => {
    expect(
      args({
        propertyType: 'house',
        minPrice: 100000,
        maxPrice: 500000,
        beds: 3,
        baths: 2,
        minSqft: 100,
        maxSqft: 300,
        city: ' Cumbayá ',
        place: 'quito/la-carolina',
        agentId: '4',
        bbox: [-78.5, -0.3, -78.4, -0.1],
        features: { pool: true, newConstruction: true, view: false },
        yearBuiltFrom: 2000,
        yearBuiltTo: 2020,
        minLotSize: 100,
        maxLotSize: 900,
        keywords: '  "vista al  mar"   -ruido ',
        // copies: the call may not change what it was given, and the answer is compared apart
        polygon: [...TRIANGLE.map(([x, y]) => [x, y] as [number, number]), [-78.45, -0.2]],
      }),
    ).toEqual({
      property_type: 'house',
      price_min: 100000,
      price_max: 500000,
      beds_min: 3,
      baths_min: 2,
      area_min: 100,
      area_max: 300,
      city: 'Cumbayá',
      place: 'quito/la-carolina',
      agent: '4',
      area_west: -78.5,
      area_south: -0.3,
      area_east: -78.4,
      area_north: -0.1,
      features: ['pool', 'new_construction'],
      year_min: 2000,
      year_max: 2020,
      lot_min: 100,
      lot_max: 900,
      words: '"vista al mar" -ruido',
      // the closing point is the first one again: dropped
      polygon: TRIANGLE,
    });
  });

  it('ignores the values that mean "any", and what is no place, no words or no area', () => {
    for (const f of [
      { propertyType: 'any' },
      { propertyType: 'ANY' },
      { propertyType: '  ' },
      { minPrice: 0 },
      { maxPrice: PRICE_MAX_ANY },
      { beds: 0, baths: 0, minSqft: 0, maxSqft: 0 },
      { city: '   ' },
      { beds: Number.NaN, minPrice: -1 },
      { yearBuiltFrom: 0, minLotSize: -5, features: { pool: false } },
      { place: 'quito//x' },
      { keywords: ' \t ' },
      {
        polygon: [
          [-78.45, -0.2],
          [-78.44, -0.2],
        ],
      },
      {
        polygon: [
          [-78.45, -0.2],
          [-78.44, -0.2],
          [-78.43, -0.2],
        ],
      },
      {
        polygon: [
          [-78.45, -0.2],
          [-78.44, -0.2],
          [-78.44, 91],
        ],
      },
    ] satisfies SearchFilters[]) {
      expect(args(f), JSON.stringify(f)).toEqual({});
    }
    expect(args({ place: 'provincia/pichincha' })).toEqual({ place: 'provincia/pichincha' });
  });

  it('pages by 24 from the first page (or by the size asked for), whatever the page number says', () => {
    expect(searchArgs({}, 'price_asc', 3)).toMatchObject({ sort: 'price_asc', page_size: 24, page_offset: 48 });
    expect(searchArgs({}, 'relevance', 0)).toMatchObject({ page_offset: 0 });
    expect(searchArgs({}, 'newest', 2.7, 6)).toMatchObject({ page_size: 6, page_offset: 6 });
  });

  it('quotes and escapes the agent search for or=(...): a regular expression that matches the text literally, * included', () => {
    expect(agentSearchFilter('  ')).toBeUndefined();
    expect(agentSearchFilter('Ana, (Q).%_"\\*')).toBe(
      'first_name_search.match."ana, \\\\(q\\\\)\\\\.%_\\"\\\\\\\\\\\\*",last_name_search.match."ana, \\\\(q\\\\)\\\\.%_\\"\\\\\\\\\\\\*",email_search.match."ana, \\\\(q\\\\)\\\\.%_\\"\\\\\\\\\\\\*"',
    );
    expect(agentSearchFilter('JOSÉ')).toContain('.match."jose"');
  });
});
