/**
 * A fixed-rate loan's monthly payment (French amortisation, the way Ecuador's banks and BIESS quote
 * a mortgage): docs/product.md §2, "Monthly payment". An estimate for the visitor, never an offer.
 * The loan and then the payment are rounded half up to the cent, as a lender's table shows them.
 */

export interface PaymentTerms {
  /** down payment, percent of the price (0 to 95) */
  downPaymentPct: number;
  /** term in years (1 to 40) */
  years: number;
  /** nominal annual rate, percent (0 to 30) */
  annualRatePct: number;
}

export interface Payment {
  downPayment: number;
  loan: number;
  monthly: number;
  /** what the loan costs over its term beyond the amount lent */
  totalInterest: number;
}

export const PAYMENT_LIMITS = {
  downPaymentPct: { min: 0, max: 95 },
  years: { min: 1, max: 40 },
  annualRatePct: { min: 0, max: 30 },
} as const;

/** to the cent, half up (the amounts here are positive; the epsilon keeps 1.005 from reading as 1.00499...) */
const cents = (value: number) => Math.round((value + Number.EPSILON * Math.max(1, value)) * 100) / 100;

/** Whether a term's value is within its range (the years whole). */
export function validTerm(key: keyof PaymentTerms, value: number): boolean {
  const { min, max } = PAYMENT_LIMITS[key];
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= min &&
    value <= max &&
    (key !== 'years' || Number.isInteger(value))
  );
}

/** The terms out of their ranges (or not numbers). */
export function invalidTerms(terms: PaymentTerms): Array<keyof PaymentTerms> {
  return (Object.keys(PAYMENT_LIMITS) as Array<keyof PaymentTerms>).filter((key) => !validTerm(key, terms[key]));
}

/** A term as a visitor types it: "9,5" or "9.5", spaces ignored; NaN when it is not a number. */
export function parseTerm(text: string): number {
  const clean = text.trim().replace(/\s+/g, '').replace(',', '.');
  return /^\d+(\.\d*)?$|^\.\d+$/.test(clean) ? Number(clean) : Number.NaN;
}

/** The payment of a price on these terms; null when the price or a term cannot make a loan. */
export function monthlyPayment(price: number, terms: PaymentTerms): Payment | null {
  if (!Number.isFinite(price) || price <= 0 || invalidTerms(terms).length) return null;
  const loan = cents((price * (100 - terms.downPaymentPct)) / 100);
  const months = terms.years * 12;
  const rate = terms.annualRatePct / 1200;
  const monthly = cents(rate === 0 ? loan / months : (loan * rate) / (1 - (1 + rate) ** -months));
  return {
    downPayment: cents(price - loan),
    loan,
    monthly,
    totalInterest: Math.max(0, cents(monthly * months - loan)),
  };
}
