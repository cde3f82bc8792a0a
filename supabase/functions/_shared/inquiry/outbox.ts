/**
 * Delivery from the stored outbox: due inquiries are claimed with a lease, sent, and marked sent;
 * a failure is retried with exponential backoff (capped), so an SMTP outage loses nothing and
 * delivery resumes by itself. A rejection that cannot succeed (5xx) is marked failed.
 */
import { composeInquiryMail, type MailMessage } from './mail.ts';
import { claimDue, markFailed, markSent, type Sql } from './store.ts';

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface OutboxOptions {
  from: string;
  siteUrl: string;
  domain?: string;
  batch?: number;
  leaseSeconds?: number;
  /** first retry delay; doubles each attempt */
  baseDelaySeconds?: number;
  maxDelaySeconds?: number;
}

export function retryDelay(attempts: number, base = 5, max = 600): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

function permanent(error: unknown): boolean {
  const code = (error as { responseCode?: number })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export async function drainOutbox(sql: Sql, mailer: Mailer, options: OutboxOptions): Promise<{ sent: number; retried: number; failed: number }> {
  const result = { sent: 0, retried: 0, failed: 0 };
  for (;;) {
    const due = await claimDue(sql, options.batch ?? 20, options.leaseSeconds ?? 120);
    if (!due.length) return result;
    await Promise.all(
      due.map(async (row) => {
        const message = composeInquiryMail(row, options);
        try {
          await mailer.send(message);
          await markSent(sql, row.id, message.messageId);
          result.sent++;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          if (permanent(error)) {
            await markFailed(sql, row.id, reason, null);
            result.failed++;
          } else {
            await markFailed(sql, row.id, reason, retryDelay(Number(row.attempts), options.baseDelaySeconds, options.maxDelaySeconds));
            result.retried++;
          }
        }
      }),
    );
  }
}
