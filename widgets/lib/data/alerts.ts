/**
 * The saved-searches function's request for alerts (docs/decisions.md #23): the search's filters,
 * the address, how often and in which language, with an idempotency key (a double click or a retry
 * makes one request) and the honeypot. The answer never says whether the address already had the
 * alert: the function tells nobody who subscribes to what.
 */
import type { FunctionsClient } from '@supabase/functions-js';
import type { AlertRequest } from '../../../core/protocol/alerts.ts';

export type AlertResult =
  | { ok: true }
  | { ok: false; reason: 'invalid'; fields: Record<string, string> }
  | { ok: false; reason: 'rate-limited' | 'failed' };

export async function requestAlerts(
  functions: FunctionsClient,
  body: Omit<AlertRequest, 'action'> & { idempotencyKey: string },
): Promise<AlertResult> {
  try {
    const { data, error } = await functions.invoke<{ ok?: boolean }>('saved-searches', {
      body: { action: 'subscribe', ...body },
    });
    if (!error && data?.ok) return { ok: true };
    const response = (error as { context?: Response } | null)?.context;
    if (response instanceof Response) {
      if (response.status === 429) return { ok: false, reason: 'rate-limited' };
      if (response.status === 400) {
        const payload = (await response.json().catch(() => ({}))) as { fields?: Record<string, string> };
        return { ok: false, reason: 'invalid', fields: payload.fields ?? {} };
      }
    }
    return { ok: false, reason: 'failed' };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}
