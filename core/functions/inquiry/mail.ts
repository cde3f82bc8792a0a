/**
 * The e-mail an inquiry becomes: to the agent (or the team), Reply-To the visitor, with the
 * property's details and a link to it. Its texts are the locale files' (`mail.inquiry`), labelled in
 * both languages, Spanish first (core/functions/outbox/bilingual.ts). Everything the visitor typed
 * is escaped in the HTML part.
 */
import type { Composer, MailMessage } from '../outbox/worker.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { listingPath } from '../../routes.ts';
import { attributionLines } from '../outbox/attribution-lines.ts';
import { oneLine, replyTo } from '../outbox/mail-header.ts';
import type { Lang } from '../../lang.ts';
import type { Dict } from '../../translate.ts';
import { mailTexts } from '../outbox/bilingual.ts';
import { loadInquiryForMail, type InquiryMailRow } from './store.ts';
import { composeSellerLeadMail, sellerAckComposer } from './seller-mail.ts';
import { visitOfInquiry } from '../visits/store.ts';
import { composeVisitRequestMail, visitLines } from '../visits/mail.ts';

export interface InquiryMailOptions {
  from: string;
  siteUrl: string;
  /** the right-hand side of Message-IDs */
  domain?: string;
  /** a language's locale file */
  texts: (lang: Lang) => Dict;
}

/**
 * `copy`: the copy for the listing's agent (or the agent addressed) when the inquiry belongs to the
 * lead's owner and the deployment copies (docs/leads.md).
 */
