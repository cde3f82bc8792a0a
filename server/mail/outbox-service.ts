/**
 * The outbox in the long-running local server. Up to `concurrency` senders run side by side and
 * each picks up new work as soon as it is free, so a hung SMTP conversation occupies one sender and
 * nothing else. Senders start when a mail is queued (`kick`), when the next mail falls due (a retry's
 * time, a lease that ran out) and at least every `intervalMs` (mail queued by another process).
 * While mail waits for the SMTP server, the server is probed every `probeMs` and the held mail is
 * sent as soon as it answers.
 */
import { nextDueInSeconds } from '../../core/functions/outbox/store.ts';
import {
  createOutboxWorker,
  type Composer,
  type DrainResult,
  type Mailer,
  type OutboxWorkerOptions,
} from '../../core/functions/outbox/worker.ts';
import type { Sql } from '../../core/functions/sql.ts';

export interface OutboxServiceOptions extends Partial<
  Pick<OutboxWorkerOptions, 'concurrency' | 'leaseSeconds' | 'baseDelaySeconds' | 'maxDelaySeconds' | 'deliverers'>
> {
  sql: Sql;
  mailer: Mailer;
  composers: Record<string, Composer>;
  /** the longest pause between two looks at the outbox (default 5 s) */
  intervalMs?: number;
  /** how often the SMTP server of held mail is probed (default 5 s) */
  probeMs?: number;
  log?: (line: string) => void;
}

export interface OutboxService {
  /** starts the timers (once the database is ready) */
  start(): void;
  /** a mail was queued: send it now */
  kick(): void;
  /** sends what is due and resolves when every sender is idle again (tests) */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export function createOutboxService(options: OutboxServiceOptions): OutboxService {
  const log = options.log ?? (() => {});
  const worker = createOutboxWorker({ ...options, log });
  const intervalMs = options.intervalMs ?? 5000;
  const probeMs = options.probeMs ?? 5000;
  const senders = new Set<Promise<void>>();
  let kicks = 0;
  let started = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let probe: ReturnType<typeof setInterval> | undefined;
  let lastProblem = '';

  const report = (r: DrainResult) => {
    if (r.sent || r.retried || r.failed || r.dropped)
      log(`[outbox] sent ${r.sent}, to retry ${r.retried}, failed ${r.failed}, dropped ${r.dropped}`);
  };

  const schedule = (ms: number) => {
    if (stopped || !started) return;
    clearTimeout(timer);
    timer = setTimeout(fill, Math.max(20, Math.min(ms, intervalMs)));
    timer.unref();
  };

  /** when the last sender is done: the next look at the outbox */
  const whenIdle = async (trouble: boolean) => {
    if (senders.size > 0 || stopped) return;
    if (trouble) return schedule(1000);
    try {
      const due = await nextDueInSeconds(options.sql);
      schedule(due === null ? intervalMs : due * 1000 + 20);
    } catch {
      schedule(1000);
    }
  };

  function fill(): void {
    if (stopped || !started) return;
    while (senders.size < worker.concurrency) {
      let seen = kicks;
      // look once more when mail was queued while this sender was finding nothing
      const more = () => {
        const again = kicks !== seen;
        seen = kicks;
        return again;
      };
      const sender: Promise<void> = worker.work(more).then(
        (r) => {
          lastProblem = '';
          report(r);
          senders.delete(sender);
          void whenIdle(false);
        },
        (error: unknown) => {
          const problem = error instanceof Error ? error.message : String(error);
          // one line per kind of trouble, not one per second of an outage
          if (problem !== lastProblem) log(`[outbox] not now: ${problem}`);
          lastProblem = problem;
          senders.delete(sender);
          void whenIdle(true);
        },
      );
      senders.add(sender);
    }
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      probe = setInterval(() => {
        if (stopped) return;
        worker.recoverIfSmtpIsBack().then(
          (due) => {
            if (due) fill();
          },
          () => {},
        );
      }, probeMs);
      probe.unref();
      fill();
    },
    kick() {
      kicks++;
      fill();
    },
    async drain() {
      kicks++;
      fill();
      while (senders.size) await Promise.allSettled([...senders]);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(probe);
      await Promise.allSettled([...senders]);
    },
  };
}
