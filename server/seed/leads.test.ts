import { describe, expect, it } from 'vitest';
import { generateSeed } from './generate.ts';
import { SEED_LEAD_PREFIX } from './leads.ts';
import { DAY, HOUR, REFERENCE_DATE } from './draw.ts';
import { HOME_LIMITS, SELLER_TIMELINES } from '../../core/protocol/valuation.ts';
import { parseListingPath } from '../../core/routes.ts';

describe("the seed's leads (server/seed/leads.ts)", () => {
  const seed = generateSeed();
  const office = new Map(seed.agents.filter((a) => a.country_code === 'EC' && a.email).map((a) => [a.id, a]));
  const listings = new Map(seed.listings.map((l) => [l.id, l]));

  it("every sample agent has eight to twelve to work, every lead an agent of the office's, and each key is the seed's own", () => {
    for (const agent of [...office.values()].slice(0, 6)) {
      const hers = seed.leads.filter((l) => l.agent_id === agent.id);
      expect(hers.length).toBeGreaterThanOrEqual(8);
      expect(hers.length).toBeLessThanOrEqual(12);
    }
    for (const lead of seed.leads) {
      const agent = office.get(lead.agent_id!);
      expect(agent, lead.idempotency_key).toBeDefined();
      expect(lead.recipient_email).toBe(agent!.email);
      expect(lead.idempotency_key.startsWith(SEED_LEAD_PREFIX)).toBe(true);
      // a made-up visitor at a reserved domain, never a real mailbox
      expect(lead.email).toMatch(/^[a-z]+\.[a-z]+\d+@correo\.example$/);
      if (lead.phone) expect(lead.phone).toMatch(/^\+593 9\d \d{3} \d{4}$/);
    }
    expect(new Set(seed.leads.map((l) => l.idempotency_key)).size).toBe(seed.leads.length);
  });

  it("a listing's lead is about an active listing for sale of its agent's, and its page is that listing's", () => {
    const about = seed.leads.filter((l) => l.listing_id !== null);
    expect(about.length).toBeGreaterThan(20);
    for (const lead of about) {
      const listing = listings.get(lead.listing_id!);
      expect(listing?.agent_id).toBe(lead.agent_id);
      expect(listing?.status).toBe('1');
      expect(listing?.operation).toBe('sale');
      expect(lead.recipient_kind).toBe('listing_agent');
      expect(lead.property_title).toBe(listing?.title);
      expect(parseListingPath(new URL(lead.page_url).pathname.replace(/^\/es\//, '/'))?.id).toBe(String(listing?.id));
    }
  });

  it("a seller's lead describes a home the estimate takes (its facts within the form's limits), and an agent's website's lead is hers by its lead-agent-id", () => {
    const sellers = seed.leads.filter((l) => l.seller);
    expect(sellers.length).toBeGreaterThan(5);
    for (const { seller } of sellers) {
      const facts = seller!.facts as Record<string, number | string>;
      expect(['house', 'apartment']).toContain(facts.property_type);
      expect(facts.area_m2).toBeGreaterThanOrEqual(HOME_LIMITS.area_m2[0]);
      expect(facts.area_m2).toBeLessThanOrEqual(HOME_LIMITS.area_m2[1]);
      expect(facts.lat).toBeLessThan(2);
      expect(facts.lng).toBeLessThan(-75);
      expect(SELLER_TIMELINES).toContain(seller!.timeline);
    }
    const website = seed.leads.filter((l) => l.recipient_kind === 'lead_agent');
    expect(website.length).toBeGreaterThan(5);
    for (const lead of website) expect(lead.lead_agent_id).toBe(lead.agent_id);
  });

  it("were received in the 75 days before the seed's day, in Ecuador's office hours, each agent's newest still new and none followed up but the open ones", () => {
    const now = Math.floor(REFERENCE_DATE / DAY) * DAY;
    for (const lead of seed.leads) {
      const at = Date.parse(lead.received_at);
      expect(at).toBeLessThan(now);
      expect(at).toBeGreaterThan(now - 76 * DAY);
      // 8:00 to 21:00 in Ecuador (UTC-5)
      const hour = new Date(at - 5 * HOUR).getUTCHours();
      expect(hour).toBeGreaterThanOrEqual(8);
      expect(hour).toBeLessThan(21);
      expect(lead.follow_up_on !== null).toBe(['contacted', 'visit_booked', 'offer'].includes(lead.status));
      if (now - at < 2 * DAY) expect(lead.status).toBe('new');
    }
    expect(new Set(seed.leads.map((l) => l.status))).toEqual(
      new Set(['new', 'contacted', 'visit_booked', 'offer', 'won', 'lost']),
    );
    // in both languages
    expect(new Set(seed.leads.map((l) => l.lang))).toEqual(new Set(['en', 'es']));
  });
});
