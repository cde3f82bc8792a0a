/**
 * /rest/v1: a read-only PostgREST subset over our database, answered as the `anon` role. The
 * request is read (request.ts), turned into SQL (sql.ts), run, and answered (response.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DatabaseUnavailableError, type Database } from '../../db/database.ts';
import { requestContext, type RequestContext } from '../../http/request-context.ts';
import { ApiError, schemaUnavailable } from './errors.ts';
import { readApiRequest, type ApiRequest } from './request.ts';
import { preflight, sendFailure, sendJson, sendRead, type ReadResult } from './response.ts';
import { loadSchema, type Schema } from './schema.ts';
import { resultSource, scalarCall } from './rpc.ts';
import type { Relation } from './schema.ts';
import { buildCount, buildPage, type Source } from './sql.ts';
import { bearerToken, verifyAccessToken } from '../auth/handler.ts';

export interface RestHandlerOptions {
  db: Database;
  /** the schema cache, when already loaded (else it is loaded on first use) */
  schema?: Schema;
  /** how old the schema cache may grow before it is read again (default SCHEMA_TTL_MS) */
  schemaTtlMs?: number;
  /** at most this many rows per answer (request.ts MAX_ROWS; DB_MAX_ROWS) */
  maxRows?: number;
  /** the project's JWT secret: a request with a token it signed for the role `authenticated` runs as that role (docs/agent-area.md) */
  jwtSecret?: () => Promise<Uint8Array>;
}

/**
 * The schema cache is read again a minute after it was read, in the background (the request that
 * notices it serves from the old one): another server's migrations reach this one within a minute.
 */
export const SCHEMA_TTL_MS = 60_000;

export function createRestHandler(options: RestHandlerOptions) {
  const { db } = options;
  const ttl = options.schemaTtlMs ?? SCHEMA_TTL_MS;
  let schema: Schema | undefined = options.schema;
  let loadedAt = Date.now();
  let loading: Promise<Schema> | undefined;
  const load = () =>
    (loading ??= loadSchema(db.admin)
      .then((loaded) => {
        schema = loaded;
        loadedAt = Date.now();
        return loaded;
      })
      .finally(() => (loading = undefined)));
  const getSchema = async (): Promise<Schema> => {
    if (schema) {
      if (Date.now() - loadedAt > ttl) load().catch(() => {});
      return schema;
    }
    try {
      return await load();
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw schemaUnavailable();
      throw error;
    }
  };

  /**
   * Runs a read of a table, a view or a function's rows: the count alone, or the page (with its
   * count in the same statement when asked).
   */
  async function read(
    request: Extract<ApiRequest, { kind: 'read' | 'rpc' }>,
    relation: Relation,
    source: Source | undefined,
    context: RequestContext | undefined,
  ): Promise<ReadResult> {
    const { query, range, limit, count } = request;
    const countAll = async () => {
      const built = buildCount(relation, query, source);
      const [row] = await db.anon.query<{ total: number | string }>(built.sql, built.params, context);
      return Number(row?.total ?? 0);
    };
    if (request.head && count) {
      const total = await countAll();
      return { rows: Math.max(0, Math.min(total - range.lower, limit)), total, body: '[]' };
    }
    if (limit === 0) return { rows: 0, total: count ? await countAll() : undefined, body: '[]' };
    const built = buildPage(relation, query, { offset: range.lower, limit, count }, source);
    const [row] = await db.anon.query<{ total: number | string | null; n: number | string; body: string }>(
      built.sql,
      built.params,
      context,
    );
    return { rows: Number(row?.n ?? 0), total: count ? Number(row?.total ?? 0) : undefined, body: row?.body ?? '[]' };
  }

  /**
   * Who asks, as PostgREST reads the Authorization header: no token, or one that is not a JWT (the
   * publishable key), is the public key; a JWT must be ours and unexpired (401 otherwise); its role
   * `authenticated` runs as that role with its claims.
   */
  async function caller(req: IncomingMessage): Promise<RequestContext['claims'] | undefined> {
    const bearer = bearerToken(req);
    if (!bearer || bearer.split('.').length !== 3 || !options.jwtSecret) return undefined;
    const claims = await verifyAccessToken(await options.jwtSecret(), bearer);
    if (!claims || (claims.role !== 'authenticated' && claims.role !== 'anon'))
      throw new ApiError(401, 'PGRST301', 'JWT expired or invalid', null, 'Sign in again.');
    return claims.role === 'authenticated' ? claims : undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'OPTIONS')
      return preflight(
        res,
        url.pathname.startsWith('/rest/v1/rpc/') ? 'GET, HEAD, POST, OPTIONS' : 'GET, HEAD, OPTIONS',
        req.headers['access-control-request-headers'],
      );
    // the request's client and deadline (app.ts), for its statements, and who signed it
    let context = requestContext(req);
    try {
      const claims = await caller(req);
      if (claims && context) context = { ...context, claims };
      const request = await readApiRequest(req, url, getSchema, options.maxRows, Boolean(claims));
      if (request.kind === 'root')
        return sendJson(
          res,
          request.head,
          JSON.stringify({ name: 'exp-ecuador local data API', relations: request.relations }),
        );
      if (request.kind === 'read')
        return sendRead(res, request, await read(request, request.relation, undefined, context));
      const { routine } = request.call;
      if (!routine.columns) {
        const built = scalarCall(request.call);
        const [row] = await db.anon.query<{ body: string }>(built.sql, built.params, context);
        return sendJson(res, request.head, row?.body ?? 'null');
      }
      const { relation, source } = resultSource(request.call);
      // a function returning one composite value answers it as an object, as PostgREST does
      const shaped = routine.set ? request : { ...request, media: 'object' as const };
      sendRead(res, shaped, await read(shaped, relation, source, context));
    } catch (error) {
      sendFailure(res, error);
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
