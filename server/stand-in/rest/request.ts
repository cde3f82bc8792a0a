/**
 * What a /rest/v1 request asks for, read from the HTTP request alone (PostgREST's ApiRequest):
 * the relation, the query, the range, the media type and the count preference. Everything here is
 * checked and refused with PostgREST's errors before any SQL exists.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError, methodNotAllowed, rangeNotSatisfiable, tableNotFound } from './errors.ts';
import { parseReadQuery, type ReadQuery } from './parse.ts';
import { readRpcCall, type RpcCall } from './rpc.ts';
import { closestName, type Relation, type Schema } from './schema.ts';

/** At most this many rows per response, whatever the request asks. */
/** At most this many rows per answer, as PostgREST's db-max-rows (Supabase's "Max Rows", 1000 by default); DB_MAX_ROWS changes it. */
export const MAX_ROWS = 1000;

export type Media = 'array' | 'object';

export interface Range {
  lower: number;
  /** inclusive; Infinity when open */
  upper: number;
}

export type ApiRequest =
  | { kind: 'root'; head: boolean; relations: string[] }
  | {
      kind: 'read';
      head: boolean;
      relation: Relation;
      query: ReadQuery;
      range: Range;
      limit: number;
      media: Media;
      count: boolean;
    }
  | {
      kind: 'rpc';
      head: boolean;
      call: RpcCall;
      query: ReadQuery;
      range: Range;
      limit: number;
      media: Media;
      count: boolean;
    };

function negotiate(accept: string | undefined): Media {
  if (!accept || accept.trim() === '') return 'array';
  const types = accept.split(',').map((t) => t.split(';')[0]?.trim().toLowerCase() ?? '');
  if (types.includes('application/vnd.pgrst.object+json') || types.includes('application/vnd.pgrst.object'))
    return 'object';
  if (
    types.some(
      (t) =>
        t === 'application/json' || t === '*/*' || t === 'application/*' || t === 'application/vnd.pgrst.array+json',
    )
  )
    return 'array';
  throw new ApiError(406, 'PGRST107', `None of these media types are available: ${types.join(', ')}`);
}

function requestedRange(header: string | undefined, limit: number | undefined, offset: number | undefined): Range {
  let lower = 0;
  let upper = Infinity;
  if (header) {
    const m = /^(?:items=)?\s*(\d{1,15})-(\d{0,15})\s*$/.exec(header);
    if (m) {
      lower = Number(m[1]);
      if (m[2]) upper = Number(m[2]);
      if (upper < lower)
        throw rangeNotSatisfiable(
          'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
        );
    }
  }
  if (offset !== undefined) lower = Math.max(lower, offset);
  if (limit !== undefined) upper = Math.min(upper, (offset ?? lower) + limit - 1);
  return { lower, upper };
}

/** PostgREST reads a Range header on GET alone (RFC 9110); a HEAD's or a POST's is ignored, only limit and offset shape those (docs/data-api.md). */
function rangeHeader(method: string, req: IncomingMessage): string | undefined {
  return method === 'GET' ? req.headers.range : undefined;
}

function wantsCount(prefer: string | string[] | undefined): boolean {
  return /(^|[,;\s])count=(exact|planned|estimated)\b/i.test([prefer ?? ''].flat().join(','));
}

/** The relation named by the path ('listings' in /rest/v1/listings), from the schema cache only. */
function relationOf(path: string, schema: Schema): Relation {
  if (path.includes('/')) throw new ApiError(404, 'PGRST125', 'Invalid path specified in request URL');
  let name: string;
  try {
    name = decodeURIComponent(path);
  } catch {
    throw new ApiError(404, 'PGRST125', 'Invalid path specified in request URL');
  }
  const relation = schema.get(name);
  if (relation) return relation;
  const near = closestName(name, schema.keys());
  throw tableNotFound(name, near ? `Perhaps you meant the table 'public.${near}'` : null);
}

/**
 * Reads a GET or HEAD of /rest/v1/... (and a POST of /rest/v1/rpc/...); throws the ApiError
 * PostgREST would answer. The schema cache is asked for only once the method and profile are
 * known to be right.
 */
export async function readApiRequest(
  req: IncomingMessage,
  url: URL,
  schema: () => Promise<Schema>,
  maxRows = MAX_ROWS,
  signedIn = false,
): Promise<ApiRequest> {
  const method = req.method ?? 'GET';
  const path = url.pathname.replace(/^\/rest\/v1\/?/, '');
  const rpc = path.startsWith('rpc/');
  if (method !== 'GET' && method !== 'HEAD' && !(rpc && method === 'POST')) throw methodNotAllowed(method);
  const profile =
    req.headers[method === 'POST' ? 'content-profile' : 'accept-profile'] ?? req.headers['accept-profile'];
  if (profile && String(profile) !== 'public')
    throw new ApiError(406, 'PGRST106', 'The schema must be one of the following: public');
  const head = method === 'HEAD';
  if (rpc) {
    const call = await readRpcCall(req, url, path.slice(4), await schema(), signedIn);
    const media = negotiate(req.headers.accept);
    const range = requestedRange(rangeHeader(method, req), call.query.limit, call.query.offset);
    const span = range.upper === Infinity ? Infinity : range.upper - range.lower + 1;
    return {
      kind: 'rpc',
      head,
      call,
      query: call.query,
      range,
      limit: Math.max(0, Math.min(span, maxRows)),
      media,
      count: wantsCount(req.headers.prefer),
    };
  }
  if (path === '') return { kind: 'root', head, relations: [...(await schema()).keys()].sort() };
  const relation = relationOf(path, await schema());
  const media = negotiate(req.headers.accept);
  const query = parseReadQuery(url.searchParams);
  const range = requestedRange(rangeHeader(method, req), query.limit, query.offset);
  const span = range.upper === Infinity ? Infinity : range.upper - range.lower + 1;
  return {
    kind: 'read',
    head,
    relation,
    query,
    range,
    limit: Math.max(0, Math.min(span, maxRows)),
    media,
    count: wantsCount(req.headers.prefer),
  };
}
