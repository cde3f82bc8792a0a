/**
 * What every function of ours does with a request before and after its own work, one place for all
 * of them: CORS (preflight, allowed origins), POST only, a JSON body of bounded size, JSON answers
 * that no cache keeps, the client's address kept only as a salted hash; a refused field, a refusal
 * for now and a failure answered in one wording; and the shell of the functions whose calls are
 * actions (serveActions).
 */
import { corsFor, functionPreflightHeaders } from './cors.ts';
import type { Sql } from './sql.ts';

/** What every function of ours takes from its settings about who may call it and how often. */
export interface ClientPolicy {
  /** origins allowed to post ('*' for any: the widgets run on partners' pages) */
  allowedOrigins: '*' | string[];
  rateLimit: { max: number; windowSeconds: number };
  /**
   * salt for the hash of the client address (the address itself is not kept): INQUIRY_HASH_SALT
   * when set, else the random one the database keeps (clientSalt below)
   */
  hashSalt?: string;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The client's address as we keep it: a salted hash (the address itself is not stored). */
export const hashClient = async (address: string, salt: string) => (await sha256(`${salt}\n${address}`)).slice(0, 32);

/** How long a process keeps the salt it read (a rotated salt is taken up within this time). */
const SALT_TTL_MS = 10 * 60_000;
const salts = new WeakMap<Sql, Map<string, { value: Promise<string>; at: number }>>();

/**
 * The salt of the client hashes: the configured one, else the one the database keeps in a private
 * row (internal.settings, closed to the public key), made at random the first time it is asked
 * for, so no two deployments share one and nobody can read it from the code (docs/decisions.md
 * #24). Our server and the deployed functions read the same row.
 */
export function clientSalt(sql: Sql, configured: string | undefined): Promise<string> {
  return keptSecret(sql, 'client_hash_salt', configured);
}

/**
 * A secret of the deployment's, configured or else kept in the database (internal.settings): made at
 * random the first time any process asks, then the same for every process (the client hashes' salt;
 * our Auth stand-in's JWT secret, server/stand-in/auth/handler.ts).
 */
export function keptSecret(sql: Sql, name: string, configured: string | undefined): Promise<string> {
  if (configured) return Promise.resolve(configured);
  const kept = salts.get(sql) ?? new Map<string, { value: Promise<string>; at: number }>();
  salts.set(sql, kept);
  const cached = kept.get(name);
  if (cached && Date.now() - cached.at < SALT_TTL_MS) return cached.value;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const fresh = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  const read = () => sql.query<{ value: string }>('select value from internal.settings where name = $1', [name]);
  const value = sql
    .query<{ value: string }>(
      `with made as (insert into internal.settings (name, value) values ($2, $1) on conflict (name) do nothing returning value)
       select value from made union all select value from internal.settings where name = $2 limit 1`,
      [fresh, name],
    )
    // another process made it at the same moment: the insert waited for it and did nothing, and
    // this statement's snapshot, taken before that one committed, cannot see its row; the next can
    .then(async (rows) => (rows[0] ? rows : await read()))
    .then((rows) => {
      const secret = rows[0]?.value;
      if (!secret) throw new Error(`the setting ${name} could not be read`);
      return secret;
    });
  kept.set(name, { value, at: Date.now() });
  value.catch(() => kept.delete(name));
  return value;
}

export interface JsonRequest {
  /** the CORS headers every answer carries */
  cors: Record<string, string>;
  body: unknown;
}

/**
 * The request's JSON body and CORS headers, or the answer that ends it: the preflight, a refused
 * origin (403), another method (405), another content type, a body too large, JSON that does not
 * parse (400). `what` names the thing sent in the messages ("the inquiry").
 */
export async function readJsonRequest(
  request: Request,
  options: { allowedOrigins: '*' | string[]; maxBytes: number; what: string },
): Promise<JsonRequest | Response> {
  const cors = corsFor(request.headers.get('origin'), options.allowedOrigins);
  if (request.method === 'OPTIONS') {
    if (!cors) return new Response(null, { status: 403 });
    return new Response(null, { status: 204, headers: functionPreflightHeaders(cors) });
  }
  if (!cors) return json(403, { error: 'origin', message: `This origin may not send ${options.what}.` });
  if (request.method !== 'POST')
    return json(
      405,
      { error: 'method', message: `Send ${options.what} with POST.` },
      { ...cors, Allow: 'POST, OPTIONS' },
    );
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
    return json(
      400,
      { error: 'content_type', message: `Send ${options.what} as JSON (Content-Type: application/json).` },
      cors,
    );
  }
  const text = await request.text();
  if (text.length > options.maxBytes)
    return json(
      400,
      {
        error: 'too_large',
        message: `${options.what[0]?.toUpperCase()}${options.what.slice(1)} is too large (at most ${options.maxBytes} bytes).`,
      },
      cors,
    );
  try {
    return { cors, body: JSON.parse(text) };
  } catch {
    return json(400, { error: 'invalid_json', message: 'The body is not valid JSON.' }, cors);
  }
}

