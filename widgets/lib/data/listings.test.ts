import { describe, expect, it } from 'vitest';
import { applyFilters, applySort, PRICE_MAX_ANY, type SearchFilters } from './listings.ts';
import { agentSearchFilter } from './agents.ts';

/** Records the builder calls, as postgrest-js would turn them into query parameters. */
function recorder() {
  const calls: string[] = [];
  const b = {
    eq: (c: string, v: unknown) => (calls.push(`${c}=eq.${v}`), b),
    // postgrest-js's match(): eq for each key, in order
    match: (o: Record<string, unknown>) => (Object.entries(o).forEach(([c, v]) => calls.push(`${c}=eq.${v}`)), b),
    gte: (c: string, v: unknown) => (calls.push(`${c}=gte.${v}`), b),
    lte: (c: string, v: unknown) => (calls.push(`${c}=lte.${v}`), b),
    ilike: (c: string, v: string) => (calls.push(`${c}=ilike.${v}`), b),
    like: (c: string, v: string) => (calls.push(`${c}=like.${v}`), b),
    contains: (c: string, v: readonly string[]) => (calls.push(`${c}=cs.{${v.join(',')}}`), b),
    order: (c: string, o?: { ascending?: boolean; nullsFirst?: boolean }) => (calls.push(`order=${c}.${o?.ascending === false ? 'desc' : 'asc'}${o?.nullsFirst === false ? '.nullslast' : ''}`), b),
  };
  return { b, calls };
}

const mapped = (f: SearchFilters) => {
  const { b, calls } = recorder();
  applyFilters(b, f);
  return calls;
};

describe('filter mapping (docs/product.md §5, §7)', () => {
  it('always asks for active EC listings', () => {
    expect(mapped({})).toEqual(['country_code=eq.EC', 'status=eq.1']);
  });

  it('maps every filter', () => {
    expect(
      mapped({
        propertyType: 'house', minPrice: 100000, maxPrice: 500000, beds: 3, baths: 2, minSqft: 100, maxSqft: 300, city: ' Cumbayá ', place: 'quito/la-carolina', agentId: '4', bbox: [-78.5, -0.3, -78.4, -0.1],
        features: { pool: true, newConstruction: true, view: false }, yearBuiltFrom: 2000, yearBuiltTo: 2020, minLotSize: 100, maxLotSize: 900,
      }),
    ).toEqual([
      'country_code=eq.EC',
      'status=eq.1',
      'property_type=ilike.%house%',
      'price=gte.100000',
      'price=lte.500000',
      'bedrooms=gte.3',
      'bathrooms=gte.2',
      'square_feet=gte.100',
      'square_feet=lte.300',
      'place_search=like.%cumbaya%',
      'city_slug=eq.quito',
      'sector_slug=eq.la-carolina',
      'features=cs.{pool,new_construction}',
      'year_built=gte.2000',
      'year_built=lte.2020',
      'lot_size=gte.100',
      'lot_size=lte.900',
      'agent_id=eq.4',
      'lat=gte.-0.3',
      'lat=lte.-0.1',
      'lng=gte.-78.5',
      'lng=lte.-78.4',
    ]);
  });

  it('ignores the values that mean "any"', () => {
    const base = ['country_code=eq.EC', 'status=eq.1'];
    expect(mapped({ propertyType: 'any' })).toEqual(base);
    expect(mapped({ propertyType: 'ANY' })).toEqual(base);
    expect(mapped({ propertyType: '  ' })).toEqual(base);
    expect(mapped({ minPrice: 0 })).toEqual(base);
    expect(mapped({ maxPrice: PRICE_MAX_ANY })).toEqual(base);
    expect(mapped({ beds: 0, baths: 0, minSqft: 0, maxSqft: 0 })).toEqual(base);
    expect(mapped({ city: '   ' })).toEqual(base);
    expect(mapped({ beds: Number.NaN, minPrice: -1 })).toEqual(base);
    expect(mapped({ yearBuiltFrom: 0, minLotSize: -5, features: { pool: false } })).toEqual(base);
    // a place that is no place path is no filter
    expect(mapped({ place: 'quito//x' })).toEqual(base);
    expect(mapped({ place: 'provincia/pichincha' })).toEqual([...base, 'state_slug=eq.pichincha']);
  });

  it('takes the visitor text literally in LIKE patterns', () => {
    expect(mapped({ city: '100%_a\\b' })).toContain('place_search=like.%100\\%\\_a\\\\b%');
  });

  it('sorts featured and newest by created_at desc, prices with nulls last and id as tie-break', () => {
    const order = (s: 'featured' | 'newest' | 'price_asc' | 'price_desc') => {
      const { b, calls } = recorder();
      applySort(b, s);
      return calls;
    };
    expect(order('featured')).toEqual(['order=created_at.desc', 'order=id.desc']);
    expect(order('newest')).toEqual(['order=created_at.desc', 'order=id.desc']);
    expect(order('price_asc')).toEqual(['order=price.asc.nullslast', 'order=id.asc']);
    expect(order('price_desc')).toEqual(['order=price.desc.nullslast', 'order=id.desc']);
  });

  it('quotes and escapes the agent search for or=(...): a regular expression that matches the text literally, * included', () => {
    expect(agentSearchFilter('  ')).toBeUndefined();
    expect(agentSearchFilter('Ana, (Q).%_"\\*')).toBe(
      'first_name_search.match."ana, \\\\(q\\\\)\\\\.%_\\"\\\\\\\\\\\\*",last_name_search.match."ana, \\\\(q\\\\)\\\\.%_\\"\\\\\\\\\\\\*",email_search.match."ana, \\\\(q\\\\)\\\\.%_\\"\\\\\\\\\\\\*"',
    );
    expect(agentSearchFilter('JOSÉ')).toContain('.match."jose"');
  });
});
