/**
 * The embed attributes of the filters are checked against the filter table (core/protocol/filters.ts):
 * each filter that names an attribute has it, of its kind and within its bounds, and no attribute
 * here is a filter the table does not know.
 */
import { describe, expect, it } from 'vitest';
import { FILTERS, OPERATIONS } from '../../../core/protocol/filters.ts';
import { filterAttributes, filtersFrom } from './filter-attributes.ts';

describe('the filters an element takes as attributes', () => {
  it("are the filter table's, of its kinds and bounds", () => {
    const named = FILTERS.filter((f) => f.attribute);
    expect(Object.keys(filterAttributes).sort()).toEqual(named.map((f) => f.attribute).sort());
    for (const spec of named) {
      const attr = filterAttributes[spec.attribute as keyof typeof filterAttributes] as {
        type: string;
        maxLength?: number;
        max?: number;
        integer?: boolean;
      };
      if (spec.kind === 'number') {
        expect(attr, spec.key).toMatchObject({ type: 'number', max: spec.max });
        expect(Boolean(attr.integer), spec.key).toBe(Boolean(spec.integer));
      } else if (spec.kind === 'flag') {
        expect(attr.type, spec.key).toBe('boolean');
      } else if (spec.kind === 'choice') {
        expect(attr, spec.key).toMatchObject({ type: 'enum', values: spec.choices });
      } else if (spec.kind === 'operation') {
        expect(attr, spec.key).toMatchObject({ type: 'enum', values: [...OPERATIONS], default: 'sale' });
      } else {
        expect(attr.type, spec.key).toBe('string');
        if (spec.maxLength && spec.kind !== 'features') expect(attr.maxLength, spec.key).toBe(spec.maxLength);
      }
    }
  });

  it('make the filters the table applies', () => {
    // what an attribute gives as the filter takes it
    const ASIS = {
      city: 'Quito',
      place: 'quito/inaquito',
      propertyType: 'house',
      minPrice: 1,
      maxPrice: 2,
      beds: 3,
      baths: 1.5,
      openHouse: true,
    } as const;
    expect(filtersFrom({ ...ASIS, features: 'pool, garage', keywords: ' piscina  ' })).toEqual({
      ...ASIS,
      features: { pool: true, garage: true },
      keywords: 'piscina',
    });
    expect(filtersFrom({ openHouse: false })).toEqual({});
  });
});
