/**
 * A project's payment plan on its page (docs/projects.md "The payment plan"): the unit and lender a
 * visitor picks, in a form that works without a script (`?unit=&lender=`), and the plan the server
 * computes for them from today's month (core/protocol/payment-plan.ts).
 */
import type { ReactNode } from 'react';
import type { Lang } from '../../core/lang.ts';
import { SITE } from '../../core/site.ts';
import { formatAmount, formatNumber } from '../../core/protocol/format.ts';
import { paymentPlan, type PaymentPlan } from '../../core/protocol/payment-plan.ts';
import { unitTypeCells, type Project, type UnitType } from '../../core/protocol/projects.ts';
import { projectPath } from '../../core/routes.ts';
import type { ProjectPageContext } from './project-page.tsx';

/** What the visitor picked for the plan: a unit type's id and a lender (SITE.mortgage). */
export interface PlanChoice {
  unit?: string | null;
  lender?: string | null;
}

type Lender = (typeof SITE.mortgage)[number];

const lenderOf = (id: string | null | undefined): Lender => SITE.mortgage.find((l) => l.id === id) ?? SITE.mortgage[0];

const monthName = (date: Date, lang: Lang) =>
  new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);

/** The months of the first and last cuota (the month after signing's, the month before delivery's). */
function cuotaSpan(now: Date, count: number): [Date, Date] {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return [first, new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + count - 1, 1))];
}

function PlanTable({
  plan,
  project: p,
  lender,
  ctx,
}: {
  plan: PaymentPlan;
  project: Project;
  lender: Lender;
  ctx: ProjectPageContext;
}) {
  const { t, lang } = ctx;
  const [first, last] = cuotaSpan(ctx.now, plan.cuotas);
  const rows: Array<[ReactNode, string]> = [
    [t('projects.plan.price'), formatAmount(plan.price)],
    [
      t('projects.plan.entrada', { pct: formatNumber(p.entradaPct, p.entradaPct % 1 ? 1 : 0) }),
      formatAmount(plan.entrada),
    ],
    ...(plan.cuotas
      ? ([
          [t('projects.plan.reservation'), formatAmount(plan.reservation)],
          [
            t('projects.plan.cuotas', {
              count: plan.cuotas,
              first: monthName(first, lang),
              last: monthName(last, lang),
            }),
            plan.cuota === plan.lastCuota
              ? t('projects.plan.each', { amount: formatAmount(plan.cuota) })
              : t('projects.plan.eachLast', { amount: formatAmount(plan.cuota), last: formatAmount(plan.lastCuota) }),
          ],
        ] as Array<[ReactNode, string]>)
      : ([[t('projects.plan.onSigning'), formatAmount(plan.onSigning)]] as Array<[ReactNode, string]>)),
    [t('projects.plan.balance'), formatAmount(plan.balance)],
  ];
  return (
    <>
      <table className="market__table project__plan" data-plan="">
        <tbody>
          {rows.map(([label, value], i) => (
            <tr key={i}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-plan-mortgage="">
        {plan.mortgage && plan.balance > 0
          ? t('projects.plan.mortgage', {
              monthly: formatAmount(plan.mortgage.monthly),
              years: lender.years,
              rate: formatNumber(lender.annualRatePct, 2),
              lender: t(`payment.lenders.${lender.id}.name`),
            })
          : t('projects.plan.noMortgage')}
      </p>
    </>
  );
}

/** The plan of the picked unit type (its lowest price), else of the first one still on sale. */
export function Plan({
  project: p,
  units,
  choice,
  ctx,
}: {
  project: Project;
  units: UnitType[];
  choice: PlanChoice;
  ctx: ProjectPageContext;
}) {
  const { t, lang } = ctx;
  const unit = units.find((u) => u.id === choice.unit) ?? units.find((u) => u.available > 0) ?? units[0];
  const lender = lenderOf(choice.lender);
  const delivery = p.stage === 'delivered' || !p.delivery ? null : new Date(`${p.delivery}T12:00:00Z`);
  const plan = unit
    ? paymentPlan(
        unit.priceMin,
        {
          reservation: p.reservation,
          entradaPct: p.entradaPct,
          years: lender.years,
          annualRatePct: lender.annualRatePct,
        },
        ctx.now,
        delivery,
      )
    : null;
  const action = `${projectPath(p.slug, lang)}#plan`;
  return (
    <section className="market__section" id="plan" aria-labelledby="plan-heading">
      <h2 id="plan-heading">{t('projects.plan.heading')}</h2>
      <p>{t('projects.plan.lead', { pct: formatNumber(p.entradaPct, p.entradaPct % 1 ? 1 : 0) })}</p>
      <form method="get" action={action} className="project__plan-form">
        <label>
          {t('projects.plan.unit')}{' '}
          <select name="unit" defaultValue={unit?.id}>
            {units.map((u) => (
              <option key={u.id} value={u.id}>
                {unitTypeCells(u, t).choice}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          {t('projects.plan.lender')}{' '}
          <select name="lender" defaultValue={lender.id}>
            {SITE.mortgage.map((l) => (
              <option key={l.id} value={l.id}>
                {t(`payment.lenders.${l.id}.name`)}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="submit" className="btn btn--primary">
          {t('projects.plan.show')}
        </button>
      </form>
      {plan ? <PlanTable plan={plan} project={p} lender={lender} ctx={ctx} /> : null}
      <p className="market__note">{t('projects.plan.note')}</p>
    </section>
  );
}
