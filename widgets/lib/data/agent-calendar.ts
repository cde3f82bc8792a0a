/**
 * Her calendar's calls in the agents' area (docs/agent-area.md "Visits"): her requests and visits,
 * confirming, proposing or cancelling one, her open times, and her visiting hours, each through the
 * data API with her session (./agent-area.ts signs her in).
 */
import type { Session } from '@supabase/auth-js';
import type { ApiConfig } from '../config.ts';
import { restAs } from './agent-area.ts';
import { answer } from './client.ts';

/** A visit request in her calendar, with the visit once one time is confirmed (public.my_visits). */
export interface CalendarVisit {
  id: number;
  lead_id: string | null;
  listing_id: number;
  title: string | null;
  address: string | null;
  agent_name: string | null;
  mode: 'in_person' | 'video';
  proposed: string[];
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  lang: string;
  status: 'requested' | 'confirmed' | 'cancelled';
  visit_start: string | null;
  visit_end: string | null;
  location: string | null;
}

/** Her visits and requests with a time in [from, to) (at most 62 days). */
export async function getMyVisits(
  config: ApiConfig,
  session: Session,
  from: Date,
  to: Date,
  signal?: AbortSignal,
): Promise<CalendarVisit[]> {
  return (await answer(
    restAs(config, session).rpc('my_visits', { from_at: from.toISOString(), to_at: to.toISOString() }),
    'visits',
    signal,
  )) as CalendarVisit[];
}

/** What acting on a visit came to, as the mails' links say it. */
export type VisitResult = 'confirmed' | 'cancelled' | 'taken' | 'past' | 'unavailable' | 'done' | 'unknown';

export async function actOnVisit(
  config: ApiConfig,
  session: Session,
  act: { id: number; action: 'confirm' | 'propose' | 'cancel'; choice?: number; startAt?: string; place?: string },
): Promise<VisitResult> {
  const data = (await answer(
    restAs(config, session).rpc('act_on_visit', {
      request_id: act.id,
      action: act.action,
      choice: act.choice ?? null,
      start_at: act.startAt ?? null,
      place: act.place?.trim() || null,
    }),
    'act on the visit',
  )) as { result: VisitResult };
  return data.result;
}

/** Her open times for a request, the next 14 days (to propose another). */
export async function getMyOpenTimes(config: ApiConfig, session: Session, requestId: number): Promise<string[]> {
  return (
    (await answer(restAs(config, session).rpc('my_open_times', { request_id: requestId }), 'open times')) as string[]
  ).map((t) => new Date(t).toISOString());
}

export interface VisitingPeriod {
  /** ISO weekday: 1 Monday ... 7 Sunday */
  weekday: number;
  opens: string;
  closes: string;
}
export interface VisitingHours {
  /** whether she set them (else the brokerage's default) */
  own: boolean;
  hours: VisitingPeriod[];
  days_off: string[];
}

export async function getMyHours(config: ApiConfig, session: Session): Promise<VisitingHours | null> {
  return (await answer(restAs(config, session).rpc('my_visiting_hours'), 'visiting hours')) as VisitingHours | null;
}

/** Sets her week and days off; a refusal's reason is the database's hint (hours_overlap, hours_order, ...). */
export async function setMyHours(
  config: ApiConfig,
  session: Session,
  hours: VisitingPeriod[],
  daysOff: string[],
): Promise<VisitingHours | { refused: string }> {
  const { data, error } = await restAs(config, session).rpc('set_visiting_hours', { hours, days_off: daysOff });
  if (error) {
    if (error.code === '22023' && error.hint) return { refused: error.hint };
    throw new Error(`could not set the hours: ${error.message}`);
  }
  return data as VisitingHours;
}
