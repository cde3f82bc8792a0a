/**
 * A visit's or an open house's time as people read it (docs/visits.md), in a time zone (the
 * visitor's, or Ecuador's, where the houses are). Apart from the visitor's side (./visits.ts: the
 * request's rules, Ecuador's time beside the visitor's): a card that says an open house carries
 * only this.
 */

/** Ecuador's time zone, the agents' (UTC-5 all year). */
export const ECUADOR_TIME_ZONE = 'America/Guayaquil';

const formats = new Map<string, Intl.DateTimeFormat>();

type Part = 'day' | 'time' | 'both' | 'shortDay';

const PARTS: Record<Part, Intl.DateTimeFormatOptions> = {
  day: { weekday: 'long', day: 'numeric', month: 'long' },
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  both: { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  shortDay: { weekday: 'short', day: 'numeric', month: 'short' },
};

function formatter(lang: string, timeZone: string, part: Part): Intl.DateTimeFormat {
  const key = `${lang}|${timeZone}|${part}`;
  let f = formats.get(key);
  if (!f)
    formats.set(key, (f = new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-GB', { timeZone, ...PARTS[part] })));
  return f;
}

/**
 * A visit's time as people read it, in a time zone: "Saturday 28 November, 10:00" / "sábado, 28 de
 * noviembre, 10:00" (`part`: the day alone, the time alone, both, or the day short: "Sat 28 Nov").
 */
export function formatVisitTime(at: Date | string, lang: string, timeZone: string, part: Part = 'both'): string {
  return formatter(lang, timeZone, part).format(typeof at === 'string' ? new Date(at) : at);
}
