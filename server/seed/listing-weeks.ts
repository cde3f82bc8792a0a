/**
 * The seed's page views and saves (internal.listing_weeks, docs/agent-area.md "Her listings"): what
 * the listing-events function would have counted on the office's agents' newest listings in the
 * eight weeks before the seed's day, so that "Your listings and how they do" has figures on a fresh
 * `npm start`. A listing is looked at most in its first weeks on the market and less after; a
 * cheaper home more than a dear one; about one view in twenty-five is saved. Counts only, as the
 * function keeps them.
 */
import type { AgentRow } from './agents.ts';
import { DAY, random, SEED } from './draw.ts';
import { ecuadorDay, ecuadorDaysAfter, ecuadorMidnight } from '../../core/protocol/calendar.ts';
import type { ListingRow } from './rows.ts';

export interface ListingWeekRow {
  listing_id: number;
  /** the Monday of the week in Ecuador (internal.ecuador_week) */
  week: string;
  views: number;
  saves: number;
}

export const LISTING_WEEK_COLUMNS = ['listing_id', 'week', 'views', 'saves'] as const satisfies ReadonlyArray<
  keyof ListingWeekRow
>;

/** how many of each agent's listings, newest first, have figures (her area shows her newest 50) */
const PER_AGENT = 50;
const WEEKS = 8;

/** The Monday of the week `at` is in, in Ecuador (UTC-5), as internal.ecuador_week gives it. */
export function ecuadorWeek(at: number): string {
  const day = ecuadorDay(at);
  return ecuadorDaysAfter(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
}

/** The newest public listings of each agent of the office, newest first (the area's order). */
export function agentsNewest(agents: readonly AgentRow[], listings: readonly ListingRow[]): Map<number, ListingRow[]> {
  const office = new Set(agents.filter((a) => a.country_code === 'EC').map((a) => a.id));
  const theirs = new Map<number, ListingRow[]>();
  for (const l of listings) {
    if (l.agent_id === null || !office.has(l.agent_id) || l.status !== '1' || l.country_code !== 'EC') continue;
    const list = theirs.get(l.agent_id);
    if (list) list.push(l);
    else theirs.set(l.agent_id, [l]);
  }
  // (each date read once: a sort's comparisons would read them again and again)
  for (const [id, list] of theirs) {
    const at = new Map(list.map((l) => [l, Date.parse(l.listed_at ?? l.created_at)]));
    theirs.set(
      id,
      list.sort((a, b) => at.get(b)! - at.get(a)! || b.id - a.id),
    );
  }
  return theirs;
}

export function seedListingWeeks(
  agents: readonly AgentRow[],
  listings: readonly ListingRow[],
  now: number,
  seed = SEED,
): ListingWeekRow[] {
  const rand = random(seed * 37 + 11);
  // Poisson by inversion (the means here are small enough)
  const poisson = (mean: number) => {
    let k = 0;
    let p = Math.exp(-mean);
    let sum = p;
    const u = rand();
    while (u > sum && k < 1000) {
      k++;
      p *= mean / k;
      sum += p;
    }
    return k;
  };
  const rows: ListingWeekRow[] = [];
  // Monday 00:00 in Ecuador of the seed's week
  const thisWeek = ecuadorMidnight(ecuadorWeek(now)).getTime();
  for (const list of agentsNewest(agents, listings).values()) {
    for (const l of list.slice(0, PER_AGENT)) {
      const listed = Date.parse(l.listed_at ?? l.created_at);
      // a home at $100,000 is looked at about twice as often as one at $400,000; a rental's month is its price
      const price = l.operation === 'rent' ? (l.price ?? 800) * 150 : (l.price ?? 150_000);
      const appeal = Math.min(3, Math.sqrt(150_000 / Math.max(20_000, price))) * (0.5 + rand());
      for (let w = WEEKS - 1; w >= 0; w--) {
        const start = thisWeek - w * 7 * DAY;
        if (start + 7 * DAY <= listed) continue;
        // the share of the week it was on the market (this week: so far)
        const from = Math.max(start, listed);
        const share = Math.max(0, Math.min(start + 7 * DAY, now) - from) / (7 * DAY);
        const weeksOn = (from - listed) / (7 * DAY);
        const views = poisson(share * appeal * (6 + 30 * Math.exp(-weeksOn / 3)));
        if (!views) continue;
        let saves = 0;
        for (let v = 0; v < views; v++) if (rand() < 0.04) saves++;
        rows.push({ listing_id: l.id, week: ecuadorWeek(start), views, saves });
      }
    }
  }
  return rows;
}
