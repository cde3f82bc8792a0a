/**
 * A visitor's inquiry as the form sends it to send-property-inquiry (docs/leads.md): Diego's, about
 * no listing in particular, with what a test changes in `over`. Each has an idempotency key of its own.
 */
let made = 0;

/** A visitor writing from Spain (her phone's +34, her browser's clock in Madrid: the visits' tests). */
export const FROM_MADRID = {
  name: 'Lucía Viajera',
  phone: '+34 600 000 000',
  message: 'Desde Madrid',
  propertyTitle: 'x',
};

export function inquiryBody<T extends Record<string, unknown>>(over: T = {} as T): Record<string, unknown> & T {
  return {
    name: 'Diego Andrade',
    email: 'diego.andrade@example.com',
    phone: '',
    message: 'Consulta',
    propertyTitle: '',
    propertyAddress: '',
    propertyPrice: '',
    recipientEmail: '',
    idempotencyKey: `inquiry-${process.pid}-${++made}-${Math.random().toString(36).slice(2, 10)}`,
    lang: 'es',
    ...over,
  };
}
