/**
 * The e-mail an inquiry becomes: to the agent (or the team), Reply-To the visitor, with the
 * property's details and a link to it. Bilingual labels, Spanish first (the team and the agents
 * work in Spanish). Everything the visitor typed is escaped in the HTML part.
 */
import type { Composer, MailMessage } from '../outbox/worker.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { listingPath } from '../../routes.ts';
import { attributionLines } from '../../protocol/attribution.ts';
import { loadInquiryForMail, type InquiryMailRow } from './store.ts';

export interface InquiryMailOptions {
  from: string;
  siteUrl: string;
  /** the right-hand side of Message-IDs */
  domain?: string;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

/**
 * `copy`: the copy for the listing's agent (or the agent addressed) when the inquiry belongs to the
 * lead's owner and the deployment copies (docs/leads.md).
 */
export function composeInquiryMail(row: InquiryMailRow, options: InquiryMailOptions, copy = false): MailMessage {
  const title = oneLine(row.property_title ?? '');
  const subject = title ? `Nueva consulta / New inquiry: ${title}`.slice(0, 200) : `Nueva consulta de / New inquiry from ${oneLine(row.name)}`.slice(0, 200);
  // the listing's own page, in Spanish (the team and the agents work in Spanish)
  const link = row.listing_id ? `${options.siteUrl.replace(/\/$/, '')}${listingPath(row.listing_id, title, 'es')}` : '';
  const lines: Array<[string, string]> = [
    ['Propiedad / Property', title],
    ['Dirección / Address', row.property_address ?? ''],
    ['Precio / Price', row.property_price ?? ''],
    ['Enlace / Link', link],
    ['Nombre / Name', row.name],
    ['Correo / E-mail', row.email],
    ['Teléfono / Phone', row.phone ?? ''],
    ['Idioma / Language', row.lang === 'es' ? 'Español' : 'English'],
    // where the visitor came from (core/protocol/attribution.ts)
    ...attributionLines({ origin: row.origin, page: row.page_url, element: row.element, utm: row.utm }),
  ].filter(([, v]) => v) as Array<[string, string]>;
  const greeting = row.recipient_name && !copy ? `Hola ${row.recipient_name},` : 'Hola,';
  const intro = copy
    ? `Copia: esta consulta fue para ${row.recipient_name ? `${row.recipient_name} (${row.recipient_email})` : row.recipient_email}, cuyo sitio trajo al cliente. / Copy: this inquiry went to ${row.recipient_name ?? row.recipient_email}, whose website brought the client.`
    : 'Recibiste una nueva consulta desde el sitio de eXp Realty Ecuador. / You have a new inquiry from the eXp Realty Ecuador website.';
  const text = [
    greeting,
    '',
    intro,
    '',
    ...lines.map(([k, v]) => `${k}: ${v}`),
    '',
    'Mensaje / Message:',
    row.message?.trim() || '—',
    '',
    'Responda a este correo para contestar al cliente. / Reply to this e-mail to answer the client.',
    `Consulta / Inquiry ${row.id}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<table cellpadding="6" style="border-collapse:collapse">${lines
    .map(([k, v]) => `<tr><th align="left" style="color:#475569;font-weight:600">${escapeHtml(k)}</th><td>${k.startsWith('Enlace') ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v)}</td></tr>`)
    .join('')}</table>
<p style="color:#475569;font-weight:600;margin-bottom:4px">Mensaje / Message</p>
<p style="white-space:pre-wrap;margin-top:0">${escapeHtml(row.message?.trim() || '—')}</p>
<p style="color:#64748b;font-size:13px">Responda a este correo para contestar al cliente. / Reply to this e-mail to answer the client.<br>Consulta / Inquiry ${escapeHtml(row.id)}</p>
</body></html>`;
  return {
    from: options.from,
    to: copy ? (row.copy_recipient ?? row.recipient_email) : row.recipient_email,
    replyTo: `"${oneLine(row.name).replace(/["\\]/g, '')}" <${row.email}>`,
    subject: copy ? `[Copia / Copy] ${subject}`.slice(0, 200) : subject,
    text,
    html,
    messageId: `<inquiry-${copy ? 'copy-' : ''}${row.id}@${options.domain ?? 'exp-ecuador.local'}>`,
    headers: { 'X-Inquiry-Id': row.id, 'Auto-Submitted': 'auto-generated' },
  };
}

/** The outbox's composers for mails of kind 'inquiry' and 'inquiry-copy' (ref: the inquiry's id). */
export function inquiryComposers(options: InquiryMailOptions): Record<'inquiry' | 'inquiry-copy', Composer> {
  const composer =
    (copy: boolean): Composer =>
    async (sql, mail) => {
      const row = await loadInquiryForMail(sql, mail.ref_id);
      return row && (!copy || row.copy_recipient) ? composeInquiryMail(row, options, copy) : null;
    };
  return { inquiry: composer(false), 'inquiry-copy': composer(true) };
}
