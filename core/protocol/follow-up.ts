/**
 * A lead's follow-up, as her area and her morning mail say it (docs/agent-area.md): where it stands
 * on Ecuador's day, the day written with the site's short month names, and what the lead asked about. The database's list of
 * the leads to follow up (internal.leads_to_follow_up) is held to followUpState by
 * tests/contract/agent-follow-up-mail.test.ts.
 */
import type { Translate } from '../translate.ts';

/**
 * Where a lead's follow-up stands on Ecuador's day `today` (ecuadorDay()): a day gone by, today, or
 * later; none when it has no day or nothing is left to follow up (won, lost). The card says it, her
 * "follow-up due" filter keeps the first two, and so does her morning mail.
 */
export function followUpState(
  lead: { status: string; follow_up_on: string | null },
  today: string,
): 'overdue' | 'today' | 'later' | null {
  if (!lead.follow_up_on || lead.status === 'won' || lead.status === 'lost') return null;
  return lead.follow_up_on < today ? 'overdue' : lead.follow_up_on === today ? 'today' : 'later';
}

/**
 * What a lead asked about, as her card and her morning mail say it, by what the database keeps of
 * it (public.inquiries.kind): a home's value, a listing (by its title), or a general question.
 */
export function leadAbout(lead: { kind: string; property_title: string | null }, t: Translate): string {
  return lead.kind === 'valuation'
    ? t('agentArea.aboutValuation')
    : lead.kind === 'listing' && lead.property_title
      ? t('agentArea.aboutListing', { title: lead.property_title })
      : t('agentArea.aboutGeneral');
}

/** A calendar day ("2026-12-05") as the area writes it: "5 Dec" (`months.short`). */
export function dayLabel(day: string, t: Translate): string {
  const [, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${t(`months.short.${month}`)}`;
}
