/**
 * /functions/v1/<name>: the local stand-in for Supabase Edge Functions. Each function is a
 * Fetch-style handler (Request -> Response), the same code the deployed Deno function runs.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, type ProxyTrust } from '../../../core/functions/client-address.ts';
import { ANY_ORIGIN, functionPreflightHeaders } from '../../../core/functions/cors.ts';
import { readBody } from '../../http/body.ts';
import { sendCompressed } from '../../http/compress.ts';

export type FunctionHandler = (request: Request, context: { clientAddress: string }) => Promise<Response>;

const MAX_BODY = 64 * 1024;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendCompressed(
    res,
    status,
    { 'Content-Type': 'application/json; charset=utf-8', ...ANY_ORIGIN, ...headers },
    JSON.stringify(body),
  );
}

/**
 * `internalToken`: this server's own token. A call of its pages that carries it (X-Exp-Internal) is
 * made for the visitor it names (X-Exp-Client), who is the client the function limits (a visitor
 * asking for her data on /privacy/my-data, not the server that relays the form).
 */
export function createFunctionsRouter(
  functions: Record<string, FunctionHandler>,
  options: { trustProxy: ProxyTrust; internalToken?: string },
) {
  const internal = options.internalToken ? Buffer.from(options.internalToken) : undefined;
  const relayedFor = (req: IncomingMessage): string | undefined => {
    const named = req.headers['x-exp-client'];
    const token = req.headers['x-exp-internal'];
    if (!internal || typeof named !== 'string' || typeof token !== 'string') return undefined;
    const given = Buffer.from(token);
    return given.length === internal.length && timingSafeEqual(given, internal) ? named.slice(0, 64) : undefined;
  };
  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const name = url.pathname.replace(/^\/functions\/v1\/?/, '').split('/')[0] ?? '';
    const fn = Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (!fn) {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, functionPreflightHeaders({ ...ANY_ORIGIN }));
        res.end();
        return;
      }
      json(res, 404, { error: 'Function not found', code: 'NOT_FOUND' });
      return;
    }
    const body =
      req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS'
        ? undefined
        : await readBody(req, MAX_BODY);
    if (body === 'too-large') {
      json(
        res,
        400,
        { error: 'too_large', message: `The request body is too large (at most ${MAX_BODY} bytes).` },
        { Connection: 'close' },
      );
      req.resume();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://localhost${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      body: body && body.length ? new Uint8Array(body) : undefined,
    });
    // the same rule as the deployed functions': only what our own proxies wrote counts (TRUST_PROXY)
    const response = await fn(request, {
      clientAddress:
        relayedFor(req) ??
        clientAddress((name) => request.headers.get(name), req.socket.remoteAddress, options.trustProxy),
    });
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    const payload = Buffer.from(await response.arrayBuffer());
    delete out['content-length'];
    sendCompressed(res, response.status, out, payload, req.method === 'HEAD');
  };
}
