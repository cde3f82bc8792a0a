/**
 * What the send-property-inquiry function accepts: the body of SPEC call 5 exactly as the spec
 * sends it, plus optional extras (the property and agent ids, an idempotency key, the language,
 * a honeypot). Every field is checked here, once, for Deno and Node alike.
 */
export const LIMITS = { name: 120, email: 254, phone: 40, message: 4000, text: 300, body: 16 * 1024 } as const;

/** The same pattern the form uses (widgets/lib/data/inquiry.ts). */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

export type FieldError = 'required' | 'tooLong' | 'invalid';

/** An idempotency key, in the body or the Idempotency-Key header: 8 to 100 letters, digits, _ or -. */
export const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;

export interface InquiryInput {
  name: string;
  email: string;
  phone: string;
  message: string;
  propertyTitle: string;
  propertyAddress: string;
  propertyPrice: string;
  recipientEmail: string;
  propertyId: string | null;
  agentId: string | null;
  /** null: none sent (the handler takes the Idempotency-Key header, or derives one) */
  idempotencyKey: string | null;
  lang: 'en' | 'es';
  /** the honeypot: non-empty means a bot */
  website: string;
}

export type Validation = { ok: true; value: InquiryInput } | { ok: false; fields: Record<string, FieldError>; message: string };

// control characters other than tab and new lines have no place in a lead (and header injection
// needs \r\n, which single-line fields refuse)
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LINE_BREAK = /[\r\n]/;

export function validateInquiry(raw: unknown): Validation {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, fields: {}, message: 'The body must be a JSON object.' };
  const body = raw as Record<string, unknown>;
  const fields: Record<string, FieldError> = {};
  const text = (key: string, max: number, options: { required?: boolean; multiline?: boolean } = {}): string => {
    const v = body[key];
    if (v === undefined || v === null || v === '') {
      if (options.required) fields[key] = 'required';
      return '';
    }
    if (typeof v !== 'string') {
      fields[key] = 'invalid';
      return '';
    }
    const s = v.trim();
    if (options.required && !s) fields[key] = 'required';
    else if (s.length > max) fields[key] = 'tooLong';
    else if (CONTROL.test(s) || (!options.multiline && LINE_BREAK.test(s))) fields[key] = 'invalid';
    return s;
  };
  const name = text('name', LIMITS.name, { required: true });
  const email = text('email', LIMITS.email, { required: true });
  if (email && !fields.email && !EMAIL_PATTERN.test(email)) fields.email = 'invalid';
  const phone = text('phone', LIMITS.phone);
  if (phone && !fields.phone && !/^[+()\d\s.-]{6,}$/.test(phone)) fields.phone = 'invalid';
  const message = text('message', LIMITS.message, { multiline: true });
  const propertyTitle = text('propertyTitle', LIMITS.text);
  const propertyAddress = text('propertyAddress', LIMITS.text);
  const propertyPrice = text('propertyPrice', 40);
  const recipientEmail = text('recipientEmail', LIMITS.email);
  const website = typeof body.website === 'string' ? body.website.slice(0, 200) : '';
  const id = (key: string): string | null => {
    const v = body[key];
    if (v === undefined || v === null || v === '') return null;
    const s = String(v).trim();
    if (!/^\d{1,15}$/.test(s)) {
      fields[key] = 'invalid';
      return null;
    }
    return s;
  };
  const propertyId = id('propertyId');
  const agentId = id('agentId');
  const rawKey = body.idempotencyKey;
  const key = rawKey === undefined || rawKey === null || rawKey === '' ? null : typeof rawKey === 'string' ? rawKey.trim() : String(rawKey);
  if (key !== null && (typeof rawKey !== 'string' || !IDEMPOTENCY_KEY.test(key))) fields.idempotencyKey = 'invalid';
  const lang = body.lang === 'es' ? 'es' : 'en';
  if (Object.keys(fields).length) {
    return { ok: false, fields, message: `Some fields are not valid: ${Object.entries(fields).map(([k, v]) => `${k} (${v})`).join(', ')}.` };
  }
  return { ok: true, value: { name, email, phone, message, propertyTitle, propertyAddress, propertyPrice, recipientEmail, propertyId, agentId, idempotencyKey: key, lang, website } };
}
