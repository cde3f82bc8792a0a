/**
 * The mails of a visit (docs/visits.md "The mails"), composed when sent from what the database
 * holds, with the links' tokens made here (kept hashed, ./store.ts):
 *  - the request, to the agent it went to (the inquiry's mail, ../inquiry/mail.ts, hands it here):
 *    one link per proposed time, "Confirm sábado 28 de noviembre, 10:00", each working until that
 *    time, and "Propose another time"; labelled in both languages, Spanish first, the times in
 *    Ecuador's time (the agents');
 *  - 'visit-confirmed' to the visitor, in their language and time zone (Ecuador's beside it when it
 *    differs), with the invitation (.ics, METHOD:REQUEST) and links to cancel or ask for another
 *    time; 'visit-confirmed-agent' to the agent, with the same invitation and a link to cancel;
 *  - 'visit-cancelled' and 'visit-cancelled-agent': the cancellation to both (.ics, METHOD:CANCEL);
 *  - 'visit-reminder': the visitor's, the day before, with the same links.
 * Everything from the data is escaped in the HTML.
 */
import { attributionLines } from '../outbox/attribution-lines.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { visitCalendar } from '../../protocol/ical.ts';
import { ECUADOR_TIME_ZONE, formatVisitTime } from '../../protocol/visit-time.ts';
import { ecuadorBeside } from '../../protocol/visits.ts';
import type { Lang } from '../../lang.ts';
import { listingPath, localizedPath } from '../../routes.ts';
import {
  button,
  domainOf,
  heading as mailHeading,
  page,
  site,
  translator,
  type AlertMailOptions,
  type T,
} from '../alerts/mail.ts';
import { oneLine, replyTo } from '../outbox/mail-header.ts';
import { mailTexts } from '../outbox/bilingual.ts';
import type { Composer, MailMessage } from '../outbox/worker.ts';
import type { InquiryMailRow } from '../inquiry/store.ts';
import { issueVisitToken, loadVisit, type VisitHolder, type VisitPurpose, type VisitRow } from './store.ts';
import { now as clockNow, nowDate } from '../../clock.ts';

const DAY = 86_400_000;

const table = (rows: Array<[string, string]>) =>
  `<table cellpadding="6" style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><th align="left" valign="top" style="color:#475569;font-weight:600">${escapeHtml(k)}</th><td>${/^https?:\/\//.test(v) ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>`;

const rowsOf = (rows: Array<[string, string | null | undefined]>) =>
  rows.filter((r): r is [string, string] => Boolean(r[1]));

/** A link's page: /visits/<purpose>?token=..., in the holder's language. */
async function linkTo(
  sql: Parameters<Composer>[0],
  options: AlertMailOptions,
  v: VisitRow,
  link: { purpose: VisitPurpose; holder: VisitHolder; choice?: number; expiresAt: Date | string },
  lang: Lang,
) {
  const token = await issueVisitToken(sql, v.id, link);
  return `${site(options)}${localizedPath(`/visits/${link.purpose}`, lang)}?token=${token}`;
}

const listingUrl = (options: AlertMailOptions, v: VisitRow, lang: Lang) =>
  `${site(options)}${listingPath(v.listing_id, v.title ?? '', lang)}`;

/** "video call" / "in person", in a language. */
const modeText = (v: VisitRow, t: T) => t(`visits.mode.${v.mode}`);

/** The visit's place as the invitation and the mails give it: the agent's words, else the listing's address (in person) or "video call". */
function placeOf(v: VisitRow, t: T): string {
  if (v.location) return v.location;
  return v.mode === 'video' ? t('visits.mode.video') : [v.address, v.city].filter(Boolean).join(', ');
}

/** A time in the visitor's zone, with Ecuador's beside it when the clocks differ. */
function visitorTime(at: string, lang: Lang, timeZone: string, t: T): string {
  const own = formatVisitTime(at, lang, timeZone);
  const ecuador = ecuadorBeside(at, lang, timeZone);
  return ecuador ? `${own} (${t('visits.ecuadorTime', { time: ecuador })})` : own;
}

