/**
 * What the send-property-inquiry function accepts: the body of call 5 (docs/product.md §7) exactly as the spec
 * sends it, plus optional extras (the property and agent ids, an idempotency key, the language,
 * a honeypot). Every field is checked here, once, for Deno and Node alike.
 */
import { IDEMPOTENCY_KEY } from '../request-key.ts';
import { SELLER_TIMELINES, type SellerTimeline } from '../../protocol/valuation.ts';
import { checkAttribution, type Attribution } from '../../protocol/attribution.ts';
import { checkVisit, type VisitRequest } from '../../protocol/visits.ts';
import { LEAD_CONSENTS, type LeadConsent } from '../../protocol/privacy.ts';
import { problems } from '../function-http.ts';
import {
  checkContact,
  RECORD_ID,
  CONTROL_CHARACTERS,
  LIMITS as CONTACT_LIMITS,
  LINE_BREAK,
  type ContactField,
  type FieldError,
  type InquiryBody,
} from '../../protocol/inquiry.ts';

export type { FieldError };

/** The contact fields' limits (shared with the form), plus the function's own for the rest. */
export const LIMITS = { ...CONTACT_LIMITS, text: 300, price: 40, body: 16 * 1024 } as const;

/** The body once checked: every text trimmed, ids as digits or null. */
export interface InquiryInput extends Required<
  Omit<
    InquiryBody,
    'propertyId' | 'agentId' | 'leadAgentId' | 'source' | 'idempotencyKey' | 'lang' | 'seller' | 'visit' | 'consents'
  >
> {
  /** the boxes she ticked, each once (docs/privacy.md "Consents") */
  consents: LeadConsent[];
  /** a request to visit the listing: its times are checked against the agent's open times by the handler */
  visit: VisitRequest | null;
  /** a seller's lead: the facts go to public.estimate_value, which checks them (the handler names the field it refuses) */
  seller: { facts: Record<string, unknown>; timeline: SellerTimeline; alsoBuying: boolean } | null;
  propertyId: string | null;
  agentId: string | null;
  /** the lead's owner asked for (checked to be one of ours by the handler) */
  leadAgentId: string | null;
  /** where the visitor was; null when the request did not say */
  source: Attribution | null;
  /** null: none sent (the handler takes the Idempotency-Key header, or derives one) */
  idempotencyKey: string | null;
  lang: 'en' | 'es';
}

export type Validation =
  { ok: true; value: InquiryInput } | { ok: false; fields: Record<string, FieldError>; message: string };

/** `origin`: the request's Origin header (the page's origin, set by the browser). */
export function validateInquiry(raw: unknown, origin: string | null = null): Validation {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, fields: {}, message: 'The body must be a JSON object.' };
  const body = raw as Record<string, unknown>;
  const fields: Record<string, FieldError> = {};
  /** a string field: '' when absent, invalid when not a string */
  const string = (key: string): string => {
    const v = body[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') {
      fields[key] = 'invalid';
      return '';
    }
    return v.trim();
  };
  const text = (key: string, max: number): string => {
    const s = string(key);
    if (fields[key]) return '';
    if (s.length > max) fields[key] = 'tooLong';
    else if (CONTROL_CHARACTERS.test(s) || LINE_BREAK.test(s)) fields[key] = 'invalid';
    return s;
  };
  const contact = { name: string('name'), email: string('email'), phone: string('phone'), message: string('message') };
  for (const [field, error] of Object.entries(checkContact(contact)) as Array<[ContactField, FieldError]>)
    fields[field] ??= error;
  const { name, email, phone, message } = contact;
  const propertyTitle = text('propertyTitle', LIMITS.text);
  const propertyAddress = text('propertyAddress', LIMITS.text);
  const propertyPrice = text('propertyPrice', LIMITS.price);
  const recipientEmail = text('recipientEmail', LIMITS.email);
  const website = typeof body.website === 'string' ? body.website.slice(0, 200) : '';
  const id = (key: string): string | null => {
    const v = body[key];
    if (v === undefined || v === null || v === '') return null;
    const s = String(v).trim();
    if (!RECORD_ID.test(s)) {
      fields[key] = 'invalid';
      return null;
    }
    return s;
  };
  const propertyId = id('propertyId');
  const agentId = id('agentId');
  const leadAgentId = id('leadAgentId');
  const source = checkAttribution(body.source, origin);
  if (!source.ok) fields.source = 'invalid';
  const rawKey = body.idempotencyKey;
  const key =
    rawKey === undefined || rawKey === null || rawKey === ''
      ? null
      : typeof rawKey === 'string'
        ? rawKey.trim()
        : String(rawKey);
  if (key !== null && (typeof rawKey !== 'string' || !IDEMPOTENCY_KEY.test(key))) fields.idempotencyKey = 'invalid';
  const lang = body.lang === 'es' ? 'es' : 'en';
  let seller: InquiryInput['seller'] = null;
  if (body.seller !== undefined && body.seller !== null) {
    const raw = body.seller as Record<string, unknown>;
    if (typeof body.seller !== 'object' || Array.isArray(body.seller)) fields.seller = 'invalid';
    else if (!raw.facts || typeof raw.facts !== 'object' || Array.isArray(raw.facts))
      fields['seller.facts'] = 'required';
    else if (!(SELLER_TIMELINES as readonly unknown[]).includes(raw.timeline))
      fields['seller.timeline'] = raw.timeline === undefined ? 'required' : 'invalid';
    else if (raw.alsoBuying !== undefined && typeof raw.alsoBuying !== 'boolean')
      fields['seller.alsoBuying'] = 'invalid';
    else
      seller = {
        facts: raw.facts as Record<string, unknown>,
        timeline: raw.timeline as SellerTimeline,
        alsoBuying: raw.alsoBuying === true,
      };
    // an agent calls a seller back: the phone is needed
    if (!contact.phone) fields.phone ??= 'required';
  }
  let visit: VisitRequest | null = null;
  if (body.visit !== undefined && body.visit !== null) {
    const checked = checkVisit(body.visit);
    if (checked.ok) visit = checked.value;
    else fields[checked.field] = checked.error;
    // a visit is to a listing
    if (!propertyId) fields.propertyId ??= 'required';
    if (seller) fields.visit = 'invalid';
  }
  let consents: LeadConsent[] = [];
  if (body.consents !== undefined && body.consents !== null) {
    const raw = body.consents;
    if (
      !Array.isArray(raw) ||
      raw.some((c) => !(LEAD_CONSENTS as readonly unknown[]).includes(c)) ||
      new Set(raw).size !== raw.length
    )
      fields.consents = 'invalid';
    else consents = raw as LeadConsent[];
  }
  if (Object.keys(fields).length) {
    return {
      ok: false,
      fields,
      message: problems(fields),
    };
  }
  return {
    ok: true,
    value: {
      name,
      email,
      phone,
      message,
      propertyTitle,
      propertyAddress,
      propertyPrice,
      recipientEmail,
      propertyId,
      agentId,
      leadAgentId,
      source: source.ok ? source.value : null,
      idempotencyKey: key,
      lang,
      website,
      seller,
      visit,
      consents,
    },
  };
}
