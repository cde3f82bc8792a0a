/**
 * The alert job in the long-running local server (docs/decisions.md #23): a run every
 * `intervalSeconds` (and one at start), never two at once in this process (server/periodic.ts); the mails it queues go
 * to the outbox at once. Runs in other processes (a second server, the deployed function's
 * scheduled call) are safe beside it: the job claims its searches (core/functions/alerts/run.ts).
 */
import { runAlerts, type AlertRunOptions, type AlertRunResult } from '../../core/functions/alerts/run.ts';
import type { TransactionalSql } from '../../core/functions/sql.ts';
import { periodic } from '../periodic.ts';

export interface AlertService {
  start(): void;
  /** runs the job now (or joins the run on its way) */
  run(): Promise<AlertRunResult>;
  stop(): Promise<void>;
}

export function createAlertService(
  options: AlertRunOptions & {
    sql: TransactionalSql;
    intervalSeconds: number;
    onQueued: () => void;
    log?: (line: string) => void;
  },
): AlertService {
  const log = options.log ?? (() => {});
  return periodic({
    name: 'alerts',
    everyMs: options.intervalSeconds * 1000,
    log,
    run: () =>
      runAlerts(options.sql, options, () => options.onQueued()).then((r) => {
        if (r.alerts || r.expired)
          log(
            `[alerts] ${r.searches} searches looked at, ${r.alerts} alerts queued, ${r.expired} unconfirmed requests expired (${r.ms} ms)`,
          );
        return r;
      }),
  });
}
