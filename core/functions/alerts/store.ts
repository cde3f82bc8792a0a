/**
 * The saved searches as the function uses them: the idempotent, rate-limited insert of a request,
 * and what a link's token may do (confirm, read and change the settings, unsubscribe). Plain SQL
 * over any client with `query(sql, params)`, like the inquiries (../inquiry/store.ts).
 */
import type { Attribution } from '../../protocol/attribution.ts';
import type { HomeFollow, MarketFollow, SavedFrequency } from '../../protocol/alerts.ts';
import type { FilterArgs } from '../../protocol/filters.ts';
import type { Sql } from '../sql.ts';
import type { TokenPurpose } from './tokens.ts';
import type { Lang } from '../../lang.ts';

/** An unconfirmed request is gone after this many hours. */
const CONFIRM_HOURS = 48;
/** A new confirmation mail for the same pending request after this many minutes (a lost mail), not before. */
export const RESEND_MINUTES = 10;

/**
 * Confirmation mails in 24 hours: to an address that never confirmed a search (anyone may type it),
 * to one that did, and from one client (whatever addresses it types). Beyond them a request is kept
 * but mailed nothing (the address) or refused (the client): a form is no way to mail strangers.
 */
export const CONFIRM_MAILS = { unprovenAddress: 3, provenAddress: 10, client: 10 } as const;

/**
 * Confirmation mails queued in the last 24 hours for this address's mailbox (internal.mailbox():
 * case and a "+tag" aside, so ana+1@, ana+2@ ... are one person's) and from this client.
 */
export async function confirmMailsToday(
  sql: Sql,
  emailKey: string,
  clientHash: string,
): Promise<{ address: number; client: number; proven: boolean }> {
  const rows = await sql.query<{ address: number | string; client: number | string; proven: boolean }>(
    `select count(*) filter (where internal.mailbox(s.email_key) = internal.mailbox($1)) as address, count(*) filter (where s.client_hash = $2) as client,
            exists (select 1 from internal.saved_searches p where internal.mailbox(p.email_key) = internal.mailbox($1) and p.confirmed_at is not null) as proven
       from internal.mail_outbox o join internal.saved_searches s on s.id::text = split_part(o.ref_id, ':', 1)
      where o.kind = 'alert-confirm' and o.created_at > internal.now() - interval '24 hours' and (internal.mailbox(s.email_key) = internal.mailbox($1) or s.client_hash = $2)`,
    [emailKey, clientHash],
  );
  const r = rows[0];
  return { address: Number(r?.address ?? 0), client: Number(r?.client ?? 0), proven: Boolean(r?.proven) };
}

export type SearchStatus = 'pending' | 'active' | 'paused' | 'unsubscribed' | 'expired';

export interface SavedSearch extends Record<string, unknown> {
  id: string;
  email: string;
  filters: FilterArgs;
  /** a market follow (docs/market.md "Follow a market"); null for a search's alerts */
  market: MarketFollow | null;
  /** a home report (docs/valuation.md "A report every month"); null otherwise */
  home: HomeFollow | null;
  frequency: SavedFrequency;
  lang: Lang;
  status: SearchStatus;
  created_at: string;
  expires_at: string;
  confirmed_at: string | null;
  lead_agent_id: string | null;
  origin: string | null;
  page_url: string | null;
  element: string | null;
  utm: Record<string, string> | null;
}

const COLUMNS =
  's.id::text as id, s.email, s.filters, s.market, s.home, s.frequency, s.lang, s.status, s.created_at, s.expires_at, s.confirmed_at, s.lead_agent_id::text as lead_agent_id, s.origin, s.page_url, s.element, s.utm';

export async function byIdempotencyKey(sql: Sql, key: string): Promise<string | null> {
  const rows = await sql.query<{ id: string }>(
    'select id::text as id from internal.saved_searches where idempotency_key = $1',
    [key],
  );
  return rows[0]?.id ?? null;
}

/** The live saved search of this address for these filters (pending, active or paused), locked. */
export async function sameSearch(
  sql: Sql,
  emailKey: string,
  filtersKey: string,
): Promise<(SavedSearch & { confirm_sent_at: string | null }) | null> {
  const rows = await sql.query<SavedSearch & { confirm_sent_at: string | null }>(
    `select ${COLUMNS},
            (select max(o.created_at) from internal.mail_outbox o where o.kind = 'alert-confirm' and split_part(o.ref_id, ':', 1) = s.id::text) as confirm_sent_at
       from internal.saved_searches s
      where s.email_key = $1 and s.filters_key = $2 and s.status in ('pending', 'active', 'paused') and not s.spam
      for update`,
    [emailKey, filtersKey],
  );
  return rows[0] ?? null;
}

export interface NewSearch {
  email: string;
  emailKey: string;
  filters: FilterArgs;
  filtersKey: string;
  market: MarketFollow | null;
  home: HomeFollow | null;
  frequency: SavedFrequency;
  lang: Lang;
  idempotencyKey: string;
  clientHash: string;
  spam: boolean;
  origin: string;
  userAgent: string;
  leadAgentId: string | null;
  source: Attribution | null;
}

