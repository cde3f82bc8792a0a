/**
 * Visits as the functions use them (docs/visits.md): a request stored with its inquiry, the times
 * checked against the agent's open times (internal.open_visit_times), the links' tokens (kept only
 * hashed, like the alerts': ../alerts/tokens.ts), and what a mail or a link's page shows of a
 * request. Plain SQL over any client.
 */
import type { VisitMode, VisitRequest } from '../../protocol/visits.ts';
import type { Sql } from '../sql.ts';
import { hashToken, newToken } from '../alerts/tokens.ts';
import { enqueueMail } from '../outbox/store.ts';

export type VisitPurpose = 'confirm' | 'propose' | 'cancel' | 'reschedule';
export type VisitHolder = 'agent' | 'visitor';

/** The times of `times` that are not open in this agent's calendar (null: the team's) right now. */
export async function closedTimes(sql: Sql, agentId: string | null, times: string[]): Promise<string[]> {
  const rows = await sql.query<{ t: string }>(
    `select t from unnest($2::timestamptz[]) as t
      where not exists (select 1 from internal.open_visit_times($1::bigint, t, t) o where o = t)`,
    [agentId, times],
  );
  return rows.map((r) => new Date(r.t).toISOString());
}

/** Stores a request with the inquiry it came as; its id. */
export async function insertVisitRequest(
  sql: Sql,
  r: {
    inquiryId: string;
    listingId: string;
    agentId: string | null;
    recipientEmail: string;
    visit: VisitRequest;
    name: string;
    email: string;
    phone: string;
    message: string;
    lang: string;
  },
): Promise<string> {
  const rows = await sql.query<{ id: string }>(
    `insert into internal.visit_requests (inquiry_id, listing_id, agent_id, recipient_email, mode, proposed, name, email, phone, message, lang, time_zone)
     values ($1::uuid, $2, $3, $4, $5, $6::timestamptz[], $7, $8, nullif($9, ''), nullif($10, ''), $11, $12)
     returning id::text as id`,
    [
      r.inquiryId,
      r.listingId,
      r.agentId,
      r.recipientEmail,
      r.visit.mode,
      r.visit.times,
      r.name,
      r.email,
      r.phone,
      r.message,
      r.lang,
      r.visit.timeZone,
    ],
  );
  return String(rows[0]?.id);
}

/** A request as its mails and pages show it: the listing, the agent, the visit once confirmed. */
export interface VisitRow extends Record<string, unknown> {
  id: string;
  inquiry_id: string | null;
  listing_id: string;
  title: string | null;
  address: string | null;
  city: string | null;
  agent_id: string | null;
  agent_name: string | null;
  agent_phone: string | null;
  recipient_email: string;
  mode: VisitMode;
  proposed: string[];
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  lang: 'en' | 'es';
  time_zone: string;
  status: 'requested' | 'confirmed' | 'cancelled';
  created_at: string;
  /** the visit, once one of the times is confirmed */
  visit_start: string | null;
  visit_end: string | null;
  visit_status: 'confirmed' | 'cancelled' | null;
  visit_sequence: number | null;
  location: string | null;
}

const VISIT_SELECT = `
  select r.id::text as id, r.inquiry_id::text as inquiry_id, r.listing_id::text as listing_id, l.title, l.address, l.city,
         r.agent_id::text as agent_id, nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), '') as agent_name, a.phone as agent_phone,
         r.recipient_email, r.mode, array(select to_json(p)#>>'{}' from unnest(r.proposed) p) as proposed,
         r.name, r.email, r.phone, r.message, r.lang, r.time_zone, r.status, r.created_at::text as created_at,
         to_json(lower(v.during))#>>'{}' as visit_start, to_json(upper(v.during))#>>'{}' as visit_end, v.status as visit_status,
         v.sequence as visit_sequence, v.location
    from internal.visit_requests r
    join internal.listings l on l.id = r.listing_id
    left join public.agents a on a.id = r.agent_id
    left join internal.visits v on v.request_id = r.id`;

