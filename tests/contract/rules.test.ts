/**
 * The rules the browser and the database both apply, written once in TypeScript
 * (core/protocol/text.ts) and once in SQL (the migrations), held to one table
 * of cases: the same answers from TypeScript and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { listingPosition } from '../../core/protocol/listing.ts';
import { CENTROIDS } from '../../core/protocol/places.ts';
import { parsePlace } from '../../core/protocol/filters.ts';
import { fold, parseCoordinate } from '../../core/protocol/text.ts';
import { slugify } from '../../core/routes.ts';
import { migratedDatabase } from '../support/postgres.ts';

/** [text, its folded form]: every Spanish accented letter, ñ, ü, upper case, and a few beyond */
export const FOLD_CASES: Array<[string, string]> = [
  ['Cumbayá', 'cumbaya'],
  ['CUMBAYÁ', 'cumbaya'],
  ['áéíóú', 'aeiou'],
  ['ÁÉÍÓÚ', 'aeiou'],
  ['Ññ', 'nn'],
  ['Güemes PINGÜINO', 'guemes pinguino'],
  ['àèìòù âêîôû äëïöü ãõ', 'aeiou aeiou aeiou ao'],
  ['Çç', 'cc'],
  ['Bahía de Caráquez', 'bahia de caraquez'],
  ['  Quito  ', '  quito  '],
  ['São Paulo', 'sao paulo'],
  ['Łódź ØÆ ß', 'Łodz ØÆ ß'],
  // only A-Z is lowered, whatever the database's collation: Greek, Cyrillic and a dotted İ (its dot a mark) stay
  ['ΑΒΓ Жж İSTANBUL', 'ΑΒΓ Жж istanbul'],
  ['Montañita 2', 'montanita 2'],
  ['e\u0301', 'e'],
  ['', ''],
];

/** [text, max, the number or null]: what a feed sends as a coordinate */
export const COORDINATE_CASES: Array<[string, number, number | null]> = [
  ['-0.1807', 90, -0.1807],
  ['  -78.4678  ', 180, -78.4678],
  ['+1.5', 90, 1.5],
  ['.5', 90, 0.5],
  ['-.5', 90, -0.5],
  ['-0,18', 90, -0.18],
  ['0,5', 90, 0.5],
  ['1e2', 180, null],
  ['1E2', 180, null],
  ['-0.18000000000000000001', 90, -0.18],
  ['0.12345678901234567890', 90, 0.12345678901234568],
  ['', 90, null],
  ['   ', 90, null],
  ['N/A', 90, null],
  ['5.', 90, null],
  ['1.2.3', 90, null],
  ['1,2,3', 90, null],
  ['90', 90, 90],
  ['90.0001', 90, null],
  ['-180', 180, -180],
  ['181', 180, null],
  ['0x10', 90, null],
  ['Infinity', 90, null],
  ['12 34', 90, null],
];

/** [id, city, state, geo_lat, geo_lon]: where a listing is drawn on the map */
export const POSITION_CASES: Array<[number, string | null, string | null, string | null, string | null]> = [
  [1, 'Quito', null, '-0.1807', '-78.4678'],
  [2, 'Cuenca', 'Azuay', '-2,9', '-79.0'],
  [3, 'Cuenca', 'Azuay', null, null],
  [4, 'CUMBAYÁ', null, '', ''],
  [5, '  Bahía de Caráquez ', null, 'N/A', '-80.4'],
  [6, 'Pueblo Nuevo', 'Loja', null, null],
  [7, 'Pueblo Nuevo', 'Provincia X', null, null],
  [8, null, null, null, null],
  [9, 'Montañita', null, '1e1', '-80'],
  [10, 'Guayaquil', null, '-2.17', null],
  [123456789, 'Ibarra', null, null, null],
  [4294967297, 'Loja', null, '91', '-79'],
  [99999, 'Santo Domingo', null, '.5', '-79,1'],
  // every known place, as the browser knows it
  ...Object.keys(CENTROIDS).map((city, i): [number, string, null, null, null] => [
    1000 + i,
    city.toUpperCase(),
    null,
    null,
    null,
  ]),
];

