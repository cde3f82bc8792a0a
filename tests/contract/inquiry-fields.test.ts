/**
 * The form and the send-property-inquiry function judge the contact fields by one module
 * (core/protocol/inquiry.ts): the form flags exactly what the function
 * would refuse, so a visitor never sends what comes back as an error.
 */
import { describe, expect, it } from 'vitest';
import { validateInquiry as functionValidation } from '../../core/functions/inquiry/validate.ts';
import { validateInquiry as formValidation } from '../../widgets/lib/inquiry/fields.ts';

const ok = { name: 'Ana Vera', email: 'ana.vera@example.com', phone: '+593 99 123 4567', message: 'Hola' };

const CASES: Array<[string, Partial<typeof ok>]> = [
  ['valid', {}],
  ['no name', { name: '' }],
  ['blank name', { name: '   ' }],
  ['long name', { name: 'a'.repeat(121) }],
  ['name of 120', { name: 'a'.repeat(120) }],
  ['header injection', { name: 'Ana\r\nBcc: x@y.z' }],
  ['control character', { name: 'Ana\u0007' }],
  ['no e-mail', { email: '' }],
  ['bad e-mail', { email: 'ana@' }],
  ['e-mail without a dot', { email: 'ana@example' }],
  ['e-mail with a comma', { email: 'a,b@example.com' }],
  ['long e-mail', { email: `${'a'.repeat(64)}@${'b'.repeat(190)}.com` }],
  ['no phone', { phone: '' }],
  ['letters in the phone', { phone: 'call me' }],
  ['short phone', { phone: '12345' }],
  ['long phone', { phone: '1'.repeat(41) }],
  ['long message', { message: 'x'.repeat(4001) }],
  ['message of 4000 and spaces', { message: ` ${'x'.repeat(4000)} ` }],
  ['multi-line message', { message: 'Línea 1\nLínea 2' }],
];

describe('the inquiry form and the function agree on every contact field', () => {
  it.each(CASES)('%s', (_name, over) => {
    const values = { ...ok, ...over };
    const form = Object.keys(formValidation(values)).sort();
    const fn = functionValidation({ ...values, idempotencyKey: 'agreement-test-1' });
    const refused = fn.ok ? [] : Object.keys(fn.fields).sort();
    expect(form).toEqual(refused);
  });
});
