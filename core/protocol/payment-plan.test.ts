import { describe, expect, it } from 'vitest';
import { cuotaMonths, paymentPlan } from './payment-plan.ts';

const at = (iso: string) => new Date(`${iso}T12:00:00Z`);

// every figure below worked by hand (the mortgages' with 50-digit decimals apart from this code)
describe('a unit bought off the plan (docs/projects.md "The payment plan")', () => {
  it('signed in December 2026, delivered in June 2028: the reservation now, 17 cuotas from January 2027 to May 2028, the balance at delivery', () => {
    expect(cuotaMonths(at('2026-12-01'), at('2028-06-01'))).toBe(17);
    const plan = paymentPlan(
      120_000,
      { reservation: 2_000, entradaPct: 30, years: 20, annualRatePct: 0 },
      at('2026-12-01'),
      at('2028-06-01'),
    );
    expect(plan).toEqual({
      price: 120_000,
      reservation: 2_000,
      // 30% of 120,000
      entrada: 36_000,
      cuotas: 17,
      // (36,000 - 2,000) / 17
      cuota: 2_000,
      lastCuota: 2_000,
      onSigning: 2_000,
      // 120,000 - 36,000
      balance: 84_000,
      // 84,000 / 240 months without interest
      mortgage: { downPayment: 0, loan: 84_000, monthly: 350, totalInterest: 0 },
    });
  });

  it("the cuotas' cents go to the last one: 28,500 in 7 cuotas is six of 4,071.42 and one of 4,071.48", () => {
    const plan = paymentPlan(
      100_000,
      { reservation: 1_500, entradaPct: 30, years: 25, annualRatePct: 9 },
      at('2026-12-15'),
      at('2027-08-01'),
    );
    expect(plan?.cuotas).toBe(7);
    expect(plan?.cuota).toBe(4_071.42);
    expect(plan?.lastCuota).toBe(4_071.48);
    expect((plan?.cuota ?? 0) * 6 + (plan?.lastCuota ?? 0) + (plan?.reservation ?? 0)).toBeCloseTo(30_000, 6);
    // 70,000 over 300 months at 0.75% a month: 587.43745... -> 587.44
    expect(plan?.balance).toBe(70_000);
    expect(plan?.mortgage?.monthly).toBe(587.44);
  });

  it('at 9.5% over 20 years, the balance of 84,000 is 782.99 a month', () => {
    const plan = paymentPlan(
      120_000,
      { reservation: 2_000, entradaPct: 30, years: 20, annualRatePct: 9.5 },
      at('2026-12-01'),
      at('2028-06-01'),
    );
    expect(plan?.mortgage?.monthly).toBe(782.99);
  });

  it('delivered, or delivered next month: no cuotas, the whole entrada on signing', () => {
    for (const delivery of [null, at('2027-01-10'), at('2026-12-20'), at('2025-03-01')]) {
      const plan = paymentPlan(
        98_000,
        { reservation: 1_000, entradaPct: 35, years: 20, annualRatePct: 9 },
        at('2026-12-01'),
        delivery,
      );
      expect(plan?.cuotas, String(delivery)).toBe(0);
      // 35% of 98,000
      expect(plan?.onSigning, String(delivery)).toBe(34_300);
      expect(plan?.balance, String(delivery)).toBe(63_700);
    }
  });

  it('refuses what cannot be a plan: no price, an entrada outside 10-60%, a reservation above the entrada', () => {
    const terms = { reservation: 1_000, entradaPct: 30, years: 20, annualRatePct: 9 };
    expect(paymentPlan(0, terms, at('2026-12-01'), at('2028-01-01'))).toBeNull();
    expect(paymentPlan(Number.NaN, terms, at('2026-12-01'), at('2028-01-01'))).toBeNull();
    expect(paymentPlan(100_000, { ...terms, entradaPct: 5 }, at('2026-12-01'), at('2028-01-01'))).toBeNull();
    expect(paymentPlan(100_000, { ...terms, entradaPct: 70 }, at('2026-12-01'), at('2028-01-01'))).toBeNull();
    expect(paymentPlan(100_000, { ...terms, reservation: 40_000 }, at('2026-12-01'), at('2028-01-01'))).toBeNull();
    // a mortgage the calculator cannot make (a term out of range) leaves the rest of the plan
    expect(paymentPlan(100_000, { ...terms, years: 60 }, at('2026-12-01'), at('2028-01-01'))?.mortgage).toBeNull();
  });
});
