/**
 * A home report's monthly mail (docs/valuation.md "A report every month"), outbox kind
 * 'home-report' (ref: `follow:YYYY-MM`): the home's estimate made again (public.estimate_value, as
 * the element makes it) with last month's beside it, the comparables that came on the market or cut
 * their price since, the place's median per m² and its trend, buyer demand, the way to the estimate
 * on the site, and the manage and one-click unsubscribe links. Dropped when the report is no longer
 * active. Composed when sent, in the seller's language; everything from the data is escaped.
 */
import { formatArea, formatPrice } from '../../protocol/format.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { formatChange } from '../../protocol/market.ts';
import { formatMonth } from '../../protocol/month.ts';
import { demandText, parseEstimate } from '../../protocol/valuation.ts';
import { listingPath, localizedPath } from '../../routes.ts';
import type { Composer } from '../outbox/worker.ts';
import { estimateHome } from '../valuation.ts';
import { button, heading, page, type AlertMailOptions } from './mail.ts';
import { monthlyReportComposer } from './monthly-report.ts';
import { oneLine } from '../outbox/mail-header.ts';

/** A comparable is news when it came on the market, or cut its price, within this many days. */
const NEWS_DAYS = 35;

export function homeReportComposer(options: AlertMailOptions): Composer {
  return monthlyReportComposer(options, 'home', async ({ sql, search, monthRef, t, base, footer }) => {
    const made = await estimateHome(sql, search.home.facts);
    // facts the estimate no longer takes (a place gone from the index): nothing to say this month
    if ('field' in made) return null;
    const e = parseEstimate(made.estimate);
    const lang = search.lang;
    const month = formatMonth(monthRef, t);
    const place = e.place?.name ?? search.home.place?.name ?? '';
    const end = await footer(t('mail.seller.report.why'));
    const last = (search.home as { last_value?: number }).last_value;
    // what is new among its comparables: on the market or cheaper since about a month
    const news = e.comparables.length
      ? await sql.query<{ id: string; fresh: boolean; cut: boolean }>(
          `select id::text as id, listed_at > internal.now() - make_interval(days => $2) as fresh, coalesce(price_cut_at > internal.now() - make_interval(days => $2), false) as cut
             from internal.listings where id = any($1::bigint[])`,
          [e.comparables.map((c) => c.id), NEWS_DAYS],
        )
      : [];
    const newsOf = new Map(
      news.map((n) => [n.id, n.cut ? t('mail.alerts.alert.drop') : n.fresh ? t('mail.alerts.alert.new') : '']),
    );
    const lines: string[] = [];
    if (e.value === null) lines.push(t('valuation.result.none'));
    else {
      lines.push(
        `${t('valuation.result.heading')}: ${formatPrice(e.value)}`,
        t('valuation.result.range', { low: formatPrice(e.low), high: formatPrice(e.high) }),
        t(`valuation.confidence.${e.confidence}`),
      );
      if (last) lines.push(t('mail.seller.report.was', { price: formatPrice(last) }));
    }
    if (e.market) {
      const change = e.market.yearBefore ? e.market.median / e.market.yearBefore - 1 : null;
      lines.push(
        `${t('valuation.market.line', { place: e.market.name, price: formatPrice(e.market.median) })}${change !== null ? ` (${t('valuation.market.change', { change: formatChange(change) })})` : ''}`,
      );
    }
    lines.push(demandText(e, t));
    const comps = e.comparables.map((c) => ({
      badge: newsOf.get(c.id) ?? '',
      text: `${c.title} · ${formatPrice(c.price)} · ${formatArea(c.area)} · ${t('valuation.result.perM2', { price: formatPrice(c.usdM2) })}`,
      href: `${base}${listingPath(c.id, c.title, lang)}`,
    }));
    const link = `${base}${localizedPath('/sell', lang)}`;
    const subject = oneLine(t('mail.seller.report.subject', { place: place || t('valuation.yourHome'), month })).slice(
      0,
      200,
    );
    const text = [
      t('mail.seller.report.heading', { month }),
      t('mail.seller.report.intro'),
      '',
      ...lines,
      '',
      `${t('valuation.comparables.heading')}:`,
      ...comps.map((c) => `- ${c.badge ? `[${c.badge}] ` : ''}${c.text}\n  ${c.href}`),
      '',
      t('valuation.disclaimer'),
      '',
      `${t('mail.seller.report.seeAll')}: ${link}`,
      '',
      ...end.text,
    ].join('\n');
    const html = page(
      lang,
      subject,
      `${heading(t('mail.seller.report.heading', { month }), t('mail.seller.report.intro'))}
${e.value === null ? '' : `<p style="margin:0;font-size:32px;font-weight:bold">${escapeHtml(formatPrice(e.value))}</p>`}
${lines
  .slice(e.value === null ? 0 : 1)
  .map((l) => `<p style="margin:0 0 6px">${escapeHtml(l)}</p>`)
  .join('\n')}
<h2 style="margin:16px 0 8px;font-size:17px">${escapeHtml(t('valuation.comparables.heading'))}</h2>
<ul style="margin:0 0 16px;padding-left:18px">${comps
        .map(
          (c) =>
            `<li style="margin:0 0 6px">${c.badge ? `<strong style="color:#c8102e">${escapeHtml(c.badge)}</strong> ` : ''}<a href="${escapeHtml(c.href)}" style="color:#1d4ed8">${escapeHtml(c.text)}</a></li>`,
        )
        .join('')}</ul>
<p style="margin:0 0 16px;color:#475569;font-size:14px">${escapeHtml(t('valuation.disclaimer'))}</p>
<p style="margin:0">${button(link, t('mail.seller.report.seeAll'))}</p>`,
      end.html,
    );
    // next month's mail says this one's value beside its own
    if (e.value !== null)
      await sql.query(
        "update internal.saved_searches set home = home || jsonb_build_object('last_value', $2::numeric) where id = $1",
        [search.id, e.value],
      );
    return { subject, text, html };
  });
}
