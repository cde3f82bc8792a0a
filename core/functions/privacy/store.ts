/**
 * What the privacy function keeps and reads (supabase/schemas/55_privacy.sql): the requests, the
 * links' tokens (kept as their SHA-256 only), and the SQL functions that gather, correct and erase
 * what we keep about an address.
 */
import { hashToken, newToken } from '../alerts/tokens.ts';
import type { Sql } from '../sql.ts';
import type { Lang } from '../../lang.ts';

/** How long a mailed link may wait to be opened, and how long what it opens lasts. */
export const LINK_HOURS = 24;
export const SESSION_MINUTES = 30;
/** Links an address may be mailed a day (the same answer either way). */
export const LINKS_A_DAY = 3;

/** Whether we keep anything about this address. */
export async function personKnown(sql: Sql, email: string): Promise<boolean> {
  const [row] = await sql.query<{ known: boolean }>('select internal.person_known($1) as known', [email]);
  return row?.known === true;
}

/** How many links this address was mailed in the last day. */
export async function linksToday(sql: Sql, email: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    "select count(*)::int as n from internal.privacy_requests where kind = 'access' and internal.mailbox(email) = internal.mailbox($1) and asked_at > internal.now() - interval '1 day'",
    [email],
  );
  return row?.n ?? 0;
}

export async function insertRequest(
  sql: Sql,
  request: { kind: 'access' | 'correction' | 'erasure'; email: string | null; lang: Lang; clientHash: string | null },
): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    'insert into internal.privacy_requests (kind, email, lang, client_hash) values ($1, $2, $3, $4) returning id::text as id',
    [request.kind, request.email, request.lang, request.clientHash],
  );
  return row!.id;
}

export interface PrivacyRequest extends Record<string, unknown> {
  id: string;
  email: string;
  lang: Lang;
}

/** An open request by id (its address still kept). */
export async function openRequest(sql: Sql, id: string): Promise<PrivacyRequest | null> {
  const [row] = await sql.query<PrivacyRequest>(
    'select id::text as id, email, lang from internal.privacy_requests where id = $1::bigint and email is not null',
    [id],
  );
  return row ?? null;
}

/** A new token for a request, kept hashed; its text goes to the mail or the page. */
export async function issuePrivacyToken(sql: Sql, requestId: string, purpose: 'open' | 'session'): Promise<string> {
  const token = newToken();
  await sql.query(
    `insert into internal.privacy_tokens (token_hash, request_id, purpose, expires_at)
     values ($1, $2::bigint, $3, internal.now() + case when $3 = 'open' then make_interval(hours => $4) else make_interval(mins => $5) end)`,
    [await hashToken(token), requestId, purpose, LINK_HOURS, SESSION_MINUTES],
  );
  return token;
}

/**
 * The request a token opens, taken under a lock (two clicks on the link open it once): 'unknown'
 * for a token we never issued (or whose request was answered by an erasure), 'expired' for a late
 * or used link.
 */
export async function byPrivacyToken(
  sql: Sql,
  token: string,
  purpose: 'open' | 'session',
): Promise<PrivacyRequest | 'unknown' | 'expired'> {
  const [row] = await sql.query<PrivacyRequest & { live: boolean }>(
    `select r.id::text as id, r.email, r.lang, (t.used_at is null and t.expires_at > internal.now()) as live
       from internal.privacy_tokens t join internal.privacy_requests r on r.id = t.request_id
      where t.token_hash = $1 and t.purpose = $2 and r.email is not null
      for update of t`,
    [await hashToken(token), purpose],
  );
  if (!row) return 'unknown';
  if (!row.live) return 'expired';
  return { id: row.id, email: row.email, lang: row.lang };
}

export async function useToken(sql: Sql, token: string): Promise<void> {
  await sql.query('update internal.privacy_tokens set used_at = internal.now() where token_hash = $1', [
    await hashToken(token),
  ]);
}

/** An access request is answered when its link is opened. */
export async function answered(sql: Sql, id: string): Promise<void> {
  await sql.query(
    'update internal.privacy_requests set answered_at = coalesce(answered_at, internal.now()) where id = $1::bigint',
    [id],
  );
}

/** Everything we keep about an address (internal.person_data). */
export async function personData(sql: Sql, email: string): Promise<Record<string, unknown>> {
  const [row] = await sql.query<{ data: Record<string, unknown> }>('select internal.person_data($1) as data', [email]);
  return row?.data ?? {};
}

export async function correctPerson(sql: Sql, email: string, name: string, phone: string | null): Promise<number> {
  const [row] = await sql.query<{ n: number }>('select internal.correct_person($1, $2, $3) as n', [email, name, phone]);
  return row?.n ?? 0;
}

export async function erasePerson(
  sql: Sql,
  email: string,
  requestId: string,
  teamInbox: string,
): Promise<Record<string, number>> {
  const [row] = await sql.query<{ done: Record<string, number> }>(
    'select internal.erase_person($1, $2::bigint, $3) as done',
    [email, requestId, teamInbox],
  );
  return row?.done ?? {};
}