/** [name, its slug]: what a place's path is made of (core/routes.ts slugify and public.slugify()) */
export const SLUG_CASES: Array<[string, string]> = [
  ['Iñaquito', 'inaquito'],
  ['La Carolina', 'la-carolina'],
  ['González Suárez', 'gonzalez-suarez'],
  ['Bahía de Caráquez', 'bahia-de-caraquez'],
  ['  Santa Elena ', 'santa-elena'],
  ['Km 2.5 Vía Samborondón', 'km-2-5-via-samborondon'],
  ['Manta 2000', 'manta-2000'],
  ['point_loma', 'point-loma'],
  ['<script>', 'script'],
  ['--x--', 'x'],
  ['Łódź', 'odz'],
  ['', ''],
  [`${'a'.repeat(79)} b`, 'a'.repeat(79)],
];

describe.each(['postgres'] as const)(
  'search_fold() and parse_coordinate() on %s agree with the TypeScript rules',
  () => {
    let db: Database;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ db, close } = await migratedDatabase());
    }, 120_000);
    afterAll(async () => {
      await close?.();
    });

    it('folds every case the same way', async () => {
      const rows = await db.admin.query<{ f: string }>(
        'select public.search_fold(t) as f from unnest($1::text[]) with ordinality as u(t, n) order by n',
        [FOLD_CASES.map(([t]) => t)],
      );
      const sql = rows.map((r) => r.f);
      expect(FOLD_CASES.map(([t]) => fold(t))).toEqual(FOLD_CASES.map(([, f]) => f));
      expect(sql).toEqual(FOLD_CASES.map(([, f]) => f));
    });

    it('makes every slug the same way (slugify()); each slug is a place path the search reads', async () => {
      const rows = await db.admin.query<{ s: string }>(
        'select public.slugify(t) as s from unnest($1::text[]) with ordinality as u(t, n) order by n',
        [SLUG_CASES.map(([t]) => t)],
      );
      expect(SLUG_CASES.map(([t]) => slugify(t))).toEqual(SLUG_CASES.map(([, s]) => s));
      expect(rows.map((r) => r.s)).toEqual(SLUG_CASES.map(([, s]) => s));
      for (const [, s] of SLUG_CASES.filter(([, s]) => s))
        expect(parsePlace(`${s}/${s}`), s).toEqual({ city: s, sector: s });
    });

    it('reads every coordinate the same way', async () => {
      const rows = await db.admin.query<{ c: number | null }>(
        'select public.parse_coordinate(t, m) as c from unnest($1::text[], $2::float8[]) with ordinality as u(t, m, n) order by n',
        [COORDINATE_CASES.map(([t]) => t), COORDINATE_CASES.map(([, m]) => m)],
      );
      expect(COORDINATE_CASES.map(([t, m]) => parseCoordinate(t, m))).toEqual(COORDINATE_CASES.map(([, , c]) => c));
      expect(rows.map((r) => (r.c === null ? null : Number(r.c)))).toEqual(COORDINATE_CASES.map(([, , c]) => c));
    });

    it('places every listing on the map where the browser places it (map_position())', async () => {
      const rows = await db.admin.query<{ p: number[] }>(
        'select public.map_position(i, c, s, la, lo) as p from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[]) with ordinality as u(i, c, s, la, lo, n) order by n',
        [0, 1, 2, 3, 4].map((k) => POSITION_CASES.map((c) => c[k])),
      );
      const expected = POSITION_CASES.map(([id, city, state, lat, lng]) => {
        const p = listingPosition({ id, city, state, geo_lat: lat, geo_lon: lng });
        return [p.lat, p.lng, p.approximate ? 1 : 0];
      });
      expect(rows.map((r) => r.p.map(Number))).toEqual(expected);
    });

    it('keeps the generated columns by the same rules (a listing with a comma coordinate has a position)', async () => {
      const [row] = await db.admin.query<{ lat: number | null; lng: number | null; city_search: string }>(
        "insert into internal.listings (title, city, geo_lat, geo_lon) values ('rules', 'Cumbayá', '-0,2005', '-78,43') returning lat, lng, city_search",
      );
      expect(row).toEqual({ lat: -0.2005, lng: -78.43, city_search: 'cumbaya' });
    });
  },
);
