/**
 * Delivery from internal.mail_outbox, shared by our server and the deployed Deno function.
 *
 * - A few senders work side by side (`concurrency`), each claiming one mail at a time, so one slow
 *   SMTP conversation holds back one mail, not the queue.
 * - A claim is a short lease (`leaseSeconds`) renewed while the SMTP server is talking: a process
 *   killed mid-send leaves mail that another worker takes over within one lease, not minutes later.
 * - A passing failure is retried with backoff (doubling, capped); `recoverIfSmtpIsBack()` probes the
 *   SMTP server and makes everything that waited for it due at once, so the backoff never keeps
 *   mail waiting after SMTP answers again.
 * - A mail the SMTP server accepted is marked sent before anything else is claimed; when the
 *   database is away at that moment, the worker remembers it and marks it first thing when the
 *   database is back, so a database outage never makes a mail go out twice.
 *
 * What remains: a process killed between the SMTP server's "accepted" and the database's "sent"
 * sends that mail once more after its lease; each message has a stable Message-ID for that case.
 *
 * Rows of other kinds (webhooks) go the same way through their `deliverers`: claimed, leased,
 * retried with their own backoff, marked delivered before anything else is claimed.
 */
import { isConnectionError } from '../db/pg.ts';
import type { Budget } from '../cpu-budget.ts';
import type { Sql } from '../sql.ts';
import {
  claimNext,
  makeWaitingDue,
  markDropped,
  markFailed,
  markSent,
  renewLease,
  waitingForSmtp,
  type OutboxMail,
} from './store.ts';

export interface MailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** stable per mail, so a resend after a crash can be recognised by mail systems */
  messageId: string;
  headers: Record<string, string>;
  /** a calendar invitation or cancellation (RFC 5546), sent as the mail's text/calendar part (docs/visits.md) */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** resolves when the mail server answers (SMTP: connect and greet); absent when there is nothing to probe */
  verify?(): Promise<unknown>;
}

/** Builds the message of a mail when it is sent; null drops it (what it was about went away). */
export type Composer = (sql: Sql, mail: OutboxMail) => Promise<MailMessage | null>;

/**
 * What delivers an outbox row that is not a mail (a webhook): its message id once delivered, null
 * when it is no longer wanted; a rejection is retried with its own backoff, up to `maxAttempts`,
 * unless it says it is `permanent`.
 */
export interface Deliverer {
  deliver(sql: Sql, item: OutboxMail): Promise<string | null>;
  maxAttempts: number;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
}

export interface OutboxWorkerOptions {
  sql: Sql;
  mailer: Mailer;
  composers: Record<string, Composer>;
  /** the rows of other kinds than mail, by kind (webhooks) */
  deliverers?: Record<string, Deliverer>;
  /** mails sent side by side (default 4) */
  concurrency?: number;
  /** a claim lasts this long unless renewed; it is renewed every quarter of it while sending (default 20 s) */
  leaseSeconds?: number;
  /** first retry delay, doubling per attempt (default 5 s) */
  baseDelaySeconds?: number;
  /** longest retry delay (default 600 s) */
  maxDelaySeconds?: number;
  log?: (line: string) => void;
}

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
  dropped: number;
}

/** A drain stopped by its budget says so: what is still due waits for the next call. */
export type BudgetedDrainResult = DrainResult & { more: boolean };

const OUTBOX_DEFAULTS = { concurrency: 4, leaseSeconds: 20, baseDelaySeconds: 5, maxDelaySeconds: 600 } as const;

