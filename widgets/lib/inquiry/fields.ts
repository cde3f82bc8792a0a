/**
 * The form's view of the contact fields: the rules of the send-property-inquiry function itself
 * (one module for both, core/protocol/inquiry.ts), as translation keys.
 */
import { useState } from 'react';
import { checkContact, type FieldError } from '../../../core/protocol/inquiry.ts';
import type { InquiryField } from '../data/inquiry.ts';

export type Values = Record<InquiryField, string>;
export type Errors = Partial<Record<InquiryField, string>>;

export const EMPTY_VALUES: Values = { name: '', email: '', phone: '', message: '' };

/** The contact fields' values and errors (translation keys); a field's error goes as it is edited. */
export function useContactFields() {
  const [values, setValues] = useState<Values>(EMPTY_VALUES);
  const [errors, setErrors] = useState<Errors>({});
  const set = (field: InquiryField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };
  return { values, setValues, errors, setErrors, set };
}

/** What the function refused (field: code), as the form says it; a field the form does not have is left out. */
export function refusedFields(fields: Record<string, string>): Errors {
  const out: Errors = {};
  for (const [f, code] of Object.entries(fields))
    if (f in EMPTY_VALUES) out[f as InquiryField] = errorKey(f as InquiryField, code as FieldError);
  return out;
}

/** The translation key of what is wrong with a field (the function says the same, in codes). */
function errorKey(field: InquiryField, error: FieldError): string {
  if (error === 'required' && (field === 'name' || field === 'email')) return `inquiry.errors.${field}Required`;
  if (error === 'invalid' && (field === 'email' || field === 'phone')) return `inquiry.errors.${field}Invalid`;
  return `inquiry.errors.${error}`;
}

/** The rules the function applies (one module for both, core/protocol/), as translation keys. */
export function validateInquiry(v: Values): Errors {
  const errors: Errors = {};
  for (const [field, error] of Object.entries(checkContact(v)) as Array<[InquiryField, FieldError]>)
    errors[field] = errorKey(field, error);
  return errors;
}
