/**
 * Call 5 of docs/product.md §7: the send-property-inquiry function. The body is the spec's plus the
 * property and agent ids and an idempotency key (a double click or a retry never makes two
 * inquiries); the function decides who is mailed, never the browser (docs/decisions.md #9).
 */
import type { FunctionsClient } from '@supabase/functions-js';
import type { ContactField, InquiryBody } from '../../../core/protocol/inquiry.ts';

/** What our form sends: always with its idempotency key and language. */
export type InquiryRequest = InquiryBody & Required<Pick<InquiryBody, 'idempotencyKey' | 'lang' | 'website'>>;

export type InquiryField = ContactField;

export type InquiryResult =
  | { ok: true; id: string }
  | { ok: false; reason: 'invalid'; fields: Partial<Record<InquiryField, string>> }
  // a visit (docs/visits.md): the listing left the market, or times were booked meanwhile
  | { ok: false; reason: 'unavailable'; error: string; times: string[] }
  | { ok: false; reason: 'rate-limited' | 'failed' };

export async function sendInquiry(functions: FunctionsClient, body: InquiryRequest): Promise<InquiryResult> {
  try {
    const { data, error } = await functions.invoke<{ ok?: boolean; id?: string }>('send-property-inquiry', {
      body,
    });
    if (!error && data?.ok && data.id) return { ok: true, id: data.id };
    const response = (error as { context?: Response } | null)?.context;
    if (response instanceof Response) {
      if (response.status === 429) return { ok: false, reason: 'rate-limited' };
      if (response.status === 409) {
        const payload = (await response.json().catch(() => ({}))) as { error?: string; times?: string[] };
        return {
          ok: false,
          reason: 'unavailable',
          error: payload.error ?? '',
          times: Array.isArray(payload.times) ? payload.times : [],
        };
      }
      if (response.status === 400) {
        const payload = (await response.json().catch(() => ({}))) as { fields?: Partial<Record<InquiryField, string>> };
        return { ok: false, reason: 'invalid', fields: payload.fields ?? {} };
      }
    }
    return { ok: false, reason: 'failed' };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}

export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
