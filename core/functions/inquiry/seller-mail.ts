/**
 * A seller's lead in the mails (docs/valuation.md "The seller's lead"), composed when sent from
 * what public.inquiries kept (the facts, the plans and the estimate made when the lead came):
 *  - to the agent (the lead's owner, the agent who serves the place, else the team), labelled in
 *    both languages, Spanish first: who, when they plan to sell and whether they also buy, the home,
 *    the estimate with its range and confidence, buyer demand, and the comparables with their links;
 *  - to the seller ('seller-ack'), in their language: the estimate and who will call. Nothing they
 *    typed goes in it but numbers and our own names (anyone may type any address).
 * Everything from the data is escaped in the HTML.
 */
import { heading } from '../alerts/mail.ts';
import { attributionLines } from '../outbox/attribution-lines.ts';
import { oneLine, replyTo } from '../outbox/mail-header.ts';
import { formatArea, formatCount, formatPrice } from '../../protocol/format.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { typeLabel } from '../../protocol/listing.ts';
import { parseEstimate, type Estimate } from '../../protocol/valuation.ts';
import { listingPath, localizedPath } from '../../routes.ts';
import { translatorFor, type Translate } from '../../translate.ts';
import { mailTexts } from '../outbox/bilingual.ts';
import type { Composer, MailMessage } from '../outbox/worker.ts';
import type { InquiryMailOptions } from './mail.ts';
import { loadInquiryForMail, type InquiryMailRow, type SellerLead } from './store.ts';
import type { Lang } from '../../lang.ts';

const site = (options: InquiryMailOptions) => options.siteUrl.replace(/\/$/, '');

/** The home in words: "House · 250 m² · lot 800 m² · 3 bedrooms · 2.5 bathrooms · built 2012 · pool, garage". */
function homeLines(facts: Record<string, unknown>, t: Translate): Array<[string, string]> {
  const n = (k: string) => (typeof facts[k] === 'number' ? (facts[k] as number) : null);
  const out: Array<[string, string]> = [[t('valuation.fields.type'), typeLabel(String(facts.property_type ?? ''), t)]];
  if (n('area_m2') !== null) out.push([t('valuation.fields.area'), formatArea(n('area_m2') as number)]);
  if (n('lot_m2') !== null) out.push([t('valuation.fields.lot'), formatArea(n('lot_m2') as number)]);
  if (n('bedrooms') !== null) out.push([t('valuation.fields.bedrooms'), formatCount(n('bedrooms') as number)]);
  if (n('bathrooms') !== null) out.push([t('valuation.fields.bathrooms'), String(n('bathrooms'))]);
  if (n('year_built') !== null) out.push([t('valuation.fields.yearBuilt'), String(n('year_built'))]);
  if (Array.isArray(facts.features) && facts.features.length)
    out.push([
      t('valuation.fields.features'),
      facts.features.map((f) => t(`valuation.features.${String(f)}`)).join(', '),
    ]);
  if (n('lat') !== null && n('lng') !== null) out.push([t('valuation.fields.point'), `${n('lat')}, ${n('lng')}`]);
  return out;
}

/** The estimate in words: "$355,000 ($246,000 - $584,000)", or why there is none. */
function estimateText(e: Estimate, t: Translate): string {
  if (e.value === null) return t('valuation.result.none');
  return `${formatPrice(e.value)} (${formatPrice(e.low)} – ${formatPrice(e.high)}) · ${t(`valuation.confidence.${e.confidence}`)}`;
}

const table = (rows: Array<[string, string]>) =>
  `<table cellpadding="6" style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><th align="left" style="color:#475569;font-weight:600">${escapeHtml(k)}</th><td>${v.startsWith('http') ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>`;

