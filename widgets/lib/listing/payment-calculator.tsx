/**
 * The monthly payment beside a listing's price (docs/product.md §2, "Monthly payment"): a summary line
 * with the estimate on the deployment's default terms, which opens into the three terms (down
 * payment, years, rate) and a choice of lender (core/site.ts `mortgage`). Every keystroke updates
 * the estimate; a term out of range says so at its field and the estimate waits for it. An
 * estimate for the visitor, with where and when its rates were read, never an offer. A listing's
 * alícuota, when its data says it, is part of what a month costs.
 */
import { useId, useState } from 'react';
import { formatMonth } from '../../../core/protocol/month.ts';
import { formatPrice } from '../../../core/protocol/format.ts';
import {
  monthlyPayment,
  parseTerm,
  PAYMENT_LIMITS,
  validTerm,
  type PaymentTerms,
} from '../../../core/protocol/payment.ts';
import { SITE } from '../../../core/site.ts';
import { useElement } from '../element.tsx';

type Lender = (typeof SITE.mortgage)[number];
type Texts = Record<keyof PaymentTerms, string>;

const FIELDS: ReadonlyArray<{ key: keyof PaymentTerms; label: string; step: string }> = [
  { key: 'downPaymentPct', label: 'payment.downPayment', step: '1' },
  { key: 'years', label: 'payment.years', step: '1' },
  { key: 'annualRatePct', label: 'payment.rate', step: '0.01' },
];

const textsOf = (lender: Lender): Texts => ({
  downPaymentPct: String(lender.downPaymentPct),
  years: String(lender.years),
  annualRatePct: String(lender.annualRatePct),
});

/** `hoaFee`: the listing's alícuota a month (docs/product.md §3), added to the loan's payment when known. */
export function PaymentCalculator({
  price,
  hoaFee = null,
  headingLevel,
}: {
  price: number;
  hoaFee?: number | null;
  headingLevel: 'h2' | 'h3';
}) {
  const { t } = useElement();
  const id = useId();
  const [lenderId, setLenderId] = useState<string>(SITE.mortgage[0].id);
  const lender = SITE.mortgage.find((l) => l.id === lenderId) ?? SITE.mortgage[0];
  const [texts, setTexts] = useState<Texts>(() => textsOf(lender));
  if (!(price > 0)) return null;
  const terms: PaymentTerms = {
    downPaymentPct: parseTerm(texts.downPaymentPct),
    years: parseTerm(texts.years),
    annualRatePct: parseTerm(texts.annualRatePct),
  };
  const payment = monthlyPayment(price, terms);
  // what a month costs: the loan's payment and, when the listing says it, its alícuota
  const total = payment ? payment.monthly + (hoaFee ?? 0) : null;
  const Heading = headingLevel;
  const choose = (next: Lender) => {
    setLenderId(next.id);
    setTexts(textsOf(next));
  };
  return (
    <details className="group rounded-brand border border-line" part="payment">
      <summary className="flex cursor-pointer list-none flex-wrap items-baseline justify-between gap-x-3 gap-y-1 px-4 py-3 [&::-webkit-details-marker]:hidden">
        <Heading className="m-0 text-base font-semibold text-ink">{t('payment.heading')}</Heading>
        <span className="text-ink">
          {total !== null ? t('payment.perMonth', { amount: formatPrice(total) }) : '—'}
          <span
            aria-hidden="true"
            className="ml-2 inline-block text-ink-muted transition-transform group-open:rotate-180"
          >
            ▾
          </span>
        </span>
      </summary>
      <div className="flex flex-col gap-3 border-t border-line px-4 pb-4 pt-3">
        <div role="group" aria-label={t('payment.lender')} className="flex flex-wrap gap-2">
          {SITE.mortgage.map((l) => (
            <button
              key={l.id}
              type="button"
              aria-pressed={l.id === lender.id}
              onClick={() => choose(l)}
              className={`rounded-full border px-3 py-1 text-sm font-medium cursor-pointer ${l.id === lender.id ? 'border-primary bg-primary text-primary-contrast' : 'border-line bg-surface text-ink hover:border-primary'}`}
            >
              {t(`payment.lenders.${l.id}.name`)}
            </button>
          ))}
        </div>
        <div className="grid grid-cols-[repeat(3,minmax(0,1fr))] gap-2">
          {FIELDS.map(({ key, label }) => {
            const valid = validTerm(key, terms[key]);
            const inputId = `${id}-${key}`;
            return (
              <div key={key} className="flex min-w-0 flex-col gap-1">
                <label htmlFor={inputId} className="flex-1 text-xs font-medium text-ink break-words">
                  {t(label)}
                </label>
                <input
                  id={inputId}
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  value={texts[key]}
                  onChange={(e) => setTexts((was) => ({ ...was, [key]: e.target.value }))}
                  aria-invalid={valid ? undefined : true}
                  aria-describedby={valid ? undefined : `${inputId}-error`}
                  maxLength={6}
                  className={`w-full min-w-0 rounded-md border bg-surface px-2 py-1.5 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${valid ? 'border-line' : 'border-danger'}`}
                />
                {valid ? null : (
                  <p id={`${inputId}-error`} className="m-0 text-xs text-danger" part="field-error">
                    {t('payment.range', { min: PAYMENT_LIMITS[key].min, max: PAYMENT_LIMITS[key].max })}
                  </p>
                )}
              </div>
            );
          })}
        </div>
        <output htmlFor={FIELDS.map((f) => `${id}-${f.key}`).join(' ')} aria-live="polite" className="block">
          {payment ? (
            <>
              <span className="block text-2xl font-bold text-ink">
                {t('payment.perMonth', { amount: formatPrice(total) })}
              </span>
              {hoaFee ? (
                <span className="block text-sm text-ink" part="payment-fee">
                  {t('payment.withFee', { loan: formatPrice(payment.monthly), fee: formatPrice(hoaFee) })}
                </span>
              ) : null}
              <span className="block text-sm text-ink-muted">
                {t('payment.breakdown', {
                  down: formatPrice(payment.downPayment),
                  loan: formatPrice(payment.loan),
                  interest: formatPrice(payment.totalInterest),
                })}
              </span>
            </>
          ) : (
            <span className="block text-sm text-ink-muted">{t('payment.incomplete')}</span>
          )}
        </output>
        <p className="m-0 text-xs text-ink-muted" part="payment-note">
          {t('payment.note', { source: t(`payment.lenders.${lender.id}.source`), date: formatMonth(lender.asOf, t) })}
        </p>
      </div>
    </details>
  );
}

/**
 * What a rent costs a month (docs/product.md "Rent and buy"): the rent and, when the listing says
 * it, the alícuota, said apart; no loan.
 */
export function RentCost({
  rent,
  hoaFee = null,
  headingLevel,
}: {
  rent: number;
  hoaFee?: number | null;
  headingLevel: 'h2' | 'h3';
}) {
  const { t } = useElement();
  if (!(rent > 0)) return null;
  const Heading = headingLevel;
  return (
    <div className="rounded-brand border border-line px-4 py-3" part="payment">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <Heading className="m-0 text-base font-semibold text-ink">{t('payment.rentHeading')}</Heading>
        <span className="text-ink font-semibold">
          {t('payment.perMonth', { amount: formatPrice(rent + (hoaFee ?? 0)) })}
        </span>
      </div>
      <p className="m-0 mt-1 text-sm text-ink-muted">
        {hoaFee
          ? t('payment.rentWithFee', { rent: formatPrice(rent), fee: formatPrice(hoaFee) })
          : t('payment.rentOnly')}
      </p>
    </div>
  );
}
