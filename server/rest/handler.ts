/**
 * /rest/v1: a read-only PostgREST subset over our database, with PostgREST's status codes,
 * headers (Content-Range, 200/206/416) and error JSON, answered as the `anon` role.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANY_ORIGIN } from '../../supabase/functions/_shared/cors.ts';
import { DatabaseUnavailableError, type Database } from '../db/database.ts';
import { ApiError, databaseUnavailable, fromPostgres, methodNotAllowed, notSingle, rangeNotSatisfiable, schemaUnavailable, tableNotFound } from './errors.ts';
import { parseReadQuery } from './parse.ts';
import { closestName, loadSchema, type Schema } from './schema.ts';
import { buildCount, buildPage } from './sql.ts';

export const MAX_ROWS = 1000;

export const CORS_HEADERS = {
  ...ANY_ORIGIN,
  'Access-Control-Expose-Headers': 'Content-Range, Range-Unit, Content-Location, Preference-Applied, Retry-After',
};

const ALLOWED_HEADERS = 'apikey, authorization, x-client-info, accept-profile, content-profile, prefer, content-type, range, range-unit, accept, x-supabase-api-version, x-region';

export function preflight(res: ServerResponse, methods: string): void {
  res.writeHead(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': methods,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': '86400',
    Vary: 'Origin',
  });
  res.end();
}

export function sendError(res: ServerResponse, error: ApiError, extra: Record<string, string> = {}): void {
  const body = JSON.stringify(error);
  res.writeHead(error.status, { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

/** Turns anything thrown while answering into PostgREST's error JSON (never SQL or a stack). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DatabaseUnavailableError) return databaseUnavailable();
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return fromPostgres(e as { code: string; message?: string });
  console.error('[rest] unexpected error:', error);
  return new ApiError(500, 'PGRST000', 'The server could not answer this request', null, null);
}

type Media = 'array' | 'object';

function negotiate(accept: string | undefined): Media | ApiError {
  if (!accept || accept.trim() === '') return 'array';
  const types = accept.split(',').map((t) => t.split(';')[0]?.trim().toLowerCase() ?? '');
  if (types.includes('application/vnd.pgrst.object+json') || types.includes('application/vnd.pgrst.object')) return 'object';
  if (types.some((t) => t === 'application/json' || t === '*/*' || t === 'application/*' || t === 'application/vnd.pgrst.array+json')) return 'array';
  return new ApiError(406, 'PGRST107', `None of these media types are available: ${types.join(', ')}`);
}

interface Range {
  lower: number;
  /** inclusive; Infinity when open */
  upper: number;
}

function requestedRange(header: string | undefined, limit: number | undefined, offset: number | undefined): Range | ApiError {
  let lower = 0;
  let upper = Infinity;
  if (header) {
    const m = /^(?:items=)?\s*(\d{1,15})-(\d{0,15})\s*$/.exec(header);
    if (m) {
      lower = Number(m[1]);
      if (m[2]) upper = Number(m[2]);
      if (upper < lower) return rangeNotSatisfiable('The lower boundary must be lower than or equal to the upper boundary in the Range header.');
    }
  }
  if (offset !== undefined) lower = Math.max(lower, offset);
  if (limit !== undefined) upper = Math.min(upper, (offset ?? lower) + limit - 1);
  return { lower, upper };
}

function countPreference(prefer: string | undefined): boolean {
  return /(^|[,;\s])count=(exact|planned|estimated)\b/i.test(prefer ?? '');
}

export interface RestHandlerOptions {
  db: Database;
  /** the schema cache, when already loaded (else it is loaded on first use) */
  schema?: Schema;
}

