/**
 * The sign-in code's mail (server/stand-in/auth/handler.ts; docs/agent-area.md "Signing in"): the six
 * digits, what they are for, how long they last, and what to do if she did not ask. Spanish and
 * English both, Spanish first: the address is an agent's, and we do not know which she reads.
 */
import { escapeHtml } from '../../../core/protocol/html.ts';
import { ourMail, page, translator, type AlertMailOptions } from '../../../core/functions/alerts/mail.ts';
import type { Composer } from '../../../core/functions/outbox/worker.ts';
import { AUTH_LIMITS } from './handler.ts';

export function signInComposer(options: AlertMailOptions): Composer {
  return async (_sql, mail) => {
    const code = String(mail.payload.code ?? '');
    if (!/^\d{6}$/.test(code)) return null;
    const [es, en] = [translator(options, 'es'), translator(options, 'en')];
    const minutes = AUTH_LIMITS.codeMinutes;
    const subject = `${es('agentArea.mail.subject', { code })} · ${en('agentArea.mail.subject', { code })}`;
    const lines = (t: typeof es) => [
      t('agentArea.mail.intro'),
      code,
      t('agentArea.mail.expires', { minutes }),
      t('agentArea.mail.notYou'),
    ];
    const text = [...lines(es), '', ...lines(en)].join('\n\n');
    const block = (t: typeof es, lang: string) =>
      `<div lang="${lang}"><p>${escapeHtml(t('agentArea.mail.intro'))}</p>` +
      `<p style="font-size:32px;font-weight:bold;letter-spacing:8px;margin:16px 0">${code}</p>` +
      `<p>${escapeHtml(t('agentArea.mail.expires', { minutes }))}</p><p style="color:#64748b">${escapeHtml(t('agentArea.mail.notYou'))}</p></div>`;
    return ourMail(options, `sign-in-${mail.ref_id}`, {
      to: mail.recipient,
      subject,
      text,
      html: page(
        'es',
        subject,
        `${block(es, 'es')}<hr style="border:0;border-top:1px solid #e2e8f0;margin:24px 0">${block(en, 'en')}`,
        escapeHtml(es('agentArea.mail.footer')),
      ),
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  };
}
