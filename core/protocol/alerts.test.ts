import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAlertEmail, describeSearch } from './alerts.ts';
import type { FilterArgs } from './filters.ts';
import { translate, type Dict } from '../translate.ts';

// the locale files as the mails get them (read, not imported: this folder never imports widgets/)
const locale = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8')) as Dict;
const en = locale('en');
const es = locale('es');

const words = (lang: 'en' | 'es') => (key: string, params?: Record<string, unknown>) =>
  translate(lang === 'en' ? en : es, key, params, lang);

// One table for the form, the mails and the alert pages, in both languages; the filters in the
// filter table's order (core/protocol/filters.ts), as the chips show them.
const CASES: Array<[FilterArgs, string, string]> = [
  [{}, 'Every property for sale in Ecuador', 'Todas las propiedades en venta en Ecuador'],
  [{ city: 'Loja' }, 'Properties in Loja', 'Propiedades en Loja'],
  [{ city: 'Loja', beds_min: 2 }, 'Properties in Loja · 2+ bedrooms', 'Propiedades en Loja · 2+ dormitorios'],
  [
    { property_type: 'house', city: 'Quito', price_min: 100000 },
    'House in Quito · from $100,000',
    'Casa en Quito · desde $100,000',
  ],
  [{ property_type: 'apartment' }, 'Apartment', 'Departamento'],
  [
    { area_west: -78.5, area_south: -0.3, area_east: -78.4, area_north: -0.1 },
    'Properties in the area chosen on the map',
    'Propiedades en la zona elegida en el mapa',
  ],
  [
    { price_max: 500000, baths_min: 1, area_min: 100 },
    'Properties · 1+ bathroom · at least 100 m² · up to $500,000',
    'Propiedades · 1+ baño · desde 100 m² · hasta $500,000',
  ],
  [{ agent: '7' }, "Properties · one agent's listings", 'Propiedades · las propiedades de un agente'],
  // a place picked in the location box, by the words it showed (or its path's, when not kept); the other filters
  [
    { place: 'quito/inaquito', place_name: 'Iñaquito, Quito' },
    'Properties in Iñaquito, Quito',
    'Propiedades en Iñaquito, Quito',
  ],
  [{ place: 'provincia/santa-elena', property_type: 'house' }, 'House in Santa Elena', 'Casa en Santa Elena'],
  [
    { features: ['pool', 'new_construction', 'nonsense'], year_min: 2010, year_max: 2020, lot_min: 300, lot_max: 900 },
    'Properties · built from 2010 · built until 2020 · lot from 300 m² · lot up to 900 m² · with pool, new construction',
    'Propiedades · construido desde 2010 · construido hasta 2020 · terreno desde 300 m² · terreno hasta 900 m² · con piscina, para estrenar',
  ],
  // new developments: of no one type they are projects; of a type, that type in new developments
  [{ operation: 'project' }, 'New developments', 'Proyectos nuevos'],
  [
    { operation: 'project', city: 'Cumbayá', beds_min: 2 },
    'New developments in Cumbayá · 2+ bedrooms',
    'Proyectos nuevos en Cumbayá · 2+ dormitorios',
  ],
  [
    { operation: 'project', property_type: 'house', city: 'Cuenca' },
    'House in new developments in Cuenca',
    'Casa en proyectos nuevos en Cuenca',
  ],
  [{ operation: 'rent', city: 'Quito' }, 'Properties for rent in Quito', 'Propiedades en arriendo en Quito'],
  // what a visitor typed is written as typed, never looked up as a text of ours
  [
    { city: '@alerts.summary.everything' },
    'Properties in @alerts.summary.everything',
    'Propiedades en @alerts.summary.everything',
  ],
  [{ city: '{{city}} $& $1' }, 'Properties in {{city}} $& $1', 'Propiedades en {{city}} $& $1'],
];

describe('a saved search in words (docs/product.md §2, search alerts)', () => {
  it.each(CASES)('%j', (args, english, spanish) => {
    expect(describeSearch(args, words('en'))).toBe(english);
    expect(describeSearch(args, words('es'))).toBe(spanish);
  });
});

describe('the alert e-mail check', () => {
  it('refuses what the inquiry form refuses', () => {
    expect(checkAlertEmail('')).toBe('required');
    expect(checkAlertEmail('not an address')).toBe('invalid');
    expect(checkAlertEmail(`${'a'.repeat(250)}@example.org`)).toBe('tooLong');
    expect(checkAlertEmail('ana@example.org')).toBeUndefined();
  });
});
