/**
 * The pages the mails' links open: the alert mails' (docs/decisions.md #23: /alerts/confirm,
 * /alerts/unsubscribe, /alerts/manage) through the saved-searches function, and the visit mails'
 * (docs/visits.md: /visits/confirm, /visits/propose, /visits/cancel, /visits/reschedule) through
 * the visits function; under /es too. GET shows what the link will do; POST acts (mail scanners
 * open links, and must not confirm or unsubscribe anyone), through the function as any client
 * calls it, ours or a hosted project's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { splitLangPath } from '../../core/routes.ts';
import { readBody } from '../http/body.ts';
import { alertPageGet, alertPagePost, message, type AlertPageKind } from './alerts-page.tsx';
import {
  unavailable as visitUnavailable,
  VISIT_PAGES,
  visitPageGet,
  visitPagePost,
  type VisitPageKind,
} from './visit-pages.tsx';
import { myDataGet, myDataPost, myDataUnavailable } from './privacy-pages.tsx';
import { consentGet, consentPost } from './consent-page.tsx';
import { requestContext } from '../http/request-context.ts';
import type { PageKit } from './page-kit.ts';
import { send } from './send.ts';

/** The plain fields of a multipart/form-data body (RFC 8058 lets a one-click POST be either kind). */
function multipartFields(text: string): string {
  const out = new URLSearchParams();
  for (const m of text.matchAll(/name="([^"]{1,100})"\r?\n\r?\n([^\r\n]{0,1000})/g))
    out.append(m[1] as string, m[2] as string);
  return out.toString();
}

type Ctx = Parameters<typeof alertPageGet>[1];
type Call = (body: Record<string, unknown>) => Promise<{ status: number; body: Record<string, unknown> }>;
type Page = { status: number; body: string; download?: { filename: string; json: string } };

/** One family of link pages: its paths, its function, and how it answers a GET and a POST. */
interface LinkPages {
  match: RegExp;
  fn: string;
  /** the site page they are shown in */
  shell: string;
  get(kind: string, ctx: Ctx, call: Call): Promise<Page>;
  post(kind: string, ctx: Ctx, fields: URLSearchParams, call: Call): Promise<Page>;
  unavailable(ctx: Ctx): Page;
}

const FAMILIES: LinkPages[] = [
  {
    match: /^\/alerts\/(confirm|unsubscribe|manage)$/,
    fn: 'saved-searches',
    shell: 'alerts.html',
    get: (kind, ctx, call) => alertPageGet(kind as AlertPageKind, ctx, call as never),
    post: (kind, ctx, fields, call) => alertPagePost(kind as AlertPageKind, ctx, fields, call as never),
    unavailable: (ctx) => message(ctx, 'unavailable', 503),
  },
  {
    match: new RegExp(`^/visits/(${VISIT_PAGES.join('|')})$`),
    fn: 'visits',
    shell: 'visits.html',
    get: (kind, ctx, call) => visitPageGet(kind as VisitPageKind, ctx, call as never),
    post: (kind, ctx, fields, call) => visitPagePost(kind as VisitPageKind, ctx, fields, call as never),
    unavailable: (ctx) => visitUnavailable(ctx),
  },
  {
    // her data on request, and a consent's withdrawal link (docs/privacy.md): /privacy/my-data,
    // /privacy/consent, /es/privacidad/mis-datos, /es/privacidad/consentimiento
    match: /^\/privacy\/(my-data|consent)$/,
    fn: 'privacy',
    shell: 'my-data.html',
    get: (kind, ctx, call) => (kind === 'consent' ? consentGet(ctx, call) : myDataGet(ctx)),
    post: (kind, ctx, fields, call) => (kind === 'consent' ? consentPost(ctx, call) : myDataPost(ctx, fields, call)),
    unavailable: (ctx) => myDataUnavailable(ctx),
  },
];

export function createLinkPages(kit: PageKit) {
  const { options, siteTexts, html } = kit;

  /**
   * A function, as any client calls it (ours, or a hosted project's); to our own, the call names the
   * visitor it relays (with the server's token), whose limits it is.
   */
  const caller =
    (fn: string, client: string): Call =>
    async (body) => {
      const api = options.api();
      const relayed: Record<string, string> = api.internalToken
        ? { 'X-Exp-Internal': api.internalToken, 'X-Exp-Client': client }
        : {};
      const response = await fetch(`${api.url}/functions/v1/${fn}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          apikey: api.key,
          Authorization: `Bearer ${api.key}`,
          ...relayed,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
    };

  /** Answers a mail link's page; false when the address is not one. */
  return async function linkPage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const { lang, path } = splitLangPath(url.pathname);
    let family: LinkPages | undefined;
    let kind = '';
    for (const f of FAMILIES) {
      const m = f.match.exec(path);
      if (m) [family, kind] = [f, m[1] as string];
    }
    if (!family) return false;
    const method = req.method ?? 'GET';
    const ctx = { t: siteTexts().t(lang), lang, token: url.searchParams.get('token') ?? '' };
    const call = caller(family.fn, requestContext(req)?.client ?? 'server');
    let page: Page;
    if (method === 'POST') {
      const raw = await readBody(req, 4096);
      const fields = new URLSearchParams(
        raw === 'too-large'
          ? ''
          : /multipart\/form-data/i.test(String(req.headers['content-type']))
            ? multipartFields(raw.toString('utf8'))
            : raw.toString('utf8'),
      );
      page = await family.post(kind, ctx, fields, call).catch(() => ({ status: 503, body: '' }));
    } else if (method === 'GET' || method === 'HEAD') {
      page = await family.get(kind, ctx, call).catch(() => ({ status: 503, body: '' }));
    } else {
      res
        .writeHead(405, { Allow: 'GET, HEAD, POST', 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Method not allowed');
      return true;
    }
    if (page.status === 503 && !page.body) page = family.unavailable(ctx);
    if (page.download) {
      res
        .writeHead(200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Disposition': `attachment; filename="${page.download.filename}"`,
          'Cache-Control': 'no-store',
        })
        .end(page.download.json);
      return true;
    }
    send(
      req,
      res,
      {
        status: page.status,
        type: 'text/html',
        body: html(family.shell, url.pathname, lang, { robots: 'noindex' }, page.body),
        headers: { 'Cache-Control': 'no-store', ...(page.status === 503 ? { 'Retry-After': '10' } : {}) },
      },
      options.csp?.(),
    );
    return true;
  };
}
