/**
 * The form's view of the contact fields: the rules of the send-property-inquiry function itself
 * (one module for both, core/protocol/inquiry.ts), as translation keys.
 */
import { checkContact, type FieldError } from '../../../core/protocol/inquiry.ts';
import type { InquiryField } from '../data/inquiry.ts';

export type Values = Record<InquiryField, string>;

/** The translation key of what is wrong with a field (the function says the same, in codes). */
export function errorKey(field: InquiryField, error: FieldError): string {
  if (error === 'required' && (field === 'name' || field === 'email')) return `inquiry.errors.${field}Required`;
  if (error === 'invalid' && (field === 'email' || field === 'phone')) return `inquiry.errors.${field}Invalid`;
  return `inquiry.errors.${error}`;
}

/** The rules the function applies (one module for both, core/protocol/), as translation keys. */
export function validateInquiry(v: Values): Partial<Record<InquiryField, string>> {
  const errors: Partial<Record<InquiryField, string>> = {};
  for (const [field, error] of Object.entries(checkContact(v)) as Array<[InquiryField, FieldError]>) errors[field] = errorKey(field, error);
  return errors;
}