function composeInquiryMail(
  row: InquiryMailRow,
  options: InquiryMailOptions,
  copy = false,
  extra: Array<[string, string]> = [],
  /** the lead the team gave its new owner (public.reassign_lead, or its agent's leaving): to her, saying so */
  reassigned?: { to: string; reason: string | null; ref: string },
): MailMessage {
  const { es, both } = mailTexts(options.texts);
  const label = (key: string) => both(`mail.inquiry.${key}`);
  const title = oneLine(row.property_title ?? '');
  // "Nueva consulta / New inquiry: <title>": the labels in both languages, the title once
  const subject = (
    title ? `${both('mail.inquiry.subject')}: ${title}` : `${both('mail.inquiry.subjectFrom')} ${oneLine(row.name)}`
  ).slice(0, 200);
  // the listing's own page, in Spanish (the team and the agents work in Spanish)
  const link = row.listing_id ? `${options.siteUrl.replace(/\/$/, '')}${listingPath(row.listing_id, title, 'es')}` : '';
  const lines: Array<[string, string, 'link'?]> = [
    [label('property'), title],
    [label('address'), row.property_address ?? ''],
    // a rent's price is a month's (docs/product.md "Rent and buy"), said in Spanish as the link is
    [
      label('price'),
      row.property_price && row.operation === 'rent'
        ? es('listing.perMonth', { price: row.property_price })
        : (row.property_price ?? ''),
    ],
    [label('link'), link, 'link'],
    ...extra,
    [label('name'), row.name],
    [label('email'), row.email],
    [label('phone'), row.phone ?? ''],
    [label('language'), es(`language.${row.lang === 'es' ? 'es' : 'en'}`)],
    // where the visitor came from (core/protocol/attribution.ts)
    ...attributionLines({ origin: row.origin, page: row.page_url, element: row.element, utm: row.utm }, both),
  ].filter(([, v]) => v) as Array<[string, string, 'link'?]>;
  // (a departing agent's leads say so in words: the database writes its reason for the CRM)
  if (reassigned)
    lines.unshift([
      label('reassigned'),
      reassigned.reason === 'agent deactivated' ? label('reasonDeactivated') : (reassigned.reason ?? '—'),
    ]);
  const greeting =
    row.recipient_name && !copy && !reassigned
      ? es('mail.inquiry.greetingNamed', { name: row.recipient_name })
      : es('mail.inquiry.greeting');
  const recipient = row.recipient_name ? `${row.recipient_name} (${row.recipient_email})` : row.recipient_email;
  const intro = reassigned
    ? both('mail.inquiry.introReassigned')
    : copy
      ? both('mail.inquiry.introCopy', { recipient })
      : both('mail.inquiry.intro');
  const message = row.message?.trim() || '—';
  const reply = both('mail.inquiry.reply');
  const reference = `${label('inquiry')} ${row.id}`;
  const text = [
    greeting,
    '',
    intro,
    '',
    ...lines.map(([k, v]) => `${k}: ${v}`),
    '',
    `${label('message')}:`,
    message,
    '',
    reply,
    reference,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<table cellpadding="6" style="border-collapse:collapse">${lines
    .map(
      ([k, v, kind]) =>
        `<tr><th align="left" style="color:#475569;font-weight:600">${escapeHtml(k)}</th><td>${kind === 'link' ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>
<p style="color:#475569;font-weight:600;margin-bottom:4px">${escapeHtml(label('message'))}</p>
<p style="white-space:pre-wrap;margin-top:0">${escapeHtml(message)}</p>
<p style="color:#64748b;font-size:13px">${escapeHtml(reply)}<br>${escapeHtml(reference)}</p>
</body></html>`;
  return {
    from: options.from,
    to: reassigned ? reassigned.to : copy ? (row.copy_recipient ?? row.recipient_email) : row.recipient_email,
    replyTo: replyTo(row.name, row.email),
    subject: (reassigned
      ? `[${both('mail.inquiry.reassignedTag')}] ${subject}`
      : copy
        ? `[${both('mail.inquiry.copy')}] ${subject}`
        : subject
    ).slice(0, 200),
    text,
    html,
    messageId: `<inquiry-${reassigned ? `reassigned-${reassigned.ref.replace(/[^\w-]/g, '-')}` : `${copy ? 'copy-' : ''}${row.id}`}@${options.domain ?? 'exp-ecuador.local'}>`,
    headers: { 'X-Inquiry-Id': row.id, 'Auto-Submitted': 'auto-generated' },
  };
}

/**
 * The outbox's composers for mails of kind 'inquiry' and 'inquiry-copy' (ref: the inquiry's id; a
 * seller's lead is told as one, ./seller-mail.ts), and 'seller-ack', the seller's own.
 */
export function inquiryComposers(
  options: InquiryMailOptions,
): Record<'inquiry' | 'inquiry-copy' | 'seller-ack' | 'lead-reassigned', Composer> {
  const composer =
    (copy: boolean): Composer =>
    async (sql, mail) => {
      const row = await loadInquiryForMail(sql, mail.ref_id);
      if (!row || (copy && !row.copy_recipient)) return null;
      // a request to visit: the agent's mail has the links that confirm it (../visits/mail.ts); a copy says the times
      const visit = await visitOfInquiry(sql, row.id);
      if (visit && !copy) return composeVisitRequestMail(sql, row, visit, options);
      if (visit) return composeInquiryMail(row, options, copy, visitLines(visit, options));
      return row.seller
        ? composeSellerLeadMail(row, row.seller, options, copy)
        : composeInquiryMail(row, options, copy);
    };
  /** 'lead-reassigned' (ref: the lead's id and the move's number): the lead, to the agent the team gave it */
  const reassigned: Composer = async (sql, mail) => {
    const row = await loadInquiryForMail(sql, mail.ref_id.split(':')[0] ?? '');
    if (!row) return null;
    const reason = typeof mail.payload?.reason === 'string' ? mail.payload.reason : null;
    return composeInquiryMail(row, options, false, [], { to: mail.recipient, reason, ref: mail.ref_id });
  };
  return {
    inquiry: composer(false),
    'inquiry-copy': composer(true),
    'seller-ack': sellerAckComposer(options),
    'lead-reassigned': reassigned,
  };
}
