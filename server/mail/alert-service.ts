/**
 * The alert job in the long-running local server (docs/decisions.md #23): a run every
 * `intervalSeconds` (and one at start), never two at once in this process; the mails it queues go
 * to the outbox at once. Runs in other processes (a second server, the deployed function's
 * scheduled call) are safe beside it: the job claims its searches (core/functions/alerts/run.ts).
 */
import { runAlerts, type AlertRunOptions, type AlertRunResult } from '../../core/functions/alerts/run.ts';
import type { TransactionalSql } from '../../core/functions/sql.ts';

export interface AlertService {
  start(): void;
  /** runs the job now (or joins the run on its way) */
  run(): Promise<AlertRunResult>;
  stop(): Promise<void>;
}

export function createAlertService(options: AlertRunOptions & { sql: TransactionalSql; intervalSeconds: number; onQueued: () => void; log?: (line: string) => void }): AlertService {
  const log = options.log ?? (() => {});
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<AlertRunResult> | undefined;
  let lastProblem = '';
  const run = () =>
    (running ??= runAlerts(options.sql, options, () => options.onQueued())
      .then((r) => {
        lastProblem = '';
        if (r.alerts || r.expired) log(`[alerts] ${r.searches} searches looked at, ${r.alerts} alerts queued, ${r.expired} unconfirmed requests expired (${r.ms} ms)`);
        return r;
      })
      .finally(() => (running = undefined)));
  return {
    start() {
      if (timer || !options.intervalSeconds) return;
      const tick = () =>
        void run().catch((error: unknown) => {
          const problem = error instanceof Error ? error.message : String(error);
          // one line per kind of trouble, not one per minute of an outage
          if (problem !== lastProblem) log(`[alerts] not now: ${problem}`);
          lastProblem = problem;
        });
      timer = setInterval(tick, options.intervalSeconds * 1000);
      timer.unref();
      tick();
    },
    run,
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
