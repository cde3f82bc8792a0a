import { describe, expect, it } from 'vitest';
import { findPlace, PLACES } from './places.ts';
import { generateSeed } from './generate.ts';
import { drawingOf } from './drawings.ts';

describe('seed', () => {
  const seed = generateSeed();
  const active = seed.listings.filter((l) => l.status === '1' && l.country_code === 'EC');

  it('is deterministic', () => {
    expect(JSON.stringify(generateSeed())).toBe(JSON.stringify(seed));
    expect(JSON.stringify(generateSeed({ seed: 7 }))).not.toBe(JSON.stringify(seed));
  });

  it('has at least 1,500 active EC listings over at least 12 places, 40 EC agents, 6 full profiles', () => {
    expect(active.length).toBeGreaterThanOrEqual(1500);
    expect(new Set(active.map((l) => l.city)).size).toBeGreaterThanOrEqual(12);
    const ec = seed.agents.filter((a) => a.country_code === 'EC');
    expect(ec.length).toBeGreaterThanOrEqual(40);
    expect(
      ec.filter(
        (a) =>
          a.about &&
          a.languages?.length &&
          a.specializations?.length &&
          a.certifications?.length &&
          a.locations_served?.length,
      ),
    ).toHaveLength(6);
  });

  it('places coordinates inside each place', () => {
    for (const l of active) {
      const place = findPlace(l.city);
      const lat = Number(l.geo_lat);
      const lng = Number(l.geo_lon);
      // rows with unusable coordinates (not numbers, out of range) are the rule-exercising ones
      if (!place || !Number.isFinite(lat) || !Number.isFinite(lng) || !l.geo_lat?.trim() || Math.abs(lat) > 90)
        continue;
      const km = Math.hypot(
        (lat - place.lat) * 110.6,
        (lng - place.lng) * 111.3 * Math.cos((place.lat * Math.PI) / 180),
      );
      expect(km, `${l.id} in ${l.city}`).toBeLessThanOrEqual(place.radiusKm + 0.01);
    }
  });

  it('prices and areas are plausible for each type', () => {
    for (const l of active.filter(
      (x) => PLACES.some((p) => p.city === x.city) && x.price !== null && x.operation !== 'rent',
    )) {
      expect(l.price, `${l.id}`).toBeGreaterThanOrEqual(8000);
      expect(l.price, `${l.id}`).toBeLessThanOrEqual(6_000_000);
      if (l.property_type === 'apartment') expect(l.square_feet).toBeLessThanOrEqual(240);
      if (l.property_type === 'land') expect(l.bedrooms).toBe(0);
    }
  });

  it('rents a month that fit their homes, in Quito, Guayaquil and Cuenca about a quarter as many as the sales', () => {
    const rentals = active.filter((l) => l.operation === 'rent');
    for (const l of rentals) {
      expect(l.price, `${l.id}`).toBeGreaterThanOrEqual(180);
      expect(l.price, `${l.id}`).toBeLessThanOrEqual(4000);
      expect(['apartment', 'suite', 'house']).toContain(l.property_type);
    }
    for (const city of ['Quito', 'Guayaquil', 'Cuenca']) {
      const sales = active.filter((l) => l.city === city && l.operation !== 'rent').length;
      const rents = rentals.filter((l) => l.city === city).length;
      expect(rents / sales, city).toBeGreaterThan(0.15);
      expect(rents / sales, city).toBeLessThan(0.35);
    }
    // a suite's rent per m² above a flat's, a flat's above a house's (medians)
    const median = (type: string) => {
      const v = rentals
        .filter((l) => l.property_type === type)
        .map((l) => (l.price ?? 0) / (l.square_feet ?? 1))
        .sort((a, b) => a - b);
      return v[Math.floor(v.length / 2)] ?? 0;
    };
    expect(median('suite')).toBeGreaterThan(median('apartment'));
    expect(median('apartment')).toBeGreaterThan(median('house'));
  });

  it("makes the benchmarks' 100,000 listings too, rentals with them, every id once", () => {
    const big = generateSeed({ listings: 100_000 });
    const ids = new Set(big.listings.map((l) => l.id));
    expect(ids.size).toBe(big.listings.length);
    expect(big.listings.filter((l) => l.operation === 'rent').length).toBeGreaterThan(10_000);
  });

  it('has 1 to 6 images per ordinary listing, over two years of dates', () => {
    const counts = active.slice(0, 1500).map((l) => (Array.isArray(l.images) ? l.images.length : l.images ? 1 : 0));
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...counts)).toBeLessThanOrEqual(6);
    const times = seed.listings.map((l) => Date.parse(l.created_at));
    expect((Math.max(...times) - Math.min(...times)) / 86_400_000).toBeGreaterThan(600);
  });

  it('is as fresh on any day it is seeded: listings for sale came on the market last month and this week, at the same prices', () => {
    const day = Date.UTC(2027, 2, 15);
    const later = generateSeed({ now: day });
    const forSale = later.listings.filter((l) => l.status === '1' && l.operation === 'sale' && l.country_code === 'EC');
    const cameOn = forSale.map((l) => Date.parse(l.listed_at ?? l.created_at));
    // last month (February 2027) had about a 24th of two years' listings, and the last week some
    const lastMonth = cameOn.filter((t) => t >= Date.UTC(2027, 1, 1) && t < Date.UTC(2027, 2, 1)).length;
    expect(lastMonth).toBeGreaterThan(forSale.length / 40);
    expect(cameOn.filter((t) => t > day - 7 * 86_400_000).length).toBeGreaterThan(0);
    expect(Math.max(...cameOn)).toBeLessThanOrEqual(day);
    // the market's prices today are the seed's whatever its day: the same homes at the same prices
    expect(later.listings.map((l) => [l.title, l.price])).toEqual(seed.listings.map((l) => [l.title, l.price]));
  });

  it("puts the new developments' units on sale among the other listings, not after them: the newest eight for sale are the market's", () => {
    // seeded a month after the seed's date, as a server started today seeds (its date is now)
    const later = generateSeed({ now: Date.UTC(2026, 11, 3) });
    expect(later.units.length).toBeGreaterThan(20);
    const forSale = [
      ...later.listings
        .filter((l) => l.status === '1' && l.operation !== 'rent')
        .map((l) => ({ at: l.created_at, unit: false })),
      ...later.units.map((u) => ({ at: u.created_at, unit: true })),
    ];
    for (const { at } of forSale) expect(Number.isNaN(Date.parse(at))).toBe(false);
    const newest = forSale.sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).slice(0, 8);
    expect(newest.filter((n) => n.unit).length).toBeLessThanOrEqual(2);
  });

  it('has the rows that exercise the rules', () => {
    const has = (p: (l: (typeof seed.listings)[number]) => boolean) => expect(seed.listings.some(p)).toBe(true);
    has((l) => l.status !== '1');
    has((l) => l.country_code !== 'EC');
    has((l) => l.geo_lat === null);
    has((l) => l.geo_lat === '');
    has((l) => l.geo_lat !== null && l.geo_lat.trim() !== '' && Number.isNaN(Number(l.geo_lat)));
    has((l) => l.geo_lat !== null && l.geo_lat !== l.geo_lat.trim());
    has((l) => l.title === null);
    has((l) => l.price === null);
    has((l) => l.property_type === null);
    has((l) => /</.test(l.title ?? ''));
    has((l) => !Array.isArray(l.images) && l.images !== null);
    has((l) => Array.isArray(l.images) && typeof l.images[0] === 'object');
    has((l) => l.agent_first_name === null && l.agent_email !== null);
    expect(seed.agents.some((a) => a.picture !== null && a.picture !== a.picture.trim())).toBe(true);
    expect(seed.agents.some((a) => a.last_name === null)).toBe(true);
  });

  it('refers only to drawings that exist in the repository (each photo made from one: drawings.ts)', async () => {
    const { existsSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const urls = new Set<string>();
    for (const l of seed.listings) {
      const list = Array.isArray(l.images) ? l.images : l.images ? [l.images] : [];
      for (const i of list) {
        const url =
          typeof i === 'string' ? i : ((i as { url?: string; src?: string }).url ?? (i as { src?: string }).src);
        if (url?.startsWith('/media/') && !url.includes('missing')) urls.add(url);
      }
    }
    for (const a of seed.agents) if (a.picture?.trim()) urls.add(a.picture.trim());
    const missing = [...urls].filter((u) => {
      const drawing = drawingOf(u.slice('/media'.length));
      return !drawing || !existsSync(resolve(import.meta.dirname, '../../supabase/seed/media', drawing.slice(1)));
    });
    expect(urls.size).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
