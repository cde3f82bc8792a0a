import { describe, expect, it } from 'vitest';
import { readNearbyGeoJson } from './nearby.ts';

const feature = (id: string | undefined, properties: Record<string, unknown>, geometry: unknown) => ({
  type: 'Feature',
  id,
  properties,
  geometry,
});
const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const file = (...features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features });

describe('the places of interest of a GeoJSON file', () => {
  it("reads OpenStreetMap's tags as our kinds, a polygon at its ring's mean, the Spanish name first, and passes over the rest", () => {
    const read = readNearbyGeoJson(
      file(
        feature('node/1', { amenity: 'school', name: 'Colegio Uno' }, point(-78.48, -0.18)),
        feature(
          'way/2',
          { leisure: 'park', name: 'Park Two', 'name:es': 'Parque Dos' },
          {
            type: 'Polygon',
            coordinates: [
              [
                [-78.5, -0.2],
                [-78.4, -0.2],
                [-78.4, -0.1],
                [-78.5, -0.1],
                [-78.5, -0.2],
              ],
            ],
          },
        ),
        feature('node/3', { shop: 'mall', name: 'Quicentro' }, point(-78.48, -0.176)),
        feature('node/4', { shop: 'supermarket', name: 'Supermaxi' }, point(-78.47, -0.17)),
        feature('node/5', { amenity: 'clinic', name: 'Clínica' }, point(-78.47, -0.17)),
        feature('node/6', { station: 'subway', railway: 'station', name: 'Metro: Iñaquito' }, point(-78.487, -0.176)),
        feature('node/7', { amenity: 'university', name: 'Universidad' }, point(-78.49, -0.2)),
        feature(undefined, { kind: 'transport', name: 'Our own stop' }, point(-78.4, -0.2)),
        // not of interest: a bench, a school without a name
        feature('node/8', { amenity: 'bench', name: 'A bench' }, point(-78.4, -0.2)),
        feature('node/9', { amenity: 'school' }, point(-78.4, -0.2)),
      ),
      'osm-quito',
    );
    expect(read.read).toBe(10);
    expect(read.passedOver).toBe(2);
    expect(read.refused).toEqual([]);
    expect(read.rows.map((r) => [r.source_key, r.kind, r.name, r.position])).toEqual([
      ['node/1', 'school', 'Colegio Uno', '(-78.48,-0.18)'],
      ['way/2', 'park', 'Parque Dos', '(-78.45,-0.15)'],
      ['node/3', 'shopping', 'Quicentro', '(-78.48,-0.176)'],
      ['node/4', 'supermarket', 'Supermaxi', '(-78.47,-0.17)'],
      ['node/5', 'hospital', 'Clínica', '(-78.47,-0.17)'],
      ['node/6', 'transport', 'Metro: Iñaquito', '(-78.487,-0.176)'],
      ['node/7', 'university', 'Universidad', '(-78.49,-0.2)'],
      ['transport:Our own stop', 'transport', 'Our own stop', '(-78.4,-0.2)'],
    ]);
    expect(read.rows.every((r) => r.source === 'osm-quito')).toBe(true);
  });

  it('refuses, with its reason, a place without a position, off the globe, with a name too long or a key said twice; a hostile name is kept as text', () => {
    const read = readNearbyGeoJson(
      file(
        feature('node/1', { amenity: 'school', name: 'No position' }, null),
        feature(
          'node/2',
          { amenity: 'school', name: 'A line' },
          {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
        ),
        feature('node/3', { amenity: 'school', name: 'Off the globe' }, point(-78, 91)),
        feature('node/4', { amenity: 'school', name: 'x'.repeat(121) }, point(-78, -0.2)),
        feature(
          'node/5',
          { amenity: 'school', name: '<img src=x onerror=alert(1)>\u0000\u202e  Colegio' },
          point(-78, -0.2),
        ),
        feature('node/5', { amenity: 'school', name: 'Again' }, point(-78, -0.2)),
        feature('node/6', { amenity: 'school', name: 'Strings' }, { type: 'Point', coordinates: ['-78', '-0.2'] }),
      ),
      'f',
    );
    expect(read.refused).toEqual([
      { key: 'node/1', reason: 'no position: a Point, a Polygon or a MultiPolygon is read' },
      { key: 'node/2', reason: 'no position: a Point, a Polygon or a MultiPolygon is read' },
      { key: 'node/3', reason: 'a position off the globe (-78, 91)' },
      { key: 'node/4', reason: 'a name longer than 120 characters' },
      { key: 'node/5', reason: 'its key is in the file twice' },
      { key: 'node/6', reason: 'no position: a Point, a Polygon or a MultiPolygon is read' },
    ]);
    expect(read.rows.map((r) => r.name)).toEqual(['<img src=x onerror=alert(1)> Colegio']);
  });

  it("reads a file that starts with a byte order mark, and a feature's name when its Spanish name is empty", () => {
    const read = readNearbyGeoJson(
      '\uFEFF' +
        file(feature('node/1', { amenity: 'school', 'name:es': ' ', name: 'Colegio Uno' }, point(-78.48, -0.18))),
      's',
    );
    expect(read.rows.map((r) => r.name)).toEqual(['Colegio Uno']);
  });

  it('throws on a file that is not JSON or not a FeatureCollection, naming which', () => {
    expect(() => readNearbyGeoJson('{"type":', 's')).toThrow(/^not JSON/);
    expect(() => readNearbyGeoJson('{"type":"Feature"}', 's')).toThrow('not a GeoJSON FeatureCollection');
    expect(() => readNearbyGeoJson('[1]', 's')).toThrow('not a GeoJSON FeatureCollection');
    expect(() => readNearbyGeoJson('null', 's')).toThrow('not a GeoJSON FeatureCollection');
  });
});