/** A request's mode and times, labelled in both languages (the times in Ecuador's). */
export function visitLines(v: VisitRow, options: AlertMailOptions): Array<[string, string]> {
  const { es, en, both } = mailTexts(options.texts);
  return [
    [both('mail.visit.mode'), `${es(`visits.mode.${v.mode}`)} / ${en(`visits.mode.${v.mode}`)}`],
    [both('mail.visit.times'), v.proposed.map((at) => formatVisitTime(at, 'es', ECUADOR_TIME_ZONE)).join(' · ')],
  ];
}

/** The request, to the agent: one link per time to confirm it, one to propose another. */
export async function composeVisitRequestMail(
  sql: Parameters<Composer>[0],
  row: InquiryMailRow,
  v: VisitRow,
  options: AlertMailOptions,
): Promise<MailMessage> {
  const { es, both } = mailTexts(options.texts);
  const title = oneLine(v.title ?? '');
  const when = (at: string) => formatVisitTime(at, 'es', ECUADOR_TIME_ZONE);
  const confirms: Array<[string, string]> = [];
  for (const [i, at] of v.proposed.entries()) {
    if (new Date(at).getTime() <= clockNow()) continue;
    confirms.push([
      `${es('mail.visit.confirm')} ${when(at)}`,
      await linkTo(sql, options, v, { purpose: 'confirm', holder: 'agent', choice: i + 1, expiresAt: at }, 'es'),
    ]);
  }
  const propose = await linkTo(
    sql,
    options,
    v,
    { purpose: 'propose', holder: 'agent', expiresAt: new Date(new Date(v.created_at).getTime() + 14 * DAY) },
    'es',
  );
  const lines = rowsOf([
    [both('mail.inquiry.property'), title],
    [both('mail.inquiry.address'), [v.address, v.city].filter(Boolean).join(', ')],
    [both('mail.inquiry.link'), listingUrl(options, v, 'es')],
    ...visitLines(v, options),
    [both('mail.inquiry.name'), v.name],
    [both('mail.inquiry.email'), v.email],
    [both('mail.inquiry.phone'), v.phone],
    [both('mail.inquiry.language'), es(`language.${v.lang}`)],
    [both('mail.visit.timeZone'), v.time_zone],
    ...attributionLines({ origin: row.origin, page: row.page_url, element: row.element, utm: row.utm }, both),
  ]);
  const intro = both(`mail.visit.request.intro.${v.mode}`, { name: oneLine(v.name) });
  const subject = `${both('mail.visit.request.subject')}: ${title}`.slice(0, 200);
  const text = [
    row.recipient_name ? es('mail.inquiry.greetingNamed', { name: row.recipient_name }) : es('mail.inquiry.greeting'),
    '',
    intro,
    '',
    ...confirms.map(([label, href]) => `${label}: ${href}`),
    `${both('mail.visit.propose')}: ${propose}`,
    '',
    ...lines.map(([k, val]) => `${k}: ${val}`),
    '',
    `${both('mail.inquiry.message')}:`,
    v.message?.trim() || '—',
    '',
    both('mail.visit.request.links'),
    both('mail.inquiry.reply'),
  ].join('\n');
  const content = `<p>${escapeHtml(intro)}</p>
${confirms.map(([label, href]) => `<p style="margin:8px 0">${button(href, label)}</p>`).join('\n')}
<p style="margin:8px 0 20px"><a href="${escapeHtml(propose)}" style="color:#1d4ed8;font-weight:bold">${escapeHtml(both('mail.visit.propose'))}</a></p>
${table(lines)}
<p style="color:#475569;font-weight:600;margin-bottom:4px">${escapeHtml(both('mail.inquiry.message'))}</p>
<p style="white-space:pre-wrap;margin-top:0">${escapeHtml(v.message?.trim() || '—')}</p>`;
  return {
    from: options.from,
    to: row.recipient_email,
    replyTo: replyTo(v.name, v.email),
    subject,
    text,
    html: page(
      'es',
      subject,
      content,
      `${escapeHtml(both('mail.visit.request.links'))}<br>${escapeHtml(both('mail.inquiry.reply'))}`,
    ),
    messageId: `<visit-request-${v.id}@${domainOf(options)}>`,
    headers: { 'X-Inquiry-Id': row.id, 'X-Visit-Id': v.id, 'Auto-Submitted': 'auto-generated' },
  };
}

