/**
 * /auth/v1: our server's stand-in for Supabase Auth, the part the agents' area calls
 * (docs/agent-area.md "Signing in"): a six-digit code by e-mail, sessions with refresh, sign-out.
 * It answers as Supabase Auth (GoTrue) answers @supabase/auth-js, so the same client code runs
 * against a hosted project's Auth:
 *   POST /otp      {email}                       200 {} (the same answer for any address)
 *   POST /verify   {email, token, type: 'email'} 200 a session, or 403 otp_expired
 *   POST /token?grant_type=refresh_token {refresh_token}   200 a new session (the old token is spent)
 *   GET  /user     (Bearer)                      200 the user, or 401/403
 *   POST /logout?scope=global|local|others (Bearer)          204
 * The access token is a JWT signed with the project's secret (HS256), as Auth signs it; our data
 * API checks it and runs the request as `authenticated` with its claims, so row level security
 * reads `auth.uid()` as a hosted project's does.
 *
 * Only an active agent's address (or the team's) is mailed a code; any other gets the same answer
 * and no mail. A code is good for 10 minutes, once, and for 5 tries; an address is mailed at most
 * one code a minute and 5 an hour, a client asks for at most 20 codes and tries 30 an hour.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { TransactionalSql } from '../../../core/functions/sql.ts';
import { enqueueMail } from '../../../core/functions/outbox/store.ts';
import { now } from '../../../core/clock.ts';
import { readBody } from '../../http/body.ts';
import { requestContext } from '../../http/request-context.ts';

export const AUTH_LIMITS = {
  codeMinutes: 10,
  triesPerCode: 5,
  codesPerAddressPerMinute: 1,
  codesPerAddressPerHour: 5,
  codesPerClientPerHour: 20,
  triesPerClientPerHour: 30,
  accessSeconds: 3600,
} as const;

export interface AuthOptions {
  sql: TransactionalSql;
  /** the project's JWT secret: what Auth signs with and the data API checks */
  secret: () => Promise<Uint8Array>;
  /** the site's address, for the mail's link and the tokens' issuer */
  siteUrl: string;
  /** a mail was queued */
  onQueued?: () => void;
}

