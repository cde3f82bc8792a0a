/**
 * Errors in PostgREST's JSON shape ({code, message, details, hint}) with PostgREST's statuses.
 * Messages never contain SQL text or stack traces; user input appears only inside JSON strings.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }

  toJSON() {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

export const parseError = (what: string, details: string | null = null) =>
  new ApiError(400, 'PGRST100', `"failed to parse ${what}"`, details);

export const tableNotFound = (name: string, hint: string | null) =>
  new ApiError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`, null, hint);

export const columnNotFound = (table: string, column: string) =>
  new ApiError(400, '42703', `column ${table}.${column} does not exist`);

export const rangeNotSatisfiable = (details: string) =>
  new ApiError(416, 'PGRST103', 'Requested range not satisfiable', details);

export const notSingle = (rows: number) =>
  new ApiError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`);

export const methodNotAllowed = (method: string) =>
  new ApiError(
    405,
    'PGRST117',
    `Unsupported HTTP method: ${method}`,
    'This server is read-only: it answers GET and HEAD.',
  );

export const databaseUnavailable = () =>
  new ApiError(
    503,
    'PGRST001',
    'Database client error. Retrying the connection.',
    'The database is not reachable at the moment.',
  );

/** A statement waited longer than the pool allows for a connection, or its request's deadline passed (PostgREST's PGRST003). */
export const poolTimeout = () => new ApiError(504, 'PGRST003', 'Timed out acquiring connection from connection pool.');

/** The client used its share of the database (server/http/client-shares.ts). */
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(
    429,
    'PGRST429',
    'Too many requests from this client: it has used its share of the database for now',
    `Try again in ${retryAfterSeconds} s.`,
  );

export const schemaUnavailable = () =>
  new ApiError(503, 'PGRST002', 'Could not query the database for the schema cache. Retrying.');

/** Maps an error raised by PostgreSQL to PostgREST's answer, keeping only its message. */
export function fromPostgres(error: { code?: string; message?: string; detail?: string; hint?: string }): ApiError {
  const code = error.code ?? 'XX000';
  const message = error.message ?? 'Database error';
  const details = error.detail ?? null;
  const hint = error.hint ?? null;
  if (code === '42501') return new ApiError(401, code, message, details, hint);
  if (code === '42P01' || code === 'P0002') return new ApiError(404, code, message, details, hint);
  // as PostgREST answers a statement its role's statement_timeout stopped (57*: 500)
  if (code === '57014')
    return new ApiError(
      500,
      code,
      'canceling statement due to statement timeout',
      null,
      'Narrow the filters, or try again later.',
    );
  // data exceptions (bad values), syntax/access rule violations, integrity: the request's fault
  if (/^(22|42|23|2F|54)/.test(code)) return new ApiError(400, code, message, details, hint);
  return new ApiError(500, code, 'The database could not answer this request', null, null);
}
