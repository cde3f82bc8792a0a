/**
 * A lead's follow-up as her area and her morning mail say it (./follow-up.ts): the day in either
 * language, and where it stands on Ecuador's day.
 */
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import { translatorFor } from '../translate.ts';
import { dayLabel, followUpState } from './follow-up.ts';

describe("a lead's follow-up (docs/agent-area.md)", () => {
  it('a calendar day as the area writes it, in either language (a follow-up day)', () => {
    expect(dayLabel('2026-12-05', translatorFor(en, 'en'))).toBe('5 Dec');
    expect(dayLabel('2027-01-31', translatorFor(es, 'es'))).toBe('31 ene');
  });

  it("where a lead's follow-up stands on Ecuador's day: gone by, today, later; none without a day or once won or lost", () => {
    const lead = (status: string, follow_up_on: string | null) => ({ status, follow_up_on });
    expect(followUpState(lead('contacted', '2026-06-16'), '2026-06-17')).toBe('overdue');
    expect(followUpState(lead('new', '2026-06-17'), '2026-06-17')).toBe('today');
    expect(followUpState(lead('offer', '2026-06-18'), '2026-06-17')).toBe('later');
    expect(followUpState(lead('visit_booked', '2025-12-31'), '2026-01-01')).toBe('overdue');
    expect(followUpState(lead('contacted', null), '2026-06-17')).toBeNull();
    expect(followUpState(lead('won', '2026-06-01'), '2026-06-17')).toBeNull();
    expect(followUpState(lead('lost', '2026-06-17'), '2026-06-17')).toBeNull();
  });
});
