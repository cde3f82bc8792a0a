/**
 * The filter table (core/protocol/filters.ts) against what reads it: every argument is a condition
 * of internal.listing_conditions (the one SQL rule), and the table's values round-trip through the
 * search page's address, the arguments a saved search keeps and an alert request's check.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  appliedFilters,
  controlOptions,
  filterArgs,
  FILTER,
  FILTERS,
  filtersFromArgs,
  shownFor,
  type SearchFilters,
} from './filters.ts';
import { clockOffsetMs, pinClock, setClockOffset } from '../clock.ts';
import { checkFilterValue, filtersFromParams, searchPageQuery } from './filter-params.ts';

const SEARCH_SQL = readFileSync(new URL('../../supabase/schemas/30_search.sql', import.meta.url), 'utf8');
const matches = SEARCH_SQL.slice(
  SEARCH_SQL.indexOf('create or replace function internal.listing_conditions'),
  SEARCH_SQL.indexOf(
    '$conditions$',
    SEARCH_SQL.indexOf('$conditions$', SEARCH_SQL.indexOf('create or replace function internal.listing_conditions')) +
      1,
  ),
);

const EVERY: SearchFilters = {
  propertyType: 'house',
  place: 'quito/inaquito',
  placeName: 'Iñaquito, Quito',
  city: 'Cumbayá',
  bbox: [-78.5, -0.3, -78.4, -0.1],
  polygon: [
    [-78.44, -0.21],
    [-78.42, -0.2],
    [-78.43, -0.19],
  ],
  keywords: 'piscina "vista al mar" -ruido',
  beds: 3,
  baths: 2,
  minSqft: 80,
  maxSqft: 400,
  minPrice: 100000,
  maxPrice: 500000,
  yearBuiltFrom: 1990,
  yearBuiltTo: 2020,
  minLotSize: 300,
  maxLotSize: 900,
  features: { pool: true, newConstruction: true },
  openHouse: true,
  operation: 'rent',
  maxHoaFee: 150,
  parking: 2,
  storage: true,
  furnished: true,
  pets: true,
  agentId: '7',
  deliveryBy: 2028,
  stage: 'under_construction',
};

describe('the filter table', () => {
  it('has a condition of internal.listing_conditions for every argument (the place name is words only)', () => {
    expect(matches).toContain("f->>'price_min'");
    for (const spec of FILTERS) {
      if (!spec.arg || spec.arg === 'place_name') continue;
      expect(matches, spec.arg).toMatch(new RegExp(`f->>?'${spec.arg}'`));
    }
    for (const side of ['west', 'south', 'east', 'north']) expect(matches).toContain(`f->>'area_${side}'`);
  });

  it('gives every filter a value in EVERY, so the round trips below cover them all', () => {
    expect(Object.keys(appliedFilters(EVERY)).sort()).toEqual(FILTERS.map((f) => f.key).sort());
  });

  it('round-trips a search through the arguments a saved search keeps', () => {
    expect(filtersFromArgs(filterArgs(EVERY))).toEqual(appliedFilters(EVERY));
  });

  it("round-trips a search through the page's address, but the agent's scope, which stays off it", () => {
    const { agentId: _agent, ...visitors } = appliedFilters(EVERY);
    expect(filtersFromParams(new URLSearchParams(searchPageQuery(EVERY)))).toEqual(visitors);
  });

  it("checks a request's values by each filter's rule", () => {
    for (const spec of FILTERS) {
      const good = EVERY[spec.key];
      expect(checkFilterValue(spec, good), spec.key).toEqual({ value: good });
    }
    expect(checkFilterValue(FILTER.beds, 21)).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.beds, 2.5)).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.yearBuiltFrom, 1200)).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.city, 'x'.repeat(101))).toEqual({ problem: 'tooLong' });
    expect(checkFilterValue(FILTER.city, 'a\nb')).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.place, '../etc')).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.agentId, 'x1')).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.features, { pool: true, sauna: true })).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.bbox, [1, 2, 0, 3])).toEqual({ problem: 'invalid' });
    // the spec's ignored values apply nothing
    expect(appliedFilters({ propertyType: 'Any', minPrice: 0, maxPrice: 999_999_999, city: '  ' })).toEqual({});
  });

  it('new developments: an operation of their own, their delivery shown and applied with them, its years from the clock', () => {
    expect(checkFilterValue(FILTER.operation, 'project')).toEqual({ value: 'project' });
    expect(checkFilterValue(FILTER.operation, 'lease')).toEqual({ problem: 'invalid' });
    expect(checkFilterValue(FILTER.stage, 'pre_sale')).toEqual({ value: 'pre_sale' });
    expect(checkFilterValue(FILTER.stage, 'finished')).toEqual({ problem: 'invalid' });
    expect(filtersFromParams(new URLSearchParams('operation=project&stage=delivered&stage2=x'))).toEqual({
      operation: 'project',
      stage: 'delivered',
    });
    expect(filterArgs({ operation: 'project', deliveryBy: 2027, beds: 2 })).toEqual({
      operation: 'project',
      delivery_by: 2027,
      beds_min: 2,
    });
    expect(filtersFromParams(new URLSearchParams('operation=project&deliveryBy=2027'))).toEqual({
      operation: 'project',
      deliveryBy: 2027,
    });
    expect(shownFor('deliveryBy', 'project')).toBe(true);
    expect(shownFor('deliveryBy', undefined)).toBe(false);
    expect(shownFor('pets', 'rent')).toBe(true);
    expect(shownFor('pets', 'project')).toBe(false);
    expect(shownFor('beds', 'project')).toBe(true);
    const suite = clockOffsetMs();
    try {
      pinClock('2026-12-03T12:00:00Z');
      expect(controlOptions(FILTER.deliveryBy.control, 'project')).toEqual([2026, 2027, 2028, 2029, 2030]);
      pinClock('2031-01-01T12:00:00Z');
      expect(controlOptions(FILTER.deliveryBy.control, 'project')[0]).toBe(2031);
    } finally {
      setClockOffset(suite);
    }
  });
});
