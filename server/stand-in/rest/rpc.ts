/**
 * /rest/v1/rpc/<function>: functions of `public` called as PostgREST calls them (docs/decisions.md
 * #20), so what the widgets call with postgrest-js `.rpc()` runs unchanged on a hosted project.
 * - Arguments by parameter name: a JSON object in a POST body (or a form), or for GET and HEAD
 *   every query parameter whose value is not a filter (`[not.]op.value`).
 * - The function is found by its name and the names of the arguments (overloads by names; the
 *   parameters with defaults may be left out), else PGRST202 with PostgREST's message, details and
 *   hint; two candidates are PGRST203.
 * - Arguments reach SQL only as one JSON parameter, typed by json_to_record() with the parameters'
 *   types from the catalogue (so a bad value is PostgreSQL's own 22P02, answered 400).
 * - A function returning rows is read like a view: select, filters, order, limit, offset, Range,
 *   Prefer: count=exact. A scalar answers its JSON value.
 * This server is read-only: it calls stable and immutable functions (which cannot write), and
 * refuses volatile ones with 405.
 */
import type { IncomingMessage } from 'node:http';
import { readBody } from '../../http/body.ts';
import { ApiError, parseError } from './errors.ts';
import { parseReadQuery, type ReadQuery } from './parse.ts';
import { closestName, type Relation, type Routine, type Schema } from './schema.ts';
import { quote, type Built, type Source } from './sql.ts';

const MAX_BODY = 1024 * 1024;

export interface RpcCall {
  routine: Routine;
  /** the arguments by parameter name: JSON values (POST) or text (GET) */
  args: Map<string, unknown>;
  query: ReadQuery;
}

/** The arguments of a POST: a JSON object, or a form; the query string then only filters the result. */
async function postArgs(req: IncomingMessage): Promise<Map<string, unknown>> {
  const type = String(req.headers['content-type'] ?? 'application/json')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  const body = await readBody(req, MAX_BODY);
  if (body === 'too-large')
    throw new ApiError(413, 'PGRST102', 'The request body is too large', `At most ${MAX_BODY} bytes.`);
  if (type === 'application/x-www-form-urlencoded') return new Map(new URLSearchParams(body.toString('utf8')));
  if (type !== 'application/json' && type !== '')
    throw new ApiError(
      415,
      'PGRST102',
      `Content-Type not acceptable: ${type}`,
      null,
      'Send the arguments as application/json.',
    );
  const text = body.toString('utf8');
  if (text.trim() === '') return new Map();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'PGRST102', 'Empty or invalid json');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ApiError(
      400,
      'PGRST102',
      'Empty or invalid json',
      'The body must be a JSON object of the arguments by name.',
    );
  return new Map(Object.entries(value));
}