/** readJsonRequest for an action's request: its body must be a JSON object (else 400, `validation`). */
async function readJsonObject(
  request: Request,
  options: { allowedOrigins: '*' | string[]; maxBytes: number; what: string },
): Promise<{ cors: Record<string, string>; body: Record<string, unknown> } | Response> {
  const read = await readJsonRequest(request, options);
  if (read instanceof Response) return read;
  const { cors, body } = read;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return json(400, { error: 'validation', message: 'The body must be a JSON object.', fields: {} }, read.cors);
  return { cors, body: body as Record<string, unknown> };
}

/** What a handler's own work answers: a status and a body, whether a mail was queued, how long to wait when refused (429). */
export type Outcome = { status: number; body: Record<string, unknown>; queued?: boolean; retryAfter?: number };

/** "Some fields are not valid: frequency (invalid), email (required).": what a refused request's message says. */
export function problems(fields: Record<string, string>): string {
  return `Some fields are not valid: ${Object.entries(fields)
    .map(([k, v]) => `${k} (${v})`)
    .join(', ')}.`;
}

/** A request refused for its fields (400, `validation`): each field's code, and the message that names them. */
export function refused(fields: Record<string, string>, message = problems(fields)): Outcome {
  return { status: 400, body: { error: 'validation', message, fields } };
}

/** One field refused: its code `invalid`, the message saying why ("leadAgentId (not one of our agents)"). */
export const refusedField = (field: string, why = 'invalid'): Outcome =>
  refused({ [field]: 'invalid' }, problems({ [field]: why }));

/** An outcome as the answer: its status and body, with Retry-After when it is a refusal for now (429). */
export function answer(outcome: Outcome, cors: Record<string, string>, retryAfter?: number): Response {
  const wait = outcome.retryAfter ?? retryAfter;
  const extra: Record<string, string> = outcome.status === 429 && wait ? { 'Retry-After': String(wait) } : {};
  return json(outcome.status, outcome.body, { ...cors, ...extra });
}

/**
 * The answer when the work failed: 503 with when to try again, the function's own words of what was
 * not done. A database that is away is logged as such (its error says nothing more); anything else
 * with its error.
 */
export function unavailable(
  tag: string,
  error: unknown,
  isUnavailable: ((error: unknown) => boolean) | undefined,
  message: string,
  cors: Record<string, string>,
): Response {
  console.error(`[${tag}]`, isUnavailable?.(error) ? 'database unavailable' : error);
  return json(503, { error: 'unavailable', message }, { ...cors, 'Retry-After': '10' });
}

/** What serveActions needs of a function whose calls are POSTed `{ action, ... }` (alerts, privacy, visits). */
export interface ActionService<A extends string> {
  /** the name its log lines carry */
  tag: string;
  allowedOrigins: '*' | string[];
  maxBytes: number;
  actions: readonly A[];
  /** the action of a body that names none (else it is refused) */
  defaultAction?: A;
  /** what the 503 says was not done ("Nothing was changed right now. Please try again.") */
  unavailableMessage: string;
  /** Retry-After of a 429 whose outcome says no wait of its own */
  retryAfter?: number;
  /** a mail was queued: deliver it now */
  onQueued?: (() => void) | undefined;
  isUnavailable?: ((error: unknown) => boolean) | undefined;
}

/**
 * The handler of a function of actions: the request read as a JSON object, its action checked, the
 * action's outcome answered, and a failure answered 503. The action's own work is `act`'s.
 */
export function serveActions<A extends string, C = unknown>(
  service: ActionService<A>,
  act: (action: A, body: Record<string, unknown>, request: Request, context: C) => Promise<Outcome>,
): (request: Request, context: C) => Promise<Response> {
  return async (request, context) => {
    const read = await readJsonObject(request, { ...service, what: 'the request' });
    if (read instanceof Response) return read;
    const { cors, body } = read;
    const action = body.action ?? service.defaultAction;
    if (!(service.actions as readonly unknown[]).includes(action)) return answer(refusedField('action'), cors);
    try {
      const outcome = await act(action as A, body, request, context);
      if (outcome.queued) service.onQueued?.();
      return answer(outcome, cors, service.retryAfter);
    } catch (error) {
      return unavailable(service.tag, error, service.isUnavailable, service.unavailableMessage, cors);
    }
  };
}
