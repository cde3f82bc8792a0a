import { describe, expect, it } from 'vitest';
import { LEADS_PAGE, type Lead } from './agent-area.ts';
import { addOlder, refreshLeads } from './lead-pages.ts';

describe("her leads a page at a time (the agents' area)", () => {
  it('reads her newest page again over the older leads she has: the page as it is now, then hers past it, each once', () => {
    // a page's leads, newest first: times as the database writes them (microseconds, trailing zeros dropped)
    const at = (n: number) => new Date(Date.UTC(2026, 5, 1) - n * 60_000).toISOString().replace('.000Z', '+00:00');
    const lead = (n: number, id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`) =>
      ({ id, received_at: at(n), status: 'new' }) as Lead;
    const page = (from: number, count = LEADS_PAGE) => Array.from({ length: count }, (_, i) => lead(from + i));
    // fewer than a page: all there is
    expect(refreshLeads(null, page(0, 3))).toEqual({ leads: page(0, 3), more: false });
    // a full page: older ones are still to be asked for
    const first = refreshLeads(null, page(0));
    expect(first.more).toBe(true);
    // the next page, and a lead she already had in it, once
    const two = addOlder(first.leads, [lead(LEADS_PAGE - 1), ...page(LEADS_PAGE, 10)]);
    expect(two).toEqual({ leads: page(0, LEADS_PAGE + 10), more: false });
    // two new leads came (the newest page moved on by two): the page, then the older ones she had, each once
    const fresh = [lead(-2), lead(-1), ...page(0, LEADS_PAGE - 2)];
    const again = refreshLeads(two, fresh);
    expect(again.leads.map((l) => l.received_at)).toEqual([
      at(-2),
      at(-1),
      ...page(0, LEADS_PAGE + 10).map((l) => l.received_at),
    ]);
    expect(again.more).toBe(false);
    // one moved to another agent: it is gone from the page's span, and not kept from before
    const without = [...fresh.slice(0, 5), ...fresh.slice(6), lead(LEADS_PAGE - 2)];
    expect(refreshLeads(two, without).leads.map((l) => l.id)).not.toContain(fresh[5]!.id);
    // leads of one instant: the microseconds, then the larger id first, as public.my_leads orders them
    const t = '2026-06-01T10:00:00.1234+00:00';
    const tie = [
      { id: 'b', received_at: t },
      { id: 'a', received_at: t },
      { id: 'z', received_at: '2026-06-01T10:00:00.123+00:00' },
    ] as Lead[];
    const full = [...Array.from({ length: LEADS_PAGE - 1 }, (_, i) => lead(-1000 - i)).reverse(), tie[0]!];
    expect(
      refreshLeads({ leads: tie, more: true }, full)
        .leads.slice(-2)
        .map((l) => l.id),
    ).toEqual(['a', 'z']);
  });
});
