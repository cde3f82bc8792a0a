import { describe, expect, it } from 'vitest';
import { pinLabel } from './ol-pins.ts';
import { pinFor } from './use-map-data.ts';
import { now as clockNow } from '../../../core/clock.ts';

const range = (from: number, to: number) =>
  `{["${new Date(from)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '+00')}","${new Date(to)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '+00')}")}`;
const point = {
  id: 7,
  lat: -0.2,
  lng: -78.4,
  geo_lat: null,
  geo_lon: null,
  city: 'Quito',
  price: 185_000,
  price_cut_at: null,
  price_before_cut: null,
};

describe('a pin\'s pill (docs/visits.md "Open houses")', () => {
  it('says ⌂ for a listing with an open house to come, and nothing once it is over', () => {
    const hour = 3_600_000;
    const soon = pinFor({ ...point, open_houses: range(clockNow() + 24 * hour, clockNow() + 26 * hour) });
    expect(soon.openHouse).toBe(true);
    expect(pinLabel(soon)).toBe('⌂ $185K');
    const over = pinFor({ ...point, open_houses: range(clockNow() - 3 * hour, clockNow() - hour) });
    expect(over.openHouse).toBe(false);
    expect(pinLabel(over)).toBe('$185K');
    expect(pinFor({ ...point, open_houses: '{}' }).openHouse).toBe(false);
    expect(pinLabel({ ...soon, reduced: true })).toBe('⌂ ↓ $185K');
  });
});