/** The agent's mail of a seller's lead (or the copy of it). */
export function composeSellerLeadMail(
  row: InquiryMailRow,
  seller: SellerLead,
  options: InquiryMailOptions,
  copy = false,
): MailMessage {
  const { es, both } = mailTexts(options.texts);
  const e = parseEstimate(seller.estimate);
  const place = e.place?.name ?? '';
  const what = [
    typeLabel(String(seller.facts.property_type ?? ''), es),
    typeof seller.facts.area_m2 === 'number' ? formatArea(seller.facts.area_m2) : '',
    place,
  ]
    .filter(Boolean)
    .join(', ');
  const subject =
    `${copy ? `[${both('mail.inquiry.copy')}] ` : ''}${both('mail.seller.subject')}: ${oneLine(what)}${e.value !== null ? ` · ${formatPrice(e.value)}` : ''}`.slice(
      0,
      200,
    );
  const contact: Array<[string, string]> = [
    [both('mail.inquiry.name'), row.name],
    [both('mail.inquiry.email'), row.email],
    [both('mail.inquiry.phone'), row.phone ?? ''],
    [both('mail.inquiry.language'), es(`language.${row.lang === 'es' ? 'es' : 'en'}`)],
    [both('mail.seller.timeline'), es(`valuation.timelines.${seller.timeline}`)],
    [both('mail.seller.alsoBuying'), es(seller.also_buying ? 'mail.seller.yes' : 'mail.seller.no')],
    [both('mail.seller.place'), place],
    ...homeLines(seller.facts, es),
    [both('mail.seller.estimate'), estimateText(e, es)],
    [
      both('mail.seller.demand'),
      e.demand !== null
        ? formatCount(e.demand)
        : e.demandFewerThan !== null
          ? es('valuation.fewerThan', { formatted: formatCount(e.demandFewerThan) })
          : '',
    ],
    ...attributionLines({ origin: row.origin, page: row.page_url, element: row.element, utm: row.utm }, both),
  ].filter(([, v]) => v) as Array<[string, string]>;
  const comparables = e.comparables.map((c) => ({
    line: `${c.title} · ${formatPrice(c.price)} · ${formatArea(c.area)} · ${formatPrice(c.usdM2)}/m² · ${formatCount(c.distance)} m`,
    href: `${site(options)}${listingPath(c.id, c.title, 'es')}`,
  }));
  const intro = both('mail.seller.intro');
  const message = row.message?.trim() ?? '';
  const reference = `${both('mail.inquiry.inquiry')} ${row.id}`;
  const text = [
    intro,
    '',
    ...contact.map(([k, v]) => `${k}: ${v}`),
    '',
    `${both('mail.seller.comparables')}:`,
    ...comparables.map((c) => `- ${c.line}\n  ${c.href}`),
    ...(message ? ['', `${both('mail.inquiry.message')}:`, message] : []),
    '',
    both('mail.inquiry.reply'),
    reference,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<p>${escapeHtml(intro)}</p>
${table(contact)}
<p style="color:#475569;font-weight:600;margin-bottom:4px">${escapeHtml(both('mail.seller.comparables'))}</p>
<ul>${comparables.map((c) => `<li><a href="${escapeHtml(c.href)}">${escapeHtml(c.line)}</a></li>`).join('')}</ul>
${message ? `<p style="color:#475569;font-weight:600;margin-bottom:4px">${escapeHtml(both('mail.inquiry.message'))}</p><p style="white-space:pre-wrap;margin-top:0">${escapeHtml(message)}</p>` : ''}
<p style="color:#64748b;font-size:13px">${escapeHtml(both('mail.inquiry.reply'))}<br>${escapeHtml(reference)}</p>
</body></html>`;
  return {
    from: options.from,
    to: copy ? (row.copy_recipient ?? row.recipient_email) : row.recipient_email,
    replyTo: replyTo(row.name, row.email),
    subject,
    text,
    html,
    messageId: `<inquiry-${copy ? 'copy-' : ''}${row.id}@${options.domain ?? 'exp-ecuador.local'}>`,
    headers: { 'X-Inquiry-Id': row.id, 'Auto-Submitted': 'auto-generated' },
  };
}

/** The seller's own mail: the estimate, and who will call (an agent's name, or the team). */
export function sellerAckComposer(options: InquiryMailOptions): Composer {
  return async (sql, mail) => {
    const row = await loadInquiryForMail(sql, mail.ref_id);
    if (!row?.seller) return null;
    const lang: Lang = row.lang === 'es' ? 'es' : 'en';
    const t = translatorFor(options.texts(lang), lang);
    const e = parseEstimate(row.seller.estimate);
    const place = e.place?.name ?? '';
    const who =
      row.recipient_kind === 'team' || !row.recipient_name
        ? t('mail.seller.ack.team')
        : t('mail.seller.ack.agent', { agent: row.recipient_name });
    const subject = oneLine(t('mail.seller.ack.subject', { place: place || t('valuation.yourHome') })).slice(0, 200);
    const lines: Array<[string, string]> = [
      [t('mail.seller.place'), place],
      ...homeLines(row.seller.facts, t),
      [t('mail.seller.estimate'), estimateText(e, t)],
    ].filter(([, v]) => v) as Array<[string, string]>;
    const link = `${site(options)}${localizedPath('/sell', lang)}`;
    const text = [
      t('mail.seller.ack.heading'),
      '',
      who,
      '',
      ...lines.map(([k, v]) => `${k}: ${v}`),
      '',
      t('valuation.disclaimer'),
      '',
      link,
    ].join('\n');
    const html = `<!doctype html><html lang="${lang}"><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
${heading(t('mail.seller.ack.heading'))}
<p>${escapeHtml(who)}</p>
${table(lines)}
<p style="color:#475569;font-size:14px">${escapeHtml(t('valuation.disclaimer'))}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
</body></html>`;
    return {
      from: options.from,
      to: row.email,
      subject,
      text,
      html,
      messageId: `<seller-ack-${row.id}@${options.domain ?? 'exp-ecuador.local'}>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    };
  };
}
