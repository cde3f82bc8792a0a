/**
 * How a unit of a new development is paid (docs/projects.md "The payment plan"): a reservation on
 * signing, the rest of the entrada (a share of the price) in monthly cuotas during construction, the
 * last of them the month before delivery, and the balance at delivery, usually with a bank's or
 * BIESS's mortgage, whose monthly payment is the calculator's (payment.ts). An estimate for the
 * visitor, never an offer: amounts to the cent, half up; the cuotas' rounding is settled in the last.
 */
import { monthlyPayment, type Payment } from './payment.ts';

export interface PlanTerms {
  /** paid on signing, USD; part of the entrada */
  reservation: number;
  /** the entrada, percent of the price (10 to 60; 30 is usual) */
  entradaPct: number;
  /** the mortgage on the balance */
  years: number;
  annualRatePct: number;
}

export interface PaymentPlan {
  price: number;
  reservation: number;
  /** the whole entrada, reservation included */
  entrada: number;
  /** the monthly cuotas until delivery (none when it is delivered, or delivered next month) */
  cuotas: number;
  /** each cuota but the last */
  cuota: number;
  /** the last cuota, which takes the cents the others' rounding left */
  lastCuota: number;
  /** what is paid on signing: the reservation, and the whole entrada when there are no cuotas */
  onSigning: number;
  /** paid at delivery */
  balance: number;
  /** the balance as a mortgage, on the given terms; null when the terms cannot make one */
  mortgage: Payment | null;
}

const PLAN_LIMITS = {
  entradaPct: { min: 10, max: 60 },
  reservation: { min: 0, max: 1_000_000 },
} as const;

const cents = (value: number) => Math.round((value + Number.EPSILON * Math.max(1, value)) * 100) / 100;

/** The months whose cuota falls between signing (`from`) and delivery: each month after signing's, up to the one before delivery's. */
export function cuotaMonths(from: Date, delivery: Date): number {
  const months =
    delivery.getUTCFullYear() * 12 + delivery.getUTCMonth() - (from.getUTCFullYear() * 12 + from.getUTCMonth());
  return Math.max(0, months - 1);
}

/**
 * The plan of a unit at `price`, signed at `from` and delivered in `delivery`'s month (a delivered
 * project: `delivery` null). Null when the price or the terms cannot make one: a price that is not a
 * positive amount, an entrada outside its range, a reservation above the entrada.
 */
export function paymentPlan(price: number, terms: PlanTerms, from: Date, delivery: Date | null): PaymentPlan | null {
  if (!Number.isFinite(price) || price <= 0) return null;
  const { entradaPct, reservation } = terms;
  if (
    !Number.isFinite(entradaPct) ||
    entradaPct < PLAN_LIMITS.entradaPct.min ||
    entradaPct > PLAN_LIMITS.entradaPct.max
  )
    return null;
  if (!Number.isFinite(reservation) || reservation < 0) return null;
  const entrada = cents((price * entradaPct) / 100);
  if (reservation > entrada) return null;
  const months = delivery ? cuotaMonths(from, delivery) : 0;
  const rest = cents(entrada - reservation);
  const cuota = months ? Math.floor((rest / months) * 100 + 1e-6) / 100 : 0;
  const lastCuota = months ? cents(rest - cuota * (months - 1)) : 0;
  const balance = cents(price - entrada);
  return {
    price,
    reservation: cents(reservation),
    entrada,
    cuotas: months,
    cuota: months > 1 ? cuota : lastCuota,
    lastCuota,
    onSigning: months ? cents(reservation) : entrada,
    balance,
    mortgage: monthlyPayment(balance, { downPaymentPct: 0, years: terms.years, annualRatePct: terms.annualRatePct }),
  };
}
