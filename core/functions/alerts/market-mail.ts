/**
 * A market follow's monthly mail (docs/market.md "Follow a market"), outbox kind 'market-report'
 * (ref: `follow:YYYY-MM`, the month it reports): composed when sent, from public.market_report as
 * the index then stands, in the follower's language, HTML and plain text. The figure of that month
 * with its change over twelve months and the count it stands on (the parent place's, said so, when
 * the place had too few listings), the middle half of asking prices, what a flat costs, the month's
 * activity, the last six months, the places ranked, the links to the report and the place's search,
 * and the manage and one-click unsubscribe links. Dropped when the follow is no longer active, or
 * when the index has no figure for that month.
 */
import { describeAlert } from '../../protocol/alerts.ts';
import { formatCount, formatPrice } from '../../protocol/format.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { formatChange, parseMarketReport, typicalPrice, yearChange, type MarketFigure } from '../../protocol/market.ts';
import { formatMonth } from '../../protocol/month.ts';
import { marketPath, placeSearchPath } from '../../routes.ts';
import type { Composer } from '../outbox/worker.ts';
import { button, heading, page, type AlertMailOptions, type T } from './mail.ts';
import { monthlyReportComposer } from './monthly-report.ts';
import { oneLine } from '../outbox/mail-header.ts';

/** Months the mail lists, the reported one last. */
const TABLE_MONTHS = 6;
/** Places of the ranking the mail lists. */
const RANKED = 5;

const cell = 'padding:6px 8px;border-bottom:1px solid #e2e8f0';

/** The change over a year: "+4.2%", or that there is no figure to compare. */
const changeText = (figures: MarketFigure[], figure: MarketFigure, t: T) => {
  const change = yearChange(figures, figure);
  return change === null ? t('market.changeUnknownShort') : formatChange(change);
};

export function marketComposer(options: AlertMailOptions): Composer {
  return monthlyReportComposer(options, 'market', async ({ sql, search, monthRef, t, base, footer }) => {
    const follow = search.market;
    const rows = await sql.query<{ report: unknown }>('select public.market_report($1, $2, 14) as report', [
      follow.place,
      follow.type_group,
    ]);
    const report = parseMarketReport(rows[0]?.report);
    const month = `${monthRef}-01`;
    const figure = report.all.find((f) => f.month === month);
    if (!figure || !(figure.median > 0)) return null;
    const lang = search.lang;
    const what = describeAlert(search, t);
    const end = await footer(t('mail.alerts.market.why', { report: what }));
    const monthName = formatMonth(month, t);
    const reportUrl = `${base}${marketPath(follow.place, lang)}`;
    const searchUrl = `${base}${placeSearchPath(figure.path, lang)}`;
    const subject = oneLine(t('mail.alerts.market.subject', { report: what, month: monthName })).slice(0, 200);
    const headline = t('market.perM2', { price: formatPrice(figure.median) });
    const facts: Array<[string, string]> = [
      [t('market.ranking.change'), changeText(report.all, figure, t)],
      [t('market.ranking.listings'), formatCount(figure.listings)],
      [t('mail.alerts.market.range'), `${formatPrice(figure.p25)} – ${formatPrice(figure.p75)}`],
      [t('market.activity.newListings'), formatCount(figure.newListings)],
      [
        t('market.activity.priceCuts'),
        formatChange(figure.listings ? figure.priceCuts / figure.listings : 0).replace(/^\+/, ''),
      ],
      [t('market.activity.medianDays'), formatCount(figure.medianDays)],
    ];
    // what a flat costs: the apartments' figure of the month (all types or apartments followed)
    const flat =
      follow.type_group === 'all' || follow.type_group === 'apartment'
        ? report.byType.find(([g]) => g === 'apartment')?.[1].find((f) => f.month === month)
        : undefined;
    if (flat && flat.median > 0) {
      facts.push(
        [t('market.typical.two'), formatPrice(typicalPrice(flat.median, 70))],
        [t('market.typical.three'), formatPrice(typicalPrice(flat.median, 110))],
      );
    }
    const months = report.all.filter((f) => f.month <= month).slice(-TABLE_MONTHS);
    const ranked = report.ranking.slice(0, RANKED);
    const parentNote =
      figure.path !== follow.place ? t('market.fromParent', { place: follow.name, parent: figure.name }) : '';
    const text = [
      t('mail.alerts.market.heading', { place: follow.name, month: monthName }),
      '',
      `${t('market.headline', { month: monthName })}: ${headline}`,
      ...(parentNote ? [parentNote] : []),
      ...facts.map(([k, v]) => `${k}: ${v}`),
      '',
      t('mail.alerts.market.months'),
      ...months.map(
        (f) =>
          `${formatMonth(f.month, t, 'short')}: ${t('market.perM2', { price: formatPrice(f.median) })} (${formatCount(f.listings)})`,
      ),
      ...(ranked.length
        ? [
            '',
            t('mail.alerts.market.ranking'),
            ...ranked.map((r) => `${r.name}: ${t('market.perM2', { price: formatPrice(r.median) })}`),
          ]
        : []),
      '',
      `${t('mail.alerts.market.seeReport')}: ${reportUrl}`,
      `${t('market.search', { place: figure.name })}: ${searchUrl}`,
      '',
      ...end.text,
    ].join('\n');
    const table = (head: string[] | null, body: string[][]) =>
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;font-size:14px;margin:0 0 20px">${
        head
          ? `<tr>${head.map((h, i) => `<th align="${i ? 'right' : 'left'}" style="${cell};color:#475569;font-weight:600">${escapeHtml(h)}</th>`).join('')}</tr>`
          : ''
      }${body.map((r) => `<tr>${r.map((v, i) => `<td align="${i ? 'right' : 'left'}" style="${cell}">${escapeHtml(v)}</td>`).join('')}</tr>`).join('')}</table>`;
    const html = page(
      lang,
      subject,
      `${heading(t('mail.alerts.market.heading', { place: follow.name, month: monthName }), what)}
<p style="margin:0;color:#475569;font-size:14px">${escapeHtml(t('market.headline', { month: monthName }))}</p>
<p style="margin:0 0 4px;font-size:32px;font-weight:bold">${escapeHtml(headline)}</p>
${parentNote ? `<p style="margin:0 0 8px;color:#475569;font-size:14px">${escapeHtml(parentNote)}</p>` : ''}
${table(null, facts)}
<h2 style="margin:0 0 8px;font-size:17px">${escapeHtml(t('mail.alerts.market.months'))}</h2>
${table(
  [t('market.chart.month'), t('market.ranking.median'), t('market.ranking.listings')],
  months.map((f) => [formatMonth(f.month, t, 'short'), formatPrice(f.median), formatCount(f.listings)]),
)}
${
  ranked.length
    ? `<h2 style="margin:0 0 8px;font-size:17px">${escapeHtml(t('mail.alerts.market.ranking'))}</h2>
${table(
  [t('market.ranking.place'), t('market.ranking.median'), t('market.ranking.change')],
  ranked.map((r) => [r.name, formatPrice(r.median), r.yearBefore ? formatChange(r.median / r.yearBefore - 1) : '–']),
)}`
    : ''
}
<p style="margin:0 0 12px">${button(reportUrl, t('mail.alerts.market.seeReport'))}</p>
<p style="margin:0"><a href="${escapeHtml(searchUrl)}" style="color:#1d4ed8">${escapeHtml(t('market.search', { place: figure.name }))}</a></p>`,
      end.html,
    );
    return { subject, text, html };
  });
}
