/**
 * The inquiry's contact fields as both sides check them: the form in the browser (to say what is
 * wrong before sending) and the send-property-inquiry function (which decides). One set of limits
 * and patterns, so the form never accepts what the function refuses.
 */
import type { LeadConsent } from './privacy.ts';
import type { Attribution } from './attribution.ts';
import type { SellerRequest } from './valuation.ts';
import type { VisitRequest } from './visits.ts';

/** A listing's or an agent's id as a request may name it: digits, at most 15. */
export const RECORD_ID = /^\d{1,15}$/;

export const LIMITS = { name: 120, email: 254, phone: 40, message: 4000 } as const;

/** The body the send-property-inquiry function takes: call 5's fields (docs/product.md §7), then our optional extras. */
export interface InquiryBody {
  name: string;
  email: string;
  phone: string;
  message: string;
  propertyTitle: string;
  propertyAddress: string;
  /** formatted, e.g. "$250,000" */
  propertyPrice: string;
  /** the agent's e-mail as the page knows it; used only when it is one of our agents' */
  recipientEmail: string;
  /** the listing asked about: its agent receives the inquiry */
  propertyId?: string;
  /** the agent addressed (a profile without a listing) */
  agentId?: string;
  /** the lead's owner: the agent whose site the visitor came through (an element's `lead-agent-id`); one of ours, or the inquiry is refused */
  leadAgentId?: string;
  /** where the visitor was (core/protocol/attribution.ts) */
  source?: Attribution;
  /** the same key for a retry of the same inquiry (also accepted as an Idempotency-Key header) */
  idempotencyKey?: string;
  lang?: string;
  /** the honeypot: people leave it empty */
  website?: string;
  /** a seller's lead (docs/valuation.md): the home, when they plan to sell, whether they also buy */
  seller?: SellerRequest;
  /** a request to visit the listing (docs/visits.md): how, and the times proposed; `propertyId` is then required */
  visit?: VisitRequest;
  /** what she consented to besides her request, each box she ticked (docs/privacy.md "Consents") */
  consents?: LeadConsent[];
}

/**
 * An inquiry as stored (public.inquiries: supabase/schemas/40_inquiries.sql), the columns that every
 * reader of one takes: its mails (core/functions/inquiry/store.ts) and the agents' area
 * (widgets/lib/data/agent-area.ts).
 */
export interface StoredInquiry {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  property_title: string | null;
  lang: string | null;
  received_at: string;
  page_url: string | null;
  element: string | null;
  utm: Record<string, string> | null;
}

export type ContactField = keyof typeof LIMITS;
export type FieldError = 'required' | 'tooLong' | 'invalid';

/** An e-mail address with a dot in its domain and nothing that could split a mail header. */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

/** Digits with the usual separators: + ( ) space . - ; at least six characters. */
const PHONE_PATTERN = /^[+()\d\s.-]{6,}$/;

// control characters other than tab and new lines have no place in a lead (and header injection
// needs \r\n, which single-line fields refuse)
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const LINE_BREAK = /[\r\n]/;

/** What is wrong with each contact field (trimmed); an empty object when nothing is. */
export function checkContact(values: Record<ContactField, string>): Partial<Record<ContactField, FieldError>> {
  const errors: Partial<Record<ContactField, FieldError>> = {};
  const required: ContactField[] = ['name', 'email'];
  for (const field of Object.keys(LIMITS) as ContactField[]) {
    const v = values[field].trim();
    if (!v) {
      if (required.includes(field)) errors[field] = 'required';
    } else if (v.length > LIMITS[field]) errors[field] = 'tooLong';
    else if (CONTROL_CHARACTERS.test(v) || (field !== 'message' && LINE_BREAK.test(v))) errors[field] = 'invalid';
    else if (field === 'email' && !EMAIL_PATTERN.test(v)) errors[field] = 'invalid';
    else if (field === 'phone' && !PHONE_PATTERN.test(v)) errors[field] = 'invalid';
  }
  return errors;
}