export function createRestHandler(options: RestHandlerOptions) {
  let schema: Schema | undefined = options.schema;
  let loading: Promise<Schema> | undefined;
  const getSchema = async (): Promise<Schema> => {
    if (schema) return schema;
    loading ??= loadSchema(options.db.admin).finally(() => (loading = undefined));
    try {
      schema = await loading;
      return schema;
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw schemaUnavailable();
      throw error;
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return preflight(res, 'GET, HEAD, OPTIONS');
    const path = url.pathname.replace(/^\/rest\/v1\/?/, '');
    try {
      if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method);
      const profile = req.headers['accept-profile'];
      if (profile && String(profile) !== 'public') throw new ApiError(406, 'PGRST106', 'The schema must be one of the following: public');
      const relations = await getSchema();
      if (path === '') {
        const body = JSON.stringify({ name: 'exp-ecuador local data API', relations: [...relations.keys()].sort() });
        res.writeHead(200, { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
        res.end(method === 'HEAD' ? undefined : body);
        return;
      }
      if (path.startsWith('rpc/')) throw new ApiError(404, 'PGRST202', `Could not find the function public.${path.slice(4)} in the schema cache`);
      if (path.includes('/')) throw new ApiError(404, 'PGRST125', 'Invalid path specified in request URL');
      let name: string;
      try {
        name = decodeURIComponent(path);
      } catch {
        throw new ApiError(404, 'PGRST125', 'Invalid path specified in request URL');
      }
      const relation = relations.get(name);
      if (!relation) {
        const near = closestName(name, relations.keys());
        throw tableNotFound(name, near ? `Perhaps you meant the table 'public.${near}'` : null);
      }
      const media = negotiate(req.headers.accept);
      if (media instanceof ApiError) throw media;
      const query = parseReadQuery(url.searchParams);
      const range = requestedRange(req.headers.range, query.limit, query.offset);
      if (range instanceof ApiError) throw range;
      const wantCount = countPreference([req.headers.prefer ?? ''].flat().join(','));
      const span = range.upper === Infinity ? Infinity : range.upper - range.lower + 1;
      const limit = Math.max(0, Math.min(span, MAX_ROWS));

      const countAll = async () => {
        const built = buildCount(relation, query);
        const [row] = await options.db.anon.query<{ total: number | string }>(built.sql, built.params);
        return Number(row?.total ?? 0);
      };
      let total: number | undefined;
      let rows: number;
      let body = '[]';
      if (method === 'HEAD' && wantCount) {
        total = await countAll();
        rows = Math.max(0, Math.min(total - range.lower, limit));
      } else if (limit === 0) {
        if (wantCount) total = await countAll();
        rows = 0;
      } else {
        const built = buildPage(relation, query, { offset: range.lower, limit, count: wantCount });
        const [row] = await options.db.anon.query<{ total: number | string | null; n: number | string; body: string }>(built.sql, built.params);
        rows = Number(row?.n ?? 0);
        body = row?.body ?? '[]';
        if (wantCount) total = Number(row?.total ?? 0);
      }

      // PostgREST's rules: 416 when the offset is past the total, 206 when part of it is returned
      let status = 200;
      if (total !== undefined) {
        if (range.lower > total) {
          const error = rangeNotSatisfiable(`An offset of ${range.lower} was requested, but there are only ${total} rows.`);
          return sendError(res, error, { 'Content-Range': `*/${total}` });
        }
        if (rows < total) status = 206;
      }
      const upper = range.lower + rows - 1;
      const contentRange = `${total !== 0 && rows > 0 ? `${range.lower}-${upper}` : '*'}/${total ?? '*'}`;

      if (media === 'object') {
        if (rows !== 1) throw notSingle(rows);
        body = body.slice(1, -1);
        status = 200;
      }
      const headers: Record<string, string> = {
        ...CORS_HEADERS,
        'Content-Type': media === 'object' ? 'application/vnd.pgrst.object+json; charset=utf-8' : 'application/json; charset=utf-8',
        'Content-Range': contentRange,
        'Range-Unit': 'items',
        'Content-Length': String(Buffer.byteLength(body)),
      };
      if (wantCount) headers['Preference-Applied'] = 'count=exact';
      res.writeHead(status, headers);
      res.end(method === 'HEAD' ? undefined : body);
    } catch (error) {
      const api = toApiError(error);
      sendError(res, api, api.status === 503 ? { 'Retry-After': '5' } : {});
    }
  }

  return {
    handle,
    /** drops the schema cache (after migrations) */
    reload() {
      schema = undefined;
    },
  };
}
