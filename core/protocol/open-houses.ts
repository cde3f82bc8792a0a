/**
 * Open houses as the pages and elements read them (docs/visits.md "Open houses"): a listing's
 * `open_houses` (a PostgreSQL tstzmultirange, as its text) into times, those not ended yet, and
 * how a card says one: "Sat 28 Nov, 10:00–12:00", in Ecuador's time (where the house is). What
 * the detail and the listing's page show of each (remarks, a livestream, the calendar file):
 * ./open-house-details.ts, so that a card carries only this.
 */
import { ECUADOR_TIME_ZONE, formatVisitTime } from './visit-time.ts';
import { now as clockNow } from '../clock.ts';

export interface OpenHouseTime {
  /** ISO instants */
  start: string;
  end: string;
}

/** "2026-11-28 15:00:00+00" (PostgreSQL's text of a timestamptz) or ISO, as an ISO instant; null when neither. */
function instant(text: string): string | null {
  const t = Date.parse(
    text
      .replace(/"/g, '')
      .trim()
      .replace(' ', 'T')
      .replace(/([+-]\d\d)$/, '$1:00'),
  );
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

/**
 * A listing's open houses from its `open_houses` value: a multirange's text
 * (`{["2026-11-28 15:00:00+00","2026-11-28 17:00:00+00")}`), or a list of `{start, end}`. What
 * cannot be read is left out; the times in order.
 */
export function parseOpenHouses(value: unknown): OpenHouseTime[] {
  const out: OpenHouseTime[] = [];
  if (Array.isArray(value)) {
    for (const v of value) {
      const start = typeof v?.start === 'string' ? instant(v.start) : null;
      const end = typeof v?.end === 'string' ? instant(v.end) : null;
      if (start && end && start < end) out.push({ start, end });
    }
  } else if (typeof value === 'string' && value.length <= 20_000) {
    for (const m of value.matchAll(/[[(]([^,[\]()]+),([^,[\]()]+)[\])]/g)) {
      const start = instant(m[1] as string);
      const end = instant(m[2] as string);
      if (start && end && start < end) out.push({ start, end });
    }
  }
  return out.sort((a, b) => a.start.localeCompare(b.start));
}

/** Those not ended at `now`. */
export function upcomingOpenHouses(list: readonly OpenHouseTime[], now = clockNow()): OpenHouseTime[] {
  return list.filter((o) => Date.parse(o.end) > now);
}

/** "Sat 28 Nov, 10:00–12:00" / "sáb, 28 nov, 10:00–12:00", in Ecuador's time. */
export function openHouseWhen(o: OpenHouseTime, lang: string): string {
  return `${formatVisitTime(o.start, lang, ECUADOR_TIME_ZONE, 'shortDay')}, ${formatVisitTime(o.start, lang, ECUADOR_TIME_ZONE, 'time')}–${formatVisitTime(o.end, lang, ECUADOR_TIME_ZONE, 'time')}`;
}
