import { describe, expect, it } from 'vitest';
import { formatDistance, parseNearby } from './nearby.ts';

describe('what is near', () => {
  it('says a distance to ten metres under a kilometre and to a tenth of a kilometre from one', () => {
    expect([0, 4, 14, 356, 994, 995, 1000, 1049, 1050, 4999].map(formatDistance)).toEqual([
      '10 m',
      '10 m',
      '10 m',
      '360 m',
      '990 m',
      '1 km',
      '1 km',
      '1 km',
      '1.1 km',
      '5 km',
    ]);
  });

  it('says nothing of a distance that is none', () => {
    expect([NaN, Infinity, -5].map(formatDistance)).toEqual(['', '', '']);
  });

  it('reads the rows of public.nearby_places, leaving out a kind it does not know and a row without a name or a distance', () => {
    expect(
      parseNearby([
        { kind: 'park', name: ' Parque La Carolina ', distance_m: 350 },
        { kind: 'casino', name: 'Casino', distance_m: 10 },
        { kind: 'school', name: '', distance_m: 10 },
        { kind: 'school', name: 'Colegio', distance_m: null },
        { kind: 'hospital', name: 'Hospital', distance_m: -1 },
        { kind: 'transport', name: 'Metro', distance_m: '1200' },
        ...['', ' ', '0x10', true, [7]].map((distance_m) => ({ kind: 'park', name: 'Odd', distance_m })),
      ]),
    ).toEqual([
      { kind: 'park', name: 'Parque La Carolina', distance: 350 },
      { kind: 'transport', name: 'Metro', distance: 1200 },
    ]);
  });
});
