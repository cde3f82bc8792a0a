/**
 * internal.mail_outbox as the worker uses it. Every change of a claimed mail names the lease token
 * it was claimed with, so a worker whose lease ran out (and was taken over) changes nothing.
 */
import type { Sql } from '../sql.ts';

export interface OutboxMail extends Record<string, unknown> {
  id: string;
  kind: string;
  ref_id: string;
  recipient: string;
  payload: Record<string, unknown>;
  attempts: number;
  lease_token: string;
}

export interface NewMail {
  kind: string;
  refId: string;
  recipient: string;
  payload?: Record<string, unknown>;
  /** not before this many seconds from now (a digest's hour) */
  delaySeconds?: number;
}

/** Queues a mail, in the caller's transaction; a second queueing of the same kind and ref is ignored (internal.enqueue_mail, the one way). */
export async function enqueueMail(sql: Sql, mail: NewMail): Promise<boolean> {
  const [row] = await sql.query<{ queued: boolean }>(
    'select internal.enqueue_mail($1, $2, $3, $4::jsonb, $5) as queued',
    [mail.kind, mail.refId, mail.recipient, JSON.stringify(mail.payload ?? {}), mail.delaySeconds ?? 0],
  );
  return row?.queued === true;
}

/**
 * Takes the next due mail for `leaseSeconds`: a pending one whose time has come, or one whose
 * sender stopped renewing its lease (a process that died mid-send). SKIP LOCKED lets several
 * workers and processes share the outbox.
 */
export async function claimNext(sql: Sql, leaseSeconds: number, token: string): Promise<OutboxMail | null> {
  const rows = await sql.query<OutboxMail>(
    `update internal.mail_outbox o
        set status = 'sending', attempts = o.attempts + 1, lease_token = $2::uuid,
            locked_until = internal.now() + make_interval(secs => $1)
      where o.id = (
        select id from internal.mail_outbox
         where (status = 'pending' and next_attempt_at <= internal.now())
            or (status = 'sending' and locked_until < internal.now())
         order by next_attempt_at, id
         limit 1
         for update skip locked)
     returning o.id::text as id, o.kind, o.ref_id, o.recipient, o.payload, o.attempts, o.lease_token::text as lease_token`,
    [leaseSeconds, token],
  );
  return rows[0] ?? null;
}

/** Keeps a mail that is being sent from being taken over. */
export async function renewLease(sql: Sql, id: string, token: string, leaseSeconds: number): Promise<boolean> {
  const rows = await sql.query(
    "update internal.mail_outbox set locked_until = internal.now() + make_interval(secs => $3) where id = $1 and lease_token = $2::uuid and status = 'sending' returning id",
    [id, token, leaseSeconds],
  );
  return rows.length > 0;
}

export async function markSent(sql: Sql, id: string, token: string, messageId: string): Promise<boolean> {
  const rows = await sql.query(
    "update internal.mail_outbox set status = 'sent', sent_at = internal.now(), message_id = $3, locked_until = null, last_error = null, transient_failure = false where id = $1 and lease_token = $2::uuid and status = 'sending' returning id",
    [id, token, messageId],
  );
  return rows.length > 0;
}

/** A failure: retried after `retryInSeconds` (transient when only time can fix it), or given up when null. */
export async function markFailed(
  sql: Sql,
  id: string,
  token: string,
  error: string,
  retryInSeconds: number | null,
  transient = false,
): Promise<void> {
  await sql.query(
    `update internal.mail_outbox
        set status = case when $4::double precision is null then 'failed' else 'pending' end,
            next_attempt_at = internal.now() + make_interval(secs => coalesce($4::double precision, 0)),
            last_error = left($3, 500), locked_until = null, transient_failure = $5
      where id = $1 and lease_token = $2::uuid and status = 'sending'`,
    [id, token, error, retryInSeconds, transient],
  );
}

/** The mail is no longer wanted (what it was about went away). */
export async function markDropped(sql: Sql, id: string, token: string, reason: string): Promise<void> {
  await sql.query(
    "update internal.mail_outbox set status = 'dropped', last_error = left($3, 500), locked_until = null where id = $1 and lease_token = $2::uuid and status = 'sending'",
    [id, token, reason],
  );
}

/**
 * Seconds until the next mail falls due (0: now), or null when nothing waits. (Not greatest(0, ...)
 * in SQL: GREATEST passes over a NULL, so an empty outbox read 0, "due now", and an idle server
 * looked at it every 20 ms.)
 */
export async function nextDueInSeconds(sql: Sql): Promise<number | null> {
  const rows = await sql.query<{ s: number | string | null }>(
    `select extract(epoch from least(
        (select min(next_attempt_at) from internal.mail_outbox where status = 'pending'),
        (select min(locked_until) from internal.mail_outbox where status = 'sending')) - internal.now())::double precision as s`,
  );
  const s = rows[0]?.s;
  return s === null || s === undefined ? null : Math.max(0, Number(s));
}

/** How many mails wait for the SMTP server to be back. */
export async function waitingForSmtp(sql: Sql): Promise<number> {
  const rows = await sql.query<{ n: number | string }>(
    "select count(*) as n from internal.mail_outbox where status = 'pending' and transient_failure and next_attempt_at > internal.now()",
  );
  return Number(rows[0]?.n ?? 0);
}

/** SMTP answers again: whatever waited for it is due now, whatever its backoff said. */
export async function makeWaitingDue(sql: Sql): Promise<number> {
  const rows = await sql.query(
    "update internal.mail_outbox set next_attempt_at = internal.now() where status = 'pending' and transient_failure and next_attempt_at > internal.now() returning id",
  );
  return rows.length;
}
