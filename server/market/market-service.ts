/**
 * Keeps the market index fresh (docs/market.md, "Freshness"): every few minutes this server asks
 * the database to make it again if it is older than an hour (internal.refresh_market_index), which
 * does it once across servers; a run at start (server/periodic.ts).
 */
import type { Database } from '../db/database.ts';
import { periodic } from '../periodic.ts';

export interface MarketService {
  start(): void;
  /** makes the index now if it is older than `maxAgeSeconds` (0: now, whatever its age); the rows written, or null */
  refresh(maxAgeSeconds?: number): Promise<number | null>;
  stop(): Promise<void>;
}

const MARKET_INDEX_MAX_AGE_SECONDS = 3600;
const CHECK_EVERY_MS = 5 * 60_000;

export function createMarketService(options: { db: Database; log?: (line: string) => void }): MarketService {
  const log = options.log ?? (() => {});
  const refresh = (maxAgeSeconds: number) =>
    options.db
      .transaction(
        async (tx) => {
          const [row] = await tx.query<{ n: number | null }>(
            'select internal.refresh_market_index(make_interval(secs => $1)) as n',
            [maxAgeSeconds],
          );
          return row?.n ?? null;
        },
        { long: true },
      )
      .then(async (n) => {
        if (n !== null) {
          log(`[market] the index made again: ${n} figures`);
          // with the hourly work, the copies of open houses that are over go (docs/visits.md "Open houses")
          await options.db.jobs
            .query('select internal.forget_past_open_houses()')
            .catch((error: unknown) => log(`[market] past open houses: ${(error as Error).message}`));
        }
        return n;
      });
  const job = periodic({
    name: 'market',
    everyMs: CHECK_EVERY_MS,
    run: () => refresh(MARKET_INDEX_MAX_AGE_SECONDS),
    log,
  });
  return {
    start: job.start,
    // asked for with an age (the tests: 0) it runs apart from the periodic check, which may find it fresh
    refresh: (maxAgeSeconds?: number) => (maxAgeSeconds === undefined ? job.run() : refresh(maxAgeSeconds)),
    stop: job.stop,
  };
}
