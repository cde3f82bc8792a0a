/**
 * A listing's open visit times (public.visit_times, docs/visits.md): the start times, as UTC
 * instants, a visitor may propose in the calendar of the agent the request would go to (the
 * element's lead owner, else the listing's agent). The request itself is an inquiry with a `visit`
 * part (./inquiry.ts).
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { RECORD_ID } from '../../../core/protocol/inquiry.ts';
import { answer } from './client.ts';

export async function getVisitTimes(
  rest: PostgrestClient,
  listingId: string,
  agentId?: string,
  signal?: AbortSignal,
): Promise<string[]> {
  if (!RECORD_ID.test(listingId)) return [];
  const data = await answer(
    rest.rpc('visit_times', {
      listing_id: Number(listingId),
      ...(agentId && RECORD_ID.test(agentId) ? { agent_id: Number(agentId) } : {}),
    }),
    'visit times',
    signal,
  );
  return ((data ?? []) as unknown[])
    .filter((t): t is string => typeof t === 'string' && Number.isFinite(Date.parse(t)))
    .map((t) => new Date(t).toISOString());
}
