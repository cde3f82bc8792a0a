/**
 * How a page's answer leaves the server: security headers on HTML, an ETag and 304s, compression
 * by Accept-Encoding, and redirects that can only ever name a path on our own origin
 * (docs/decisions.md #24: a `Location` is built from the one cleaned form of a path).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameOriginPath } from '../../core/routes.ts';
import { chooseEncoding, codedEtag, ifNoneMatchHits, sendCompressed } from '../http/compress.ts';
import { pagePolicy, type CspSources } from '../http/csp.ts';

export interface PageResponse {
  status: number;
  body: string | Buffer;
  type: string;
  headers?: Record<string, string>;
}

const SECURITY = {
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Permissions-Policy': 'geolocation=(), camera=(), microphone=()',
  'X-Content-Type-Options': 'nosniff',
};
/** browsers revalidate; a CDN keeps a page 5 minutes and serves it stale while it fetches it again */
export const PAGE_CACHE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400';
export const MISSING_CACHE = 'public, max-age=0, s-maxage=60';

/** A 301 to a path of ours: whatever `target` holds, the Location never leaves the origin. */
export function redirect(target: string, headers: Record<string, string> = {}): PageResponse {
  return { status: 301, type: 'text/plain', body: '', headers: { Location: sameOriginPath(target), ...headers } };
}

/** Sends a page's answer; an HTML page with its Content-Security-Policy (../http/csp.ts) when `csp` is given. */
export function send(req: IncomingMessage, res: ServerResponse, answer: PageResponse, csp?: CspSources): void {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  const html = answer.type === 'text/html';
  const headers: Record<string, string> = {
    'Content-Type':
      answer.type.startsWith('text/') || answer.type.endsWith('xml') ? `${answer.type}; charset=utf-8` : answer.type,
    ...(html ? SECURITY : {}),
    ...(html && csp
      ? {
          'Content-Security-Policy': pagePolicy(
            typeof answer.body === 'string' ? answer.body : body.toString('utf8'),
            csp,
          ),
        }
      : {}),
    ...answer.headers,
  };
  // only a page's 200 has an ETag (a 404's body is not hashed: made-up addresses cost no more)
  if (answer.status === 200) {
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    headers.ETag = etag;
    if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
      const coding = chooseEncoding(req.headers['accept-encoding'], headers['Content-Type'] ?? '', body.length);
      res.writeHead(304, { ...headers, ETag: codedEtag(etag, coding), Vary: 'Accept-Encoding' }).end();
      return;
    }
  }
  sendCompressed(res, answer.status, headers, body, req.method === 'HEAD');
}