/** PostgREST's findProc: by name, then by the set of argument names. */
export function findRoutine(name: string, keys: string[], schema: Schema): Routine {
  const overloads = schema.routines.get(name) ?? [];
  const given = new Set(keys);
  const matches = overloads.filter((r) => {
    if (!r.params.length) return given.size === 0;
    const names = new Set(r.params.map((p) => p.name));
    return r.params.every((p) => !p.required || given.has(p.name)) && [...given].every((k) => names.has(k));
  });
  if (matches.length === 1) return matches[0] as Routine;
  const signature = (r: Routine) => `public.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(', ')})`;
  if (matches.length > 1) {
    throw new ApiError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${matches.map(signature).join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  const sorted = [...keys].sort();
  const listed = sorted.join(', ');
  const message = `Could not find the function public.${name}${sorted.length ? `(${listed})` : ' without parameters'} in the schema cache`;
  const details = `Searched for the function public.${name}${sorted.length ? ` with parameter${sorted.length > 1 ? 's' : ''} ${listed}` : ' without parameters'}, but no matches were found in the schema cache.`;
  let hint: string | null = null;
  if (!overloads.length) {
    const near = closestName(name, schema.routines.keys());
    if (near) hint = `Perhaps you meant to call the function public.${near}`;
  } else {
    const sets = overloads.map(
      (r) =>
        `(${r.params
          .map((p) => p.name)
          .sort()
          .join(', ')})`,
    );
    const near = closestName(`(${listed})`, sets);
    if (near) hint = `Perhaps you meant to call the function public.${name}${near}`;
  }
  throw new ApiError(404, 'PGRST202', message, details, hint);
}

/** Reads a call of /rest/v1/rpc/<name>: its function, arguments and the read of its result. */
export async function readRpcCall(
  req: IncomingMessage,
  url: URL,
  path: string,
  schema: Schema,
  writable = false,
): Promise<RpcCall> {
  let name: string;
  try {
    name = decodeURIComponent(path);
  } catch {
    throw new ApiError(404, 'PGRST125', 'Invalid path specified in request URL');
  }
  if (name === '' || name.includes('/')) throw new ApiError(404, 'PGRST125', 'Invalid path specified in request URL');
  const method = req.method ?? 'GET';
  let args: Map<string, unknown>;
  let query: ReadQuery;
  if (method === 'GET' || method === 'HEAD') {
    query = parseReadQuery(url.searchParams, true);
    args = query.args ?? new Map();
  } else if (method === 'POST') {
    query = parseReadQuery(url.searchParams);
    args = await postArgs(req);
  } else {
    throw new ApiError(
      405,
      'PGRST117',
      `Unsupported HTTP method: ${method}`,
      'A function is called with GET, HEAD or POST.',
    );
  }
  const routine = findRoutine(name, [...args.keys()], schema);
  // a signed-in user's call runs in a transaction of its own, which may write (row level security decides what)
  if (routine.volatility === 'volatile' && !(writable && method === 'POST')) {
    throw new ApiError(
      405,
      '25006',
      `This server is read-only: the function public.${name} is volatile`,
      null,
      'Declare the function STABLE or IMMUTABLE if it does not write.',
    );
  }
  if (!routine.columns && (query.where.length || query.order.length || query.select !== '*')) {
    throw parseError(
      'filters',
      `public.${name} returns a single value: its result has no columns to select, filter or order`,
    );
  }
  return { routine, args, query };
}

interface CallSql {
  /** public."fn"("a" := _pgrst_args."a", ...) */
  call: string;
  /** the FROM item typing the arguments, when there are any */
  record?: string;
  params: unknown[];
}

/** The function's call, its arguments typed by json_to_record() from one JSON parameter. */
function callSql(call: RpcCall): CallSql {
  const { routine, args } = call;
  const fn = `public.${quote(routine.name)}`;
  const given = routine.params.filter((p) => args.has(p.name));
  if (!given.length) return { call: `${fn}()`, params: [] };
  const record = Object.fromEntries(given.map((p) => [p.name, args.get(p.name)]));
  const columns = given.map((p) => `${quote(p.name)} ${p.type}`).join(', ');
  const named = given.map((p) => `${quote(p.name)} := _pgrst_args.${quote(p.name)}`).join(', ');
  return {
    call: `${fn}(${named})`,
    record: `json_to_record($1::json) as _pgrst_args(${columns})`,
    params: [JSON.stringify(record)],
  };
}

/** A function returning rows, as a relation the read builder can select from, filter and order. */
export function resultSource(call: RpcCall): { relation: Relation; source: Source } {
  const columns = call.routine.columns ?? [];
  const c = callSql(call);
  const inner = c.record ? `${c.record} cross join lateral ${c.call} as _pgrst_f` : `${c.call} as _pgrst_f`;
  return {
    relation: { name: call.routine.name, columns, columnSet: new Set(columns) },
    source: { from: `(select _pgrst_f.* from ${inner}) _pgrst_src`, params: c.params },
  };
}

/** A function returning a value (or a set of values): its JSON. */
export function scalarCall(call: RpcCall): Built {
  const c = callSql(call);
  if (call.routine.set) {
    const source = c.record ? `${c.record} cross join lateral ${c.call} as _pgrst_f(v)` : `${c.call} as _pgrst_f(v)`;
    return { sql: `select coalesce(json_agg(_pgrst_f.v), '[]')::text as body from ${source}`, params: c.params };
  }
  return {
    sql: `select coalesce(to_json(${c.call})::text, 'null') as body${c.record ? ` from ${c.record}` : ''}`,
    params: c.params,
  };
}
