import { describe, expect, it } from 'vitest';
import { invalidTerms, monthlyPayment, parseTerm } from './payment.ts';

// computed apart, with Python's decimal module at 50 digits: loan = price x (1 - down), payment =
// loan x r / (1 - (1 + r)^-n) with r = rate / 1200 and n = years x 12, each rounded half up to the cent
const CASES: Array<
  [price: number, down: number, rate: number, years: number, loan: number, monthly: number, interest: number]
> = [
  [150_000, 0, 9.5, 20, 150_000, 1398.2, 185_568],
  [250_000, 30, 8.69, 25, 175_000, 1431.62, 254_486],
  [100_000, 0, 0, 10, 100_000, 833.33, 0],
  [85_000, 5, 4.99, 25, 80_750, 471.59, 60_727],
  [1_250_000, 20, 10.5, 15, 1_000_000, 11_053.99, 989_718.2],
  [1_000, 0, 12, 1, 1_000, 88.85, 66.2],
  [325_000, 10, 11.33, 30, 292_500, 2858.72, 736_639.2],
  [60_000, 25, 7, 5, 45_000, 891.05, 8463],
];

describe('monthly payment', () => {
  it.each(CASES)('%d with %d%% down at %d%% over %d years', (price, down, rate, years, loan, monthly, interest) => {
    expect(monthlyPayment(price, { downPaymentPct: down, annualRatePct: rate, years })).toEqual({
      downPayment: price - loan,
      loan,
      monthly,
      totalInterest: interest,
    });
  });

  it('gives no payment for a price or a term that cannot make a loan, and names the term', () => {
    const terms = { downPaymentPct: 20, annualRatePct: 9, years: 20 };
    for (const price of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(monthlyPayment(price, terms)).toBeNull();
    expect(invalidTerms({ ...terms, downPaymentPct: 100 })).toEqual(['downPaymentPct']);
    expect(invalidTerms({ ...terms, downPaymentPct: -1 })).toEqual(['downPaymentPct']);
    expect(invalidTerms({ ...terms, years: 0 })).toEqual(['years']);
    expect(invalidTerms({ ...terms, years: 12.5 })).toEqual(['years']);
    expect(invalidTerms({ ...terms, annualRatePct: 31 })).toEqual(['annualRatePct']);
    expect(invalidTerms({ downPaymentPct: Number.NaN, years: 41, annualRatePct: Number.NaN })).toEqual([
      'downPaymentPct',
      'years',
      'annualRatePct',
    ]);
    expect(monthlyPayment(200_000, { ...terms, years: 41 })).toBeNull();
    expect(invalidTerms(terms)).toEqual([]);
  });

  it('reads a term as a visitor types it, with a decimal point or comma', () => {
    expect(parseTerm('9,5')).toBe(9.5);
    expect(parseTerm(' 8.69 ')).toBe(8.69);
    expect(parseTerm('25')).toBe(25);
    expect(parseTerm('.5')).toBe(0.5);
    for (const text of ['', 'abc', '9,5,1', '-3', '1e3', '9.5%']) expect(parseTerm(text), text).toBeNaN();
  });
});