function retryDelay(
  attempts: number,
  base: number = OUTBOX_DEFAULTS.baseDelaySeconds,
  max: number = OUTBOX_DEFAULTS.maxDelaySeconds,
): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** A rejection that cannot succeed later (SMTP 5xx: no such mailbox, refused; a mail API's refusal, http-mail.ts). */
function permanent(error: unknown): boolean {
  if ((error as { permanent?: unknown })?.permanent === true) return true;
  const code = (error as { responseCode?: number })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createOutboxWorker(options: OutboxWorkerOptions) {
  const { sql, mailer, composers } = options;
  const concurrency = Math.max(1, options.concurrency ?? OUTBOX_DEFAULTS.concurrency);
  const lease = options.leaseSeconds ?? OUTBOX_DEFAULTS.leaseSeconds;
  const log = options.log ?? (() => {});
  /** accepted by SMTP, not yet recorded as sent (the database was away) */
  const unconfirmed = new Map<string, { token: string; messageId: string }>();

  async function confirmPending(): Promise<void> {
    for (const [id, { token, messageId }] of unconfirmed) {
      await markSent(sql, id, token, messageId);
      unconfirmed.delete(id);
    }
  }

  /** A row that is not a mail, by its deliverer. */
  async function deliverOther(item: OutboxMail, deliverer: Deliverer): Promise<keyof DrainResult> {
    const token = item.lease_token;
    const renew = setInterval(() => void renewLease(sql, item.id, token, lease).catch(() => {}), (lease * 1000) / 4);
    let delivered: string | null;
    try {
      delivered = await deliverer.deliver(sql, item);
    } catch (error) {
      clearInterval(renew);
      if (isConnectionError(error) || isConnectionError((error as { cause?: unknown }).cause)) throw error;
      const attempts = Number(item.attempts);
      if ((error as { permanent?: boolean }).permanent || attempts >= deliverer.maxAttempts) {
        const why =
          attempts >= deliverer.maxAttempts
            ? `${message(error)} (given up after ${attempts} attempts)`
            : message(error);
        await markFailed(sql, item.id, token, why, null);
        log(`[outbox] ${item.kind} ${item.id} failed: ${why}`);
        return 'failed';
      }
      await markFailed(
        sql,
        item.id,
        token,
        message(error),
        retryDelay(attempts, deliverer.baseDelaySeconds, deliverer.maxDelaySeconds),
      );
      return 'retried';
    }
    clearInterval(renew);
    if (delivered === null) {
      await markDropped(sql, item.id, token, 'no longer wanted');
      return 'dropped';
    }
    return recordSent(item, token, delivered);
  }

  /** Delivered: marked sent before anything else is claimed (kept in memory while the database is away). */
  async function recordSent(item: OutboxMail, token: string, messageId: string): Promise<'sent'> {
    unconfirmed.set(item.id, { token, messageId });
    const recorded = await markSent(sql, item.id, token, messageId);
    unconfirmed.delete(item.id);
    if (!recorded) log(`[outbox] ${item.kind} ${item.id} was sent after its lease had been taken over`);
    return 'sent';
  }

  async function deliver(mail: OutboxMail): Promise<keyof DrainResult> {
    const other = options.deliverers?.[mail.kind];
    if (other) return deliverOther(mail, other);
    const token = mail.lease_token;
    const composer = composers[mail.kind];
    let composed: MailMessage | null;
    try {
      if (!composer) throw new Error(`no composer for mail of kind ${mail.kind}`);
      composed = await composer(sql, mail);
    } catch (error) {
      // the database went away while composing: the lease runs out and the mail is taken again
      if (isConnectionError(error) || isConnectionError((error as { cause?: unknown }).cause)) throw error;
      await markFailed(sql, mail.id, token, message(error), null);
      log(`[outbox] mail ${mail.id} (${mail.kind}) cannot be composed: ${message(error)}`);
      return 'failed';
    }
    if (!composed) {
      await markDropped(sql, mail.id, token, 'no longer wanted');
      return 'dropped';
    }
    const renew = setInterval(() => void renewLease(sql, mail.id, token, lease).catch(() => {}), (lease * 1000) / 4);
    try {
      await mailer.send(composed);
    } catch (error) {
      clearInterval(renew);
      if (permanent(error)) {
        await markFailed(sql, mail.id, token, message(error), null);
        return 'failed';
      }
      await markFailed(
        sql,
        mail.id,
        token,
        message(error),
        retryDelay(Number(mail.attempts), options.baseDelaySeconds, options.maxDelaySeconds),
        true,
      );
      return 'retried';
    }
    clearInterval(renew);
    return recordSent(mail, token, composed.messageId);
  }

  /**
   * One sender: claims and sends one mail after another until nothing is due (or until `more()`
   * says to look once more, when mail was queued meanwhile). Rejects when the database is away;
   * nothing is lost, what it held goes back when its lease runs out.
   */
  async function work(more: () => boolean = () => false, budget?: Budget): Promise<DrainResult & { stopped?: true }> {
    await confirmPending();
    const result: DrainResult = { sent: 0, retried: 0, failed: 0, dropped: 0 };
    for (;;) {
      if (budget?.spent()) return { ...result, stopped: true };
      const mail = await claimNext(sql, lease, crypto.randomUUID());
      if (!mail) {
        if (more()) continue;
        return result;
      }
      result[await deliver(mail)]++;
    }
  }

  /**
   * Sends everything that is due, `concurrency` senders side by side, or until `budget` is spent
   * (a deployed function's request: core/functions/cpu-budget.ts); `more` when it stopped for the
   * budget. Rejects when the database is away.
   */
  async function drain(budget?: Budget): Promise<BudgetedDrainResult> {
    const results = await Promise.allSettled(Array.from({ length: concurrency }, () => work(undefined, budget)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const total: DrainResult = { sent: 0, retried: 0, failed: 0, dropped: 0 };
    for (const r of results)
      if (r.status === 'fulfilled')
        for (const k of Object.keys(total) as Array<keyof DrainResult>) total[k] += r.value[k];
    return { ...total, more: results.some((r) => r.status === 'fulfilled' && r.value.stopped === true) };
  }

  /**
   * When mail waits for the SMTP server, asks the server whether it answers; if it does, that mail
   * is due now. Returns how many mails became due.
   */
  async function recoverIfSmtpIsBack(): Promise<number> {
    if (!mailer.verify) return 0;
    if ((await waitingForSmtp(sql)) === 0) return 0;
    try {
      await mailer.verify();
    } catch {
      return 0;
    }
    const due = await makeWaitingDue(sql);
    if (due) log(`[outbox] the mail server answers again: ${due} held mails are due now`);
    return due;
  }

  return { work, drain, recoverIfSmtpIsBack, concurrency };
}
