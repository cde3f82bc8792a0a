/**
 * The pages the alert mails' links open (docs/decisions.md #23): /alerts/confirm,
 * /alerts/unsubscribe and /alerts/manage (and under /es). GET shows what the link will do; POST
 * acts (mail scanners open links, and must not confirm or unsubscribe anyone), through the
 * saved-searches function as any client calls it, ours or a hosted project's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { splitLangPath } from '../../core/routes.ts';
import { readBody } from '../http/body.ts';
import { alertPageGet, alertPagePost, message, type AlertPageKind, type CallFunction } from './alerts-page.tsx';
import type { PageKit } from './page-kit.ts';
import { send } from './send.ts';

/** The plain fields of a multipart/form-data body (RFC 8058 lets a one-click POST be either kind). */
export function multipartFields(text: string): string {
  const out = new URLSearchParams();
  for (const m of text.matchAll(/name="([^"]{1,100})"\r?\n\r?\n([^\r\n]{0,1000})/g)) out.append(m[1] as string, m[2] as string);
  return out.toString();
}

export function createAlertRoutes(kit: PageKit) {
  const { options, siteTexts, html } = kit;

  /** The saved-searches function, as any client calls it (ours, or a hosted project's). */
  const callAlerts: CallFunction = async (body) => {
    const api = options.api();
    const response = await fetch(`${api.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: api.key, Authorization: `Bearer ${api.key}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Awaited<ReturnType<CallFunction>>['body'] };
  };

  /** Answers an alert link's page; false when the address is not one. */
  return async function alerts(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const { lang, path } = splitLangPath(url.pathname);
    const kind = /^\/alerts\/(confirm|unsubscribe|manage)$/.exec(path)?.[1] as AlertPageKind | undefined;
    if (!kind) return false;
    const method = req.method ?? 'GET';
    const ctx = { t: siteTexts().t(lang), lang, token: url.searchParams.get('token') ?? '' };
    let page;
    if (method === 'POST') {
      const raw = await readBody(req, 4096);
      const fields = new URLSearchParams(raw === 'too-large' ? '' : /multipart\/form-data/i.test(String(req.headers['content-type'])) ? multipartFields(raw.toString('utf8')) : raw.toString('utf8'));
      page = await alertPagePost(kind, ctx, fields, callAlerts).catch(() => ({ status: 503, body: '' }));
    } else if (method === 'GET' || method === 'HEAD') {
      page = await alertPageGet(kind, ctx, callAlerts).catch(() => ({ status: 503, body: '' }));
    } else {
      res.writeHead(405, { Allow: 'GET, HEAD, POST', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed');
      return true;
    }
    if (page.status === 503 && !page.body) page = message(ctx, 'unavailable', 503);
    send(
      req,
      res,
      {
        status: page.status,
        type: 'text/html',
        body: html('alerts.html', url.pathname, lang, { robots: 'noindex' }, page.body),
        headers: { 'Cache-Control': 'no-store', ...(page.status === 503 ? { 'Retry-After': '10' } : {}) },
      },
      options.csp?.(),
    );
    return true;
  };
}
