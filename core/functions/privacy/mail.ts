/**
 * The privacy mails (docs/privacy.md), composed when sent:
 *  - 'privacy-link' (ref: the request): the single-use link to her data, to the address that asked,
 *    in her language; its token made here and kept hashed (./store.ts), so the database never holds
 *    a link that works. Dropped when the request is no longer open (erased meanwhile).
 *  - 'privacy-erased' (ref: the request and the recipient): to the agent whose leads were erased and
 *    to the team, in both languages: how many leads, searches and mails, and no word of who.
 * Texts from the locale files (`mail.privacy`); everything from the data is escaped in the HTML.
 */
import { escapeHtml } from '../../protocol/html.ts';
import { localizedPath } from '../../routes.ts';
import { button, heading, ourMail, page, site, translator, type AlertMailOptions } from '../alerts/mail.ts';
import { mailTexts } from '../outbox/bilingual.ts';
import { oneLine } from '../outbox/mail-header.ts';
import type { Composer } from '../outbox/worker.ts';
import { issuePrivacyToken, LINK_HOURS, openRequest } from './store.ts';

function linkComposer(options: AlertMailOptions): Composer {
  return async (sql, mail) => {
    const request = await openRequest(sql, mail.ref_id);
    if (!request) return null;
    const t = translator(options, request.lang);
    const token = await issuePrivacyToken(sql, request.id, 'open');
    const link = `${site(options)}${localizedPath('/privacy/my-data', request.lang)}?token=${token}`;
    const subject = oneLine(t('mail.privacy.link.subject'));
    const text = [
      t('mail.privacy.link.intro'),
      '',
      `${t('mail.privacy.link.button')}: ${link}`,
      '',
      t('mail.privacy.link.expires', { hours: LINK_HOURS }),
      t('mail.privacy.link.notYou'),
    ].join('\n');
    const html = page(
      request.lang,
      subject,
      `${heading(t('mail.privacy.link.heading'))}
<p style="margin:0 0 20px">${escapeHtml(t('mail.privacy.link.intro'))}</p>
<p style="margin:0 0 20px">${button(link, t('mail.privacy.link.button'))}</p>
<p style="margin:0;color:#475569;font-size:14px">${escapeHtml(t('mail.privacy.link.expires', { hours: LINK_HOURS }))}</p>`,
      escapeHtml(t('mail.privacy.link.notYou')),
    );
    return ourMail(options, `privacy-link-${mail.ref_id.replace(/\W/g, '-')}`, {
      to: request.email,
      subject,
      text,
      html,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  };
}

function erasedComposer(options: AlertMailOptions): Composer {
  return async (_sql, mail) => {
    const { both } = mailTexts(options.texts);
    const counts = mail.payload as { inquiries?: number; saved_searches?: number; mails?: number };
    const lines = [
      both('mail.privacy.erased.intro'),
      '',
      `${both('mail.privacy.erased.leads')}: ${counts.inquiries ?? 0}`,
      `${both('mail.privacy.erased.searches')}: ${counts.saved_searches ?? 0}`,
      `${both('mail.privacy.erased.mails')}: ${counts.mails ?? 0}`,
      '',
      both('mail.privacy.erased.what'),
    ];
    const subject = oneLine(both('mail.privacy.erased.subject'));
    const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">${lines.map((l) => (l ? `<p style="margin:0 0 8px">${escapeHtml(l)}</p>` : '')).join('')}</body></html>`;
    return ourMail(options, `privacy-erased-${mail.ref_id.replace(/\W/g, '-')}`, {
      to: mail.recipient,
      subject,
      text: lines.join('\n'),
      html,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  };
}

export function privacyComposers(options: AlertMailOptions): Record<'privacy-link' | 'privacy-erased', Composer> {
  return { 'privacy-link': linkComposer(options), 'privacy-erased': erasedComposer(options) };
}
