/**
 * Mail handed to a mail provider's HTTP API (MAIL_API_URL and MAIL_API_KEY), for our server and
 * the deployed functions alike: what a hosted function can send with, since Supabase's edge
 * functions may not open connections to ports 25 and 587 (docs/deployment.md "The functions").
 *
 * The request is Resend's (`POST /emails` with a bearer key and `{ from, to, subject, html, text,
 * reply_to, headers, attachments }`), which other providers' APIs accept or mirror; its `Idempotency-Key` is the
 * mail's own Message-ID, so a mail sent again after a crash (the outbox delivers at least once) is
 * not delivered twice by a provider that honours it. A 2xx is sent; a 408, 429 or 5xx, or no
 * answer, is a passing failure (retried with backoff); any other 4xx will not change by trying
 * again (a bad key, an address the provider refuses) and fails the mail for good.
 */
import type { Mailer, MailMessage } from './worker.ts';

const MAIL_API_TIMEOUT_MS = 30_000;

/** A refusal that trying again cannot change (the worker fails the mail for good). */
class PermanentMailError extends Error {
  readonly permanent = true;
}

/** http(s) to anywhere but plain http, which only a provider on this machine (a test's stand-in) may use. */
export function mailApiUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "MAIL_API_URL must be an https URL of the provider's send endpoint, such as https://api.resend.com/emails";
  }
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(u.hostname)) return undefined;
  return `MAIL_API_URL must be https (plain http only on this machine), not "${u.protocol}//${u.host}"`;
}

const base64 = (text: string) => {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
};

export function httpMailer(options: { url: string; key: string; fetch?: typeof fetch }): Mailer {
  const send = options.fetch ?? fetch;
  return {
    async send(message: MailMessage) {
      let res: Response;
      try {
        res = await send(options.url, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${options.key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': message.messageId.replace(/[<>]/g, '').slice(0, 256),
          },
          body: JSON.stringify({
            from: message.from,
            to: [message.to],
            subject: message.subject,
            html: message.html,
            text: message.text,
            ...(message.replyTo ? { reply_to: message.replyTo } : {}),
            // a visit's invitation: an attachment the provider sends as text/calendar
            ...(message.icalEvent
              ? {
                  attachments: [
                    {
                      filename: message.icalEvent.filename,
                      content: base64(message.icalEvent.content),
                      content_type: `text/calendar; charset=utf-8; method=${message.icalEvent.method}`,
                    },
                  ],
                }
              : {}),
            headers: { ...message.headers, 'Message-ID': message.messageId },
          }),
          signal: AbortSignal.timeout(MAIL_API_TIMEOUT_MS),
        });
      } catch (error) {
        throw new Error(`the mail API did not answer: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (res.ok) {
        await res.body?.cancel();
        return;
      }
      const detail = (await res.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 300);
      const text = `the mail API answered ${res.status}${detail ? `: ${detail}` : ''}`;
      if (res.status === 408 || res.status === 429 || res.status >= 500) throw new Error(text);
      throw new PermanentMailError(text);
    },
    /** answers when the provider does (any HTTP answer of its host), for the outbox's probe after an outage */
    async verify() {
      const res = await send(new URL(options.url).origin, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
      await res.body?.cancel();
      if (res.status >= 500) throw new Error(`the mail API answered ${res.status}`);
    },
  };
}
