/**
 * Nothing kept for ever (docs/privacy.md "Retention"): every hour this server asks the database to
 * apply the retention periods (internal.apply_retention), which does it once across servers and
 * not again within the hour; a run at start (server/periodic.ts).
 */
import type { Database } from '../db/database.ts';
import type { PrivacySettings } from '../../core/protocol/privacy.ts';
import { periodic } from '../periodic.ts';

const EVERY_MS = 60 * 60_000;

export type RetentionOutcome = {
  leads: number;
  mails: number;
  pending_searches: number;
  privacy_requests: number;
} | null;

export function createRetentionService(options: {
  db: Database;
  retention: PrivacySettings['retention'];
  log?: (line: string) => void;
  /** how often it runs by itself (default an hour; 0: only when asked, a test's servers) */
  everyMs?: number | undefined;
}) {
  const log = options.log ?? (() => {});
  /** one run (`minGapSeconds`: not again within it of the last, across servers); what it did, or null when another server has it or it ran lately */
  const apply = (minGapSeconds = EVERY_MS / 1000) =>
    options.db
      .transaction(async (tx) => {
        const { leadsMonths, mailsDays, pendingDays } = options.retention;
        const [row] = await tx.query<{ done: RetentionOutcome }>(
          'select internal.apply_retention($1, $2, $3, make_interval(secs => $4)) as done',
          [leadsMonths, mailsDays, pendingDays, minGapSeconds],
        );
        return row?.done ?? null;
      })
      .then((done) => {
        if (done && (done.leads || done.mails || done.pending_searches || done.privacy_requests))
          log(`[retention] ${JSON.stringify(done)}`);
        return done;
      });
  const job = periodic({ name: 'retention', everyMs: options.everyMs ?? EVERY_MS, run: () => apply(), log });
  return { start: job.start, stop: job.stop, apply };
}