/** The invitation of a visit (or its cancellation), as a calendar reads it. */
function invitation(
  v: VisitRow,
  options: AlertMailOptions,
  method: 'REQUEST' | 'CANCEL',
  t: T,
  lang: Lang,
): NonNullable<MailMessage['icalEvent']> {
  const agentName = v.agent_name ?? t('visits.team');
  const content = visitCalendar({
    method,
    uid: `visit-${v.id}@${domainOf(options)}`,
    sequence: v.visit_sequence ?? 0,
    start: new Date(String(v.visit_start)),
    end: new Date(String(v.visit_end)),
    stamp: nowDate(),
    summary: t('mail.visit.summary', { title: oneLine(v.title ?? ''), mode: modeText(v, t) }),
    description: [t('mail.visit.withAgent', { agent: agentName }), listingUrl(options, v, lang)].join('\n'),
    location: placeOf(v, t),
    url: listingUrl(options, v, lang),
    organizer: { name: agentName, email: v.recipient_email },
    attendee: { name: v.name, email: v.email },
  });
  return { method, filename: method === 'CANCEL' ? 'cancelled.ics' : 'invite.ics', content };
}

type Kind = 'confirmed' | 'cancelled' | 'reminder';

/** The visitor's mails (their language and time zone). */
function visitorComposer(options: AlertMailOptions, kind: Kind): Composer {
  return async (sql, mail) => {
    const v = await loadVisit(sql, mail.ref_id);
    if (!v?.visit_start || !v.visit_end) return null;
    // a reminder or a confirmation of a visit cancelled meanwhile is no longer wanted
    if (kind !== 'cancelled' && v.visit_status !== 'confirmed') return null;
    if (kind === 'reminder' && new Date(v.visit_start).getTime() <= clockNow()) return null;
    const lang: Lang = v.lang === 'es' ? 'es' : 'en';
    const t = translator(options, lang);
    const title = oneLine(v.title ?? '');
    const lines = rowsOf([
      [t('mail.visit.when'), visitorTime(v.visit_start, lang, v.time_zone, t)],
      [t('mail.visit.mode'), modeText(v, t)],
      [t(v.mode === 'video' ? 'mail.visit.link' : 'mail.visit.where'), placeOf(v, t)],
      [
        t('mail.visit.agent'),
        [v.agent_name ?? t('visits.team'), v.recipient_email, v.agent_phone].filter(Boolean).join(' · '),
      ],
      [t('mail.inquiry.property'), title],
      [t('mail.inquiry.link'), listingUrl(options, v, lang)],
    ]);
    const links: Array<[string, string]> = [];
    if (kind !== 'cancelled') {
      links.push([
        t('mail.visit.cancel'),
        await linkTo(sql, options, v, { purpose: 'cancel', holder: 'visitor', expiresAt: v.visit_start }, lang),
      ]);
      links.push([
        t('mail.visit.reschedule'),
        await linkTo(sql, options, v, { purpose: 'reschedule', holder: 'visitor', expiresAt: v.visit_start }, lang),
      ]);
    }
    const subject = oneLine(t(`mail.visit.${kind}.subject`, { title })).slice(0, 200);
    const heading = t(`mail.visit.${kind}.heading`);
    const note = t(`mail.visit.${kind}.note`);
    const text = [
      heading,
      '',
      ...lines.map(([k, val]) => `${k}: ${val}`),
      '',
      note,
      ...links.map(([label, href]) => `${label}: ${href}`),
    ].join('\n');
    const content = `${mailHeading(heading)}
${table(lines)}
<p style="color:#475569">${escapeHtml(note)}</p>
${links.map(([label, href]) => `<a href="${escapeHtml(href)}" style="color:#1d4ed8;font-weight:bold;margin-right:16px">${escapeHtml(label)}</a>`).join(' ')}`;
    return {
      from: options.from,
      to: v.email,
      subject,
      text,
      html: page(lang, subject, content, escapeHtml(t('mail.visit.footer'))),
      messageId: `<visit-${kind}-${v.id}-${v.visit_sequence ?? 0}@${domainOf(options)}>`,
      headers: { 'X-Visit-Id': v.id, 'Auto-Submitted': 'auto-generated' },
      ...(kind === 'reminder'
        ? {}
        : { icalEvent: invitation(v, options, kind === 'cancelled' ? 'CANCEL' : 'REQUEST', t, lang) }),
    };
  };
}