export async function insertSearch(sql: Sql, s: NewSearch): Promise<string> {
  const rows = await sql.query<{ id: string }>(
    `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, expires_at, idempotency_key, client_hash, spam, origin, user_agent,
                                          lead_agent_id, page_url, element, utm, market, home)
     values ($1, $2, $3::jsonb, $4, $5, $6, internal.now() + make_interval(hours => $7), $8, $9, $10, left($11, 200), left($12, 300),
             $13, nullif($14, ''), $15, $16::jsonb, $17::jsonb, $18::jsonb)
     returning id::text as id`,
    [
      s.email,
      s.emailKey,
      JSON.stringify(s.filters),
      s.filtersKey,
      s.frequency,
      s.lang,
      CONFIRM_HOURS,
      s.idempotencyKey,
      s.clientHash,
      s.spam,
      s.origin,
      s.userAgent,
      s.leadAgentId,
      s.source?.page ?? '',
      s.source?.element ?? null,
      s.source ? JSON.stringify(s.source.utm) : null,
      s.market ? JSON.stringify(s.market) : null,
      s.home ? JSON.stringify(s.home) : null,
    ],
  );
  return (rows[0] as { id: string }).id;
}

/** A pending request asked for again after its mail was lost: it lives another CONFIRM_HOURS. */
export async function extendPending(sql: Sql, id: string): Promise<void> {
  await sql.query(
    "update internal.saved_searches set expires_at = internal.now() + make_interval(hours => $2) where id = $1 and status = 'pending'",
    [id, CONFIRM_HOURS],
  );
}

export interface TokenRow extends Record<string, unknown> {
  purpose: TokenPurpose;
  expired: boolean;
  used: boolean;
  search: SavedSearch;
}

/** The token's search (locked for the change the action makes), or null for a token we never issued. */
export async function byToken(sql: Sql, tokenHash: string): Promise<TokenRow | null> {
  const rows = await sql.query<
    SavedSearch & { purpose: TokenPurpose; token_expired: boolean; used: boolean; pending_expired: boolean }
  >(
    `select ${COLUMNS}, t.purpose, t.expires_at < internal.now() as token_expired, t.used_at is not null as used,
            (s.status = 'pending' and s.expires_at < internal.now()) as pending_expired
       from internal.saved_search_tokens t join internal.saved_searches s on s.id = t.search_id
      where t.token_hash = $1
      for update of s`,
    [tokenHash],
  );
  const row = rows[0];
  if (!row) return null;
  const { purpose, token_expired, used, pending_expired, ...search } = row;
  if (pending_expired) search.status = 'expired';
  return { purpose, expired: token_expired || pending_expired, used, search: search as SavedSearch };
}

export async function markTokenUsed(sql: Sql, tokenHash: string): Promise<void> {
  await sql.query(
    'update internal.saved_search_tokens set used_at = coalesce(used_at, internal.now()) where token_hash = $1',
    [tokenHash],
  );
}

/** When a frequency's next alert is due, from now (a market follow's: early next month, internal.next_market_mail). */
const NEXT_RUN =
  "case $2::text when 'monthly' then internal.next_market_mail(internal.now()) else internal.now() + case $2::text when 'daily' then interval '1 day' when 'weekly' then interval '7 days' else interval '0' end end";

/**
 * Confirmed: alerts start now. What came on the market before confirming is not news: the
 * high-water mark starts here.
 */
export async function activate(sql: Sql, id: string, frequency: SavedFrequency): Promise<void> {
  await sql.query(
    `update internal.saved_searches set status = 'active', confirmed_at = internal.now(), sent_through = internal.now(), next_run_at = ${NEXT_RUN} where id = $1`,
    [id, frequency],
  );
}

export async function setFrequency(sql: Sql, id: string, frequency: SavedFrequency): Promise<void> {
  await sql.query(
    `update internal.saved_searches set frequency = $2, next_run_at = ${NEXT_RUN} where id = $1 and status in ('active', 'paused')`,
    [id, frequency],
  );
}

/** Paused: no alert until resumed; resumed, what came while paused is not sent (the mark moves on). */
export async function setPaused(sql: Sql, id: string, paused: boolean): Promise<void> {
  if (paused)
    await sql.query("update internal.saved_searches set status = 'paused' where id = $1 and status = 'active'", [id]);
  else
    await sql.query(
      `update internal.saved_searches set status = 'active', sent_through = internal.now(), next_run_at = ${NEXT_RUN} where id = $1 and status = 'paused'`,
      [id, await frequencyOf(sql, id)],
    );
}

async function frequencyOf(sql: Sql, id: string): Promise<string> {
  const rows = await sql.query<{ frequency: string }>('select frequency from internal.saved_searches where id = $1', [
    id,
  ]);
  return rows[0]?.frequency ?? 'daily';
}

/** Unsubscribed, at once: no alert is sent from now on (a queued one is dropped when its turn comes). */
export async function unsubscribe(sql: Sql, id: string): Promise<void> {
  // with the consent it relied on, if any (a home report's; supabase/schemas/54_consents.sql)
  await sql.query('select internal.unsubscribe_search($1)', [id]);
}

/** Unconfirmed requests past their time: expired, their links dead. */
export async function expirePending(sql: Sql): Promise<number> {
  const rows = await sql.query(
    "update internal.saved_searches set status = 'expired' where status = 'pending' and expires_at < internal.now() returning id",
  );
  return rows.length;
}
