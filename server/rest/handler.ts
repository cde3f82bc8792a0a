/**
 * /rest/v1: a read-only PostgREST subset over our database, answered as the `anon` role. The
 * request is read (request.ts), turned into SQL (sql.ts), run, and answered (response.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DatabaseUnavailableError, type Database } from '../db/database.ts';
import { schemaUnavailable } from './errors.ts';
import { readApiRequest, type ApiRequest } from './request.ts';
import { preflight, sendFailure, sendJson, sendRead, type ReadResult } from './response.ts';
import { loadSchema, type Schema } from './schema.ts';
import { buildCount, buildPage } from './sql.ts';

export interface RestHandlerOptions {
  db: Database;
  /** the schema cache, when already loaded (else it is loaded on first use) */
  schema?: Schema;
}

export function createRestHandler(options: RestHandlerOptions) {
  const { db } = options;
  let schema: Schema | undefined = options.schema;
  let loading: Promise<Schema> | undefined;
  const getSchema = async (): Promise<Schema> => {
    if (schema) return schema;
    loading ??= loadSchema(db.admin).finally(() => (loading = undefined));
    try {
      schema = await loading;
      return schema;
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw schemaUnavailable();
      throw error;
    }
  };

  /** Runs a read: the count alone, or the page (with its count in the same statement when asked). */
  async function read(request: Extract<ApiRequest, { kind: 'read' }>): Promise<ReadResult> {
    const { relation, query, range, limit, count } = request;
    const countAll = async () => {
      const built = buildCount(relation, query);
      const [row] = await db.anon.query<{ total: number | string }>(built.sql, built.params);
      return Number(row?.total ?? 0);
    };
    if (request.head && count) {
      const total = await countAll();
      return { rows: Math.max(0, Math.min(total - range.lower, limit)), total, body: '[]' };
    }
    if (limit === 0) return { rows: 0, total: count ? await countAll() : undefined, body: '[]' };
    const built = buildPage(relation, query, { offset: range.lower, limit, count });
    const [row] = await db.anon.query<{ total: number | string | null; n: number | string; body: string }>(built.sql, built.params);
    return { rows: Number(row?.n ?? 0), total: count ? Number(row?.total ?? 0) : undefined, body: row?.body ?? '[]' };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'OPTIONS') return preflight(res, 'GET, HEAD, OPTIONS');
    try {
      const request = await readApiRequest(req, url, getSchema);
      if (request.kind === 'root') return sendJson(res, request.head, JSON.stringify({ name: 'exp-ecuador local data API', relations: request.relations }));
      sendRead(res, request, await read(request));
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
