/**
 * Her leads a page at a time (docs/agent-area.md "The page"): the newest page read again over the
 * older pages she has, and the next page added after them, in the order public.my_leads keeps.
 */
import { LEADS_PAGE, type Lead } from './agent-area.ts';

/** Whether lead `a` comes after `b` in her list (older; at the same instant, the smaller id, as public.my_leads orders them). */
function isOlder(a: Pick<Lead, 'received_at' | 'id'>, b: Pick<Lead, 'received_at' | 'id'>): boolean {
  const [at, bt] = [Date.parse(a.received_at), Date.parse(b.received_at)];
  if (at !== bt) return at < bt;
  // within one millisecond: the microseconds as the database wrote them (one offset, trailing zeros dropped)
  if (a.received_at !== b.received_at) return a.received_at < b.received_at;
  return a.id < b.id;
}

/**
 * Her newest page read again, over the leads she has: the page as it is now, then those she had
 * loaded older than its last (one in the page's span that it no longer holds has gone: given to
 * another agent). `more`: older leads are still to be asked for.
 */
export function refreshLeads(
  had: { leads: Lead[]; more: boolean } | null,
  fresh: Lead[],
): { leads: Lead[]; more: boolean } {
  if (fresh.length < LEADS_PAGE) return { leads: fresh, more: false };
  const last = fresh[fresh.length - 1]!;
  const older = (had?.leads ?? []).filter((lead) => isOlder(lead, last));
  return { leads: [...fresh, ...older], more: older.length ? had!.more : true };
}

/** The next page added after the leads she has (any she already has left out). */
export function addOlder(had: Lead[], page: Lead[]): { leads: Lead[]; more: boolean } {
  const known = new Set(had.map((lead) => lead.id));
  return { leads: [...had, ...page.filter((lead) => !known.has(lead.id))], more: page.length === LEADS_PAGE };
}
