import { describe, expect, it } from 'vitest';
import { decodePolygon, encodePolygon, validPolygon, type LngLat } from './polygon.ts';

const cumbaya: LngLat[] = [
  [-78.44312, -0.20541],
  [-78.42011, -0.19873],
  [-78.41234, -0.21502],
  [-78.43689, -0.22811],
];

describe('a drawn area in an address', () => {
  it('goes there and back unchanged, in characters an address carries as they are, about 5 a point', () => {
    const text = encodePolygon(cumbaya);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(text)).toBe(text);
    expect(decodePolygon(text)).toEqual(cumbaya);
    const lasso = Array.from({ length: 200 }, (_, i): LngLat => [
      Number((-78.43 + 0.01 * Math.cos((i / 200) * 2 * Math.PI)).toFixed(5)),
      Number((-0.21 + 0.01 * Math.sin((i / 200) * 2 * Math.PI)).toFixed(5)),
    ]);
    const long = encodePolygon(lasso);
    expect(decodePolygon(long)).toEqual(lasso);
    expect(long.length).toBeLessThan(200 * 8);
    // the far corners of the world
    const world: LngLat[] = [
      [-180, -90],
      [180, -90],
      [180, 90],
      [-180, 90],
    ];
    expect(decodePolygon(encodePolygon(world))).toEqual(world);
  });

  it('refuses what is no polygon: bad characters, a cut-off number, fewer than 3 points, no area, more than 200 points, outside the world', () => {
    const text = encodePolygon(cumbaya);
    for (const bad of [
      '',
      '!!',
      text.slice(0, -1),
      `${text}A`,
      text.replace(/./, '+'),
      encodePolygon([
        [0, 0],
        [1, 1],
      ]),
      encodePolygon([
        [0, 0],
        [1, 1],
        [2, 2],
      ]),
      'A'.repeat(5000),
      '_'.repeat(40),
    ]) {
      expect(decodePolygon(bad), bad.slice(0, 40)).toBeUndefined();
    }
    expect(decodePolygon(null)).toBeUndefined();
    expect(validPolygon(Array.from({ length: 201 }, (_, i) => [Math.cos(i), Math.sin(i)]))).toBeUndefined();
    expect(
      validPolygon([
        [0, 0],
        [1, 0],
        [0, 91],
      ]),
    ).toBeUndefined();
    expect(
      validPolygon([
        [0, 0],
        [1, 0],
        [0, Number.NaN],
      ]),
    ).toBeUndefined();
    expect(
      validPolygon([
        [0, 0],
        [1, 0],
        ['0', 1],
      ]),
    ).toBeUndefined();
    expect(validPolygon('0,0,1,0,0,1')).toBeUndefined();
  });

  it('keeps a repeated point once and drops the closing one', () => {
    expect(
      validPolygon([
        [0, 0],
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ]),
    ).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
  });
});