export async function loadVisit(sql: Sql, requestId: string): Promise<VisitRow | null> {
  const rows = await sql.query<VisitRow>(`${VISIT_SELECT} where r.id = $1::bigint`, [requestId]);
  return rows[0] ?? null;
}

/** The request an inquiry came with, if it was one. */
export async function visitOfInquiry(sql: Sql, inquiryId: string): Promise<VisitRow | null> {
  const rows = await sql.query<VisitRow>(`${VISIT_SELECT} where r.inquiry_id = $1::uuid`, [inquiryId]);
  return rows[0] ?? null;
}

/** A new link for a request, kept hashed; its token goes into the mail being composed. */
export async function issueVisitToken(
  sql: Sql,
  requestId: string,
  link: { purpose: VisitPurpose; holder: VisitHolder; choice?: number; expiresAt: string | Date },
): Promise<string> {
  const token = newToken();
  await sql.query(
    'insert into internal.visit_tokens (token_hash, request_id, purpose, choice, holder, expires_at) values ($1, $2::bigint, $3, $4, $5, $6::timestamptz)',
    [
      await hashToken(token),
      requestId,
      link.purpose,
      link.choice ?? null,
      link.holder,
      new Date(link.expiresAt).toISOString(),
    ],
  );
  return token;
}

export interface VisitLink {
  request_id: string;
  purpose: VisitPurpose;
  choice: number | null;
  holder: VisitHolder;
  expired: boolean;
  used: boolean;
}

/** What a token opens (locked for the caller's transaction when `lock`), or null for one we never issued. */
export async function readVisitToken(sql: Sql, token: string, lock = false): Promise<VisitLink | null> {
  const rows = await sql.query<VisitLink & Record<string, unknown>>(
    `select request_id::text as request_id, purpose, choice, holder, expires_at <= internal.now() as expired, used_at is not null as used
       from internal.visit_tokens where token_hash = $1${lock ? ' for update' : ''}`,
    [await hashToken(token)],
  );
  return rows[0] ?? null;
}

export async function markVisitTokenUsed(sql: Sql, token: string): Promise<void> {
  await sql.query(
    'update internal.visit_tokens set used_at = internal.now() where token_hash = $1 and used_at is null',
    [await hashToken(token)],
  );
}

/** The agent's open times for a request's calendar over the next 14 days (to propose another). */
export async function openTimesOf(sql: Sql, agentId: string | null): Promise<string[]> {
  const rows = await sql.query<{ t: string }>(
    "select to_json(t)#>>'{}' as t from internal.open_visit_times($1::bigint, internal.now(), internal.now() + interval '14 days') t",
    [agentId],
  );
  return rows.map((r) => new Date(r.t).toISOString());
}

/**
 * Confirmed visits that start within the next 26 hours, were confirmed longer ago than that (a
 * visit confirmed for tomorrow morning needs no reminder of its confirmation) and have had no
 * reminder: their request ids.
 */
async function visitsToRemind(sql: Sql): Promise<Array<{ id: string; email: string }>> {
  return sql.query<{ id: string; email: string }>(
    `select v.request_id::text as id, r.email from internal.visits v join internal.visit_requests r on r.id = v.request_id
      where v.status = 'confirmed' and lower(v.during) > internal.now() + interval '2 hours' and lower(v.during) <= internal.now() + interval '26 hours'
        and v.confirmed_at < lower(v.during) - interval '26 hours'
        and not exists (select 1 from internal.mail_outbox o where o.kind = 'visit-reminder' and o.ref_id = v.request_id::text)`,
  );
}

/** Queues the reminders that are due (visitsToRemind); how many. */
export async function queueVisitReminders(sql: Sql): Promise<number> {
  let queued = 0;
  for (const { id, email } of await visitsToRemind(sql))
    if (await enqueueMail(sql, { kind: 'visit-reminder', refId: id, recipient: email })) queued++;
  return queued;
}