/** The agent's mails: in both languages, Spanish first, the time in Ecuador's. */
function agentComposer(options: AlertMailOptions, kind: 'confirmed' | 'cancelled'): Composer {
  return async (sql, mail) => {
    const v = await loadVisit(sql, mail.ref_id);
    if (!v?.visit_start || !v.visit_end) return null;
    if (kind === 'confirmed' && v.visit_status !== 'confirmed') return null;
    const { es, both } = mailTexts(options.texts);
    const t = translator(options, 'es');
    const title = oneLine(v.title ?? '');
    const lines = rowsOf([
      [both('mail.visit.when'), formatVisitTime(v.visit_start, 'es', ECUADOR_TIME_ZONE)],
      [both('mail.visit.mode'), modeText(v, t)],
      [both(v.mode === 'video' ? 'mail.visit.link' : 'mail.visit.where'), placeOf(v, t)],
      [both('mail.inquiry.property'), title],
      [both('mail.inquiry.link'), listingUrl(options, v, 'es')],
      [both('mail.inquiry.name'), v.name],
      [both('mail.inquiry.email'), v.email],
      [both('mail.inquiry.phone'), v.phone],
      [both('mail.inquiry.language'), es(`language.${v.lang}`)],
    ]);
    const cancel =
      kind === 'confirmed'
        ? await linkTo(sql, options, v, { purpose: 'cancel', holder: 'agent', expiresAt: v.visit_start }, 'es')
        : null;
    const subject = oneLine(`${both(`mail.visit.agentMail.${kind}`)}: ${title}`).slice(0, 200);
    const text = [
      both(`mail.visit.agentMail.${kind}`),
      '',
      ...lines.map(([k, val]) => `${k}: ${val}`),
      ...(cancel ? ['', `${both('mail.visit.cancel')}: ${cancel}`] : []),
    ].join('\n');
    const content = `${mailHeading(both(`mail.visit.agentMail.${kind}`))}
${table(lines)}
${cancel ? `<p><a href="${escapeHtml(cancel)}" style="color:#1d4ed8;font-weight:bold">${escapeHtml(both('mail.visit.cancel'))}</a></p>` : ''}`;
    return {
      from: options.from,
      to: v.recipient_email,
      replyTo: replyTo(v.name, v.email),
      subject,
      text,
      html: page('es', subject, content, escapeHtml(both('mail.visit.footer'))),
      messageId: `<visit-agent-${kind}-${v.id}-${v.visit_sequence ?? 0}@${domainOf(options)}>`,
      headers: { 'X-Visit-Id': v.id, 'Auto-Submitted': 'auto-generated' },
      icalEvent: invitation(v, options, kind === 'cancelled' ? 'CANCEL' : 'REQUEST', t, 'es'),
    };
  };
}

/** The outbox's composers of the visit mails (ref: the request's id). */
export function visitComposers(options: AlertMailOptions): Record<string, Composer> {
  return {
    'visit-confirmed': visitorComposer(options, 'confirmed'),
    'visit-cancelled': visitorComposer(options, 'cancelled'),
    'visit-reminder': visitorComposer(options, 'reminder'),
    'visit-confirmed-agent': agentComposer(options, 'confirmed'),
    'visit-cancelled-agent': agentComposer(options, 'cancelled'),
  };
}
