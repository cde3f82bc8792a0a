/**
 * How /rest/v1 answers (PostgREST's response rules), compressed by Accept-Encoding as a hosted
 * project's gateway does: CORS as Supabase sends it, errors as
 * {code, message, details, hint}, and a read's status and headers from what it found: 200, 206
 * for part of a counted result, 416 past its end, Content-Range, the single-object media type.
 */
import type { ServerResponse } from 'node:http';
import { ANY_ORIGIN } from '../../../core/functions/cors.ts';
import { DatabaseUnavailableError } from '../../db/database.ts';
import { sendCompressed } from '../../http/compress.ts';
import { DeadlineError, OverShareError } from '../../http/request-context.ts';
import {
  ApiError,
  databaseUnavailable,
  fromPostgres,
  notSingle,
  poolTimeout,
  rangeNotSatisfiable,
  tooManyRequests,
} from './errors.ts';
import type { ApiRequest } from './request.ts';

const CORS_HEADERS = {
  ...ANY_ORIGIN,
  'Access-Control-Expose-Headers':
    'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit, Preference-Applied, Retry-After',
};

/**
 * The headers a preflight may ask for: any the browser names, as PostgREST's CORS middleware and
 * Supabase's gateway both answer (they echo Access-Control-Request-Headers), so a header a newer
 * client adds (postgrest-js's X-Retry-Count on a retry after 503) passes here as it passes there.
 * Only well-formed header names are echoed, at most 64 of them; the base list answers a preflight
 * that names none. See docs/data-api.md.
 */
const BASE_ALLOWED_HEADERS = [
  'apikey',
  'authorization',
  'x-client-info',
  'accept-profile',
  'content-profile',
  'prefer',
  'content-type',
  'range',
  'range-unit',
  'accept',
  'x-supabase-api-version',
  'x-region',
  'x-retry-count',
];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,64}$/;

function allowedHeaders(requested: string | undefined): string {
  const asked = (requested ?? '')
    .toLowerCase()
    .split(',')
    .map((h) => h.trim())
    .filter((h) => HEADER_NAME.test(h))
    .slice(0, 64);
  return [...new Set([...BASE_ALLOWED_HEADERS, ...asked])].join(', ');
}

export function preflight(res: ServerResponse, methods: string, requestedHeaders?: string): void {
  res.writeHead(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': methods,
    'Access-Control-Allow-Headers': allowedHeaders(requestedHeaders),
    'Access-Control-Max-Age': '86400',
    Vary: 'Origin',
  });
  res.end();
}

export function sendError(res: ServerResponse, error: ApiError, extra: Record<string, string> = {}): void {
  sendCompressed(
    res,
    error.status,
    { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...extra },
    JSON.stringify(error),
  );
}

/** Turns anything thrown while answering into PostgREST's error JSON (never SQL or a stack). */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof OverShareError) return tooManyRequests(error.retryAfterSeconds);
  if (error instanceof DeadlineError)
    return error.phase === 'waiting' ? poolTimeout() : fromPostgres({ code: '57014' });
  if (error instanceof DatabaseUnavailableError) return databaseUnavailable();
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
    return fromPostgres(e as { code: string; message?: string });
  console.error('[rest] unexpected error:', error);
  return new ApiError(500, 'PGRST000', 'The server could not answer this request', null, null);
}

/** Any error, answered; what time may mend (the database away, busy, a client over its share, a statement stopped at its time limit) says when to try again. */
export function sendFailure(res: ServerResponse, error: unknown): void {
  const api = toApiError(error);
  const retryAfter =
    error instanceof OverShareError
      ? error.retryAfterSeconds
      : api.status === 503 || api.status === 504 || api.code === '57014'
        ? 5
        : undefined;
  sendError(res, api, retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
}

export function sendJson(res: ServerResponse, head: boolean, body: string): void {
  sendCompressed(res, 200, { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8' }, body, head);
}

/** What a read found: how many rows the body holds, the count when asked, the body (a JSON array). */
export interface ReadResult {
  rows: number;
  total: number | undefined;
  body: string;
}

export function sendRead(
  res: ServerResponse,
  request: Extract<ApiRequest, { kind: 'read' | 'rpc' }>,
  result: ReadResult,
): void {
  const { range, media } = request;
  const { rows, total } = result;
  let body = result.body;
  let status = 200;
  if (total !== undefined) {
    if (range.lower > total)
      return sendError(
        res,
        rangeNotSatisfiable(`An offset of ${range.lower} was requested, but there are only ${total} rows.`),
        {
          'Content-Range': `*/${total}`,
        },
      );
    if (rows < total) status = 206;
  }
  const contentRange = `${total !== 0 && rows > 0 ? `${range.lower}-${range.lower + rows - 1}` : '*'}/${total ?? '*'}`;
  if (media === 'object') {
    if (rows !== 1) throw notSingle(rows);
    body = body.slice(1, -1);
    status = 200;
  }
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Content-Type':
      media === 'object' ? 'application/vnd.pgrst.object+json; charset=utf-8' : 'application/json; charset=utf-8',
    'Content-Range': contentRange,
    'Range-Unit': 'items',
  };
  if (request.count) headers['Preference-Applied'] = 'count=exact';
  sendCompressed(res, status, headers, body, request.head);
}