export interface Claims extends JWTPayload {
  sub: string;
  role: string;
  email?: string;
  session_id?: string;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const normal = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

function answer(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Access-Control-Allow-Origin': '*',
    ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** Auth's error shape (error_code for clients that send X-Supabase-Api-Version, code and msg for the rest). */
const failure = (
  res: ServerResponse,
  status: number,
  code: string,
  msg: string,
  headers: Record<string, string> = {},
) => answer(res, status, { code: status, error_code: code, msg }, headers);

/** Verifies an access token: our signature, not expired, the `authenticated` audience. */
/** The token of an `Authorization: Bearer ...` header, as Auth and PostgREST read it, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<Claims | undefined> {
  try {
    // read against the one clock (core/clock.ts) that signed it
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      audience: 'authenticated',
      currentDate: new Date(now()),
    });
    if (typeof payload.sub !== 'string' || typeof payload.role !== 'string') return undefined;
    return payload as Claims;
  } catch {
    return undefined;
  }
}

interface UserRow extends Record<string, unknown> {
  id: string;
  email: string;
  created_at: string;
  last_sign_in_at: string | null;
}

const userJson = (u: UserRow) => ({
  id: u.id,
  aud: 'authenticated',
  role: 'authenticated',
  email: u.email,
  email_confirmed_at: u.created_at,
  phone: '',
  confirmed_at: u.created_at,
  last_sign_in_at: u.last_sign_in_at,
  app_metadata: { provider: 'email', providers: ['email'] },
  user_metadata: {},
  identities: [],
  created_at: u.created_at,
  updated_at: u.last_sign_in_at ?? u.created_at,
  is_anonymous: false,
});

export function createAuthHandler(options: AuthOptions) {
  const { sql } = options;

  async function session(user: UserRow, sessionId: string, refresh: string) {
    const issued = Math.floor(now() / 1000);
    const expires = issued + AUTH_LIMITS.accessSeconds;
    const access = await new SignJWT({
      role: 'authenticated',
      email: user.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
      aal: 'aal1',
      amr: [{ method: 'otp', timestamp: issued }],
      session_id: sessionId,
      is_anonymous: false,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setAudience('authenticated')
      .setIssuer(`${options.siteUrl}/auth/v1`)
      .setIssuedAt(issued)
      .setExpirationTime(expires)
      .sign(await options.secret());
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: AUTH_LIMITS.accessSeconds,
      expires_at: expires,
      refresh_token: refresh,
      user: userJson(user),
    };
  }

  /** Who may be mailed a code: an agent of ours who still works here, or the team. */
  async function mayAsk(email: string): Promise<boolean> {
    const rows = await sql.query(
      `select 1 from public.agents a where pg_catalog.lower(a.email) = $1 and a.is_ours
       union all
       select 1 from internal.team_members t join auth.users u on u.id = t.user_id where pg_catalog.lower(u.email) = $1
       limit 1`,
      [email],
    );
    return rows.length > 0;
  }

  async function otp(res: ServerResponse, body: Record<string, unknown>, client: string) {
    const email = typeof body.email === 'string' ? normal(body.email) : '';
    if (!EMAIL.test(email))
      return failure(res, 400, 'validation_failed', 'Unable to validate email address: invalid format');
    const [counts] = await sql.query<{ minute: number; hour: number; client_hour: number }>(
      `select count(*) filter (where c.created_at > internal.now() - interval '1 minute' and pg_catalog.lower(c.email) = $1)::int as minute,
              count(*) filter (where pg_catalog.lower(c.email) = $1)::int as hour,
              count(*) filter (where c.client_hash = $2)::int as client_hour
         from internal.auth_codes c
        where c.created_at > internal.now() - interval '1 hour' and (pg_catalog.lower(c.email) = $1 or c.client_hash = $2)`,
      [email, hash(client)],
    );
    if (
      (counts?.minute ?? 0) >= AUTH_LIMITS.codesPerAddressPerMinute ||
      (counts?.hour ?? 0) >= AUTH_LIMITS.codesPerAddressPerHour ||
      (counts?.client_hour ?? 0) >= AUTH_LIMITS.codesPerClientPerHour
    ) {
      return failure(
        res,
        429,
        'over_email_send_rate_limit',
        'For security purposes, you can only request a code once a minute and five times an hour.',
        {
          'Retry-After': '60',
        },
      );
    }
    const allowed = await mayAsk(email);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    // every request is counted, an unknown address's too (with a hash nothing matches): the limits say nothing about who is an agent
    await sql.transaction(async (tx) => {
      const [row] = await tx.query<{ id: string }>(
        `insert into internal.auth_codes (email, code_hash, expires_at, client_hash)
         values ($1, $2, internal.now() + make_interval(mins => $3), $4) returning id::text as id`,
        [email, allowed ? hash(`${email}:${code}`) : '-', AUTH_LIMITS.codeMinutes, hash(client)],
      );
      if (allowed && row)
        await enqueueMail(tx, { kind: 'sign-in-code', refId: row.id, recipient: email, payload: { code } });
    });
    if (allowed) options.onQueued?.();
    answer(res, 200, {});
  }

  async function verify(res: ServerResponse, body: Record<string, unknown>, client: string) {
    const email = typeof body.email === 'string' ? normal(body.email) : '';
    const token = typeof body.token === 'string' ? body.token.trim() : '';
    if (!['email', 'magiclink', 'signup'].includes(String(body.type)) || !EMAIL.test(email) || !/^\d{6}$/.test(token)) {
      return failure(res, 403, 'otp_expired', 'Token has expired or is invalid');
    }
    const result = await sql.transaction(async (tx) => {
      const [tries] = await tx.query<{ n: number }>(
        `select count(*)::int as n from internal.auth_tries where client_hash = $1 and at > internal.now() - interval '1 hour'`,
        [hash(client)],
      );
      if ((tries?.n ?? 0) >= AUTH_LIMITS.triesPerClientPerHour) return 'busy' as const;
      await tx.query('insert into internal.auth_tries (client_hash) values ($1)', [hash(client)]);
      // the address's latest code, locked: two tries at once count as two
      const [code] = await tx.query<{ id: string; code_hash: string; live: boolean }>(
        `select id::text as id, code_hash, (used_at is null and expires_at > internal.now() and attempts < $2) as live
           from internal.auth_codes where pg_catalog.lower(email) = $1 and code_hash <> '-'
          order by created_at desc, id desc limit 1 for update`,
        [email, AUTH_LIMITS.triesPerCode],
      );
      if (!code) return 'invalid' as const;
      const given = Buffer.from(hash(`${email}:${token}`));
      const right = code.live && timingSafeEqual(given, Buffer.from(code.code_hash));
      await tx.query(
        `update internal.auth_codes set attempts = attempts + 1, used_at = case when $2 then internal.now() else used_at end where id = $1`,
        [code.id, right],
      );
      if (!right) return 'invalid' as const;
      // her user, made on her first sign-in (an agent of ours is one already; on a hosted project the team invites her)
      await tx.query(
        'insert into auth.users (email) select $1 where not exists (select 1 from auth.users u where pg_catalog.lower(u.email) = $1)',
        [email],
      );
      const [user] = await tx.query<UserRow>(
        `update auth.users u set last_sign_in_at = now() where pg_catalog.lower(u.email) = $1
         returning u.id::text as id, u.email, u.created_at::text as created_at, u.last_sign_in_at::text as last_sign_in_at`,
        [email],
      );
      if (!user) return 'invalid' as const;
      // her agent's row knows her from now on
      await tx.query(
        `update public.agents set user_id = $2::uuid where pg_catalog.lower(email) = $1 and user_id is null and active`,
        [email, user.id],
      );
      const refresh = randomBytes(32).toString('base64url');
      const [made] = await tx.query<{ id: string }>(
        `insert into internal.auth_sessions (user_id, refresh_hash) values ($1::uuid, $2) returning id::text as id`,
        [user.id, hash(refresh)],
      );
      return { user, sessionId: made!.id, refresh };
    });
    if (result === 'busy')
      return failure(res, 429, 'over_request_rate_limit', 'Too many tries: wait an hour.', { 'Retry-After': '3600' });
    if (result === 'invalid') return failure(res, 403, 'otp_expired', 'Token has expired or is invalid');
    answer(res, 200, await session(result.user, result.sessionId, result.refresh));
  }

  async function refresh(res: ServerResponse, body: Record<string, unknown>) {
    const token = typeof body.refresh_token === 'string' ? body.refresh_token : '';
    const next = randomBytes(32).toString('base64url');
    const [row] = await sql.query<UserRow & { session_id: string }>(
      `update internal.auth_sessions s set refresh_hash = $2, refreshed_at = internal.now()
         from auth.users u
        where s.refresh_hash = $1 and s.revoked_at is null and u.id = s.user_id
          and exists (select 1 from public.agents a where a.user_id = u.id and a.active
                      union all select 1 from internal.team_members t where t.user_id = u.id)
        returning s.id::text as session_id, u.id::text as id, u.email, u.created_at::text as created_at, u.last_sign_in_at::text as last_sign_in_at`,
      [hash(token), hash(next)],
    );
    if (!row) return failure(res, 400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    answer(res, 200, await session(row, row.session_id, next));
  }

  async function signedIn(req: IncomingMessage): Promise<Claims | undefined> {
    const bearer = bearerToken(req);
    const claims = bearer ? await verifyAccessToken(await options.secret(), bearer) : undefined;
    if (!claims?.session_id) return undefined;
    const [live] = await sql.query(`select 1 from internal.auth_sessions where id = $1::uuid and revoked_at is null`, [
      claims.session_id,
    ]);
    return live ? claims : undefined;
  }

  async function user(req: IncomingMessage, res: ServerResponse) {
    const claims = await signedIn(req);
    if (!claims) return failure(res, 403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    const [row] = await sql.query<UserRow>(
      `select id::text as id, email, created_at::text as created_at, last_sign_in_at::text as last_sign_in_at from auth.users where id = $1::uuid`,
      [claims.sub],
    );
    if (!row) return failure(res, 403, 'user_not_found', 'User from sub claim in JWT does not exist');
    answer(res, 200, userJson(row));
  }

  async function logout(req: IncomingMessage, res: ServerResponse, scope: string) {
    const claims = await signedIn(req);
    if (!claims) return answer(res, 204);
    await sql.query(
      `update internal.auth_sessions s set revoked_at = internal.now()
        where s.user_id = $1::uuid and s.revoked_at is null
          and ($3 = 'global' or ($3 = 'local' and s.id = $2::uuid) or ($3 = 'others' and s.id <> $2::uuid))`,
      [claims.sub, claims.session_id, ['local', 'others'].includes(scope) ? scope : 'global'],
    );
    answer(res, 204);
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice('/auth/v1'.length);
    if (req.method === 'OPTIONS') {
      return answer(res, 204, undefined, {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': String(
          req.headers['access-control-request-headers'] ?? 'authorization, apikey, content-type',
        ),
        'Access-Control-Max-Age': '86400',
      });
    }
    const client = requestContext(req)?.client ?? 'unknown';
    try {
      if (req.method === 'GET' && path === '/user') return await user(req, res);
      if (req.method !== 'POST') return failure(res, 405, 'method_not_allowed', 'Not allowed');
      const raw = await readBody(req, 16 * 1024);
      if (raw === 'too-large') return failure(res, 400, 'bad_json', 'The body is too large');
      let body: Record<string, unknown> = {};
      try {
        body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        return failure(res, 400, 'bad_json', 'Could not parse request body as JSON');
      }
      if (typeof body !== 'object' || body === null)
        return failure(res, 400, 'bad_json', 'Could not parse request body as JSON');
      if (path === '/otp') return await otp(res, body, client);
      if (path === '/verify') return await verify(res, body, client);
      if (path === '/token' && url.searchParams.get('grant_type') === 'refresh_token') return await refresh(res, body);
      if (path === '/logout') return await logout(req, res, url.searchParams.get('scope') ?? 'global');
      return failure(res, 404, 'not_found', 'Not found');
    } catch {
      return failure(res, 503, 'unexpected_failure', 'The sign-in service is unavailable; try again shortly.', {
        'Retry-After': '5',
      });
    }
  };
}
