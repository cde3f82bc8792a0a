/**
 * A lead's time on Ecuador's clock, made without Intl (a phone's first Intl.DateTimeFormat held her
 * list back: docs/agent-area.md "Speed"), from the calendar's own day arithmetic
 * (core/protocol/calendar.ts): only the agents' area carries it.
 */
import { ecuadorDay, ecuadorMidnight } from '../../core/protocol/calendar.ts';

/** The wall clock in Ecuador at `at`: year, month (1-12), day, hour (0-23) and minute. */
export function ecuadorClock(at: Date | string | number): {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
} {
  const day = ecuadorDay(at);
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const since = new Date(at).getTime() - ecuadorMidnight(day).getTime();
  return {
    year,
    month,
    day: date,
    hour: Math.floor(since / 3_600_000),
    minute: Math.floor((since % 3_600_000) / 60_000),
  };
}

export interface EcuadorTimes {
  format(at: Date): string;
}

/** A time as the area writes it ("2 Dec 2026, 14:05"), in the area's words (`agentArea.when`) and the site's month names (`months.short`, core/protocol/month.ts). */
export function ecuadorTimes(t: (key: string, options?: Record<string, unknown>) => string): EcuadorTimes {
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    format: (at) => {
      const c = ecuadorClock(at);
      return t('agentArea.when', {
        day: c.day,
        month: t(`months.short.${c.month}`),
        year: c.year,
        time: `${two(c.hour)}:${two(c.minute)}`,
      });
    },
  };
}
