import { describe, expect, it } from 'vitest';
import { generateSeed } from './generate.ts';
import { DAY, REFERENCE_DATE } from './draw.ts';
import { ecuadorWeek } from './listing-weeks.ts';

describe("the seed's views and saves (server/seed/listing-weeks.ts)", () => {
  it('a week is the Monday it began on in Ecuador (UTC-5), as internal.ecuador_week has it', () => {
    // Sunday 23:00 in Guayaquil is Monday 04:00 UTC: still the week before
    expect(ecuadorWeek(Date.UTC(2026, 10, 2, 4, 0))).toBe('2026-10-26');
    expect(ecuadorWeek(Date.UTC(2026, 10, 2, 5, 0))).toBe('2026-11-02');
    expect(ecuadorWeek(Date.UTC(2026, 10, 8, 12, 0))).toBe('2026-11-02');
    // New Year's Eve: the week began on Monday 28 December
    expect(ecuadorWeek(Date.UTC(2027, 0, 1, 3, 0))).toBe('2026-12-28');
  });

  it("fall on the office's agents' newest public listings, in the eight weeks before the seed's day and none before a listing came on the market", () => {
    const seed = generateSeed();
    const now = Math.floor(REFERENCE_DATE / DAY) * DAY;
    const office = new Set(seed.agents.filter((a) => a.country_code === 'EC').map((a) => a.id));
    const listings = new Map(seed.listings.map((l) => [l.id, l]));
    const weeks = new Set(Array.from({ length: 8 }, (_, i) => ecuadorWeek(now - i * 7 * DAY)));
    expect(seed.listingWeeks.length).toBeGreaterThan(1000);
    const perAgent = new Map<number, Set<number>>();
    for (const row of seed.listingWeeks) {
      const listing = listings.get(row.listing_id)!;
      expect(listing.status).toBe('1');
      expect(listing.country_code).toBe('EC');
      expect(office.has(listing.agent_id!)).toBe(true);
      expect(weeks.has(row.week), row.week).toBe(true);
      // the week ends after the listing came on the market
      expect(Date.parse(row.week) + 7 * DAY + 5 * 3_600_000).toBeGreaterThan(
        Date.parse(listing.listed_at ?? listing.created_at),
      );
      expect(row.views).toBeGreaterThan(0);
      expect(row.saves).toBeLessThanOrEqual(row.views);
      perAgent.set(listing.agent_id!, (perAgent.get(listing.agent_id!) ?? new Set()).add(row.listing_id));
    }
    for (const ids of perAgent.values()) expect(ids.size).toBeLessThanOrEqual(50);
    expect(new Set(seed.listingWeeks.map((r) => `${r.listing_id} ${r.week}`)).size).toBe(seed.listingWeeks.length);
  });
});
