/**
 * Keeps the market index fresh (docs/market.md, "Freshness"): every few minutes this server asks
 * the database to make it again if it is older than an hour (internal.refresh_market_index), which
 * does it once across servers; a run at start. A failure is logged once per kind and tried again.
 */
import type { Database } from '../db/database.ts';

export interface MarketService {
  start(): void;
  /** makes the index now if it is older than `maxAgeSeconds` (0: now, whatever its age); the rows written, or null */
  refresh(maxAgeSeconds?: number): Promise<number | null>;
  stop(): Promise<void>;
}

export const MARKET_INDEX_MAX_AGE_SECONDS = 3600;
const CHECK_EVERY_MS = 5 * 60_000;

export function createMarketService(options: { db: Database; log?: (line: string) => void }): MarketService {
  const log = options.log ?? (() => {});
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number | null> | undefined;
  let lastProblem = '';
  const refresh = (maxAgeSeconds = MARKET_INDEX_MAX_AGE_SECONDS) =>
    (running ??= options.db
      .transaction(
        async (tx) => {
          const [row] = await tx.query<{ n: number | null }>('select internal.refresh_market_index(make_interval(secs => $1)) as n', [maxAgeSeconds]);
          return row?.n ?? null;
        },
        { long: true },
      )
      .then((n) => {
        lastProblem = '';
        if (n !== null) log(`[market] the index made again: ${n} figures`);
        return n;
      })
      .finally(() => (running = undefined)));
  return {
    start() {
      if (timer) return;
      const tick = () =>
        void refresh().catch((error: unknown) => {
          const problem = error instanceof Error ? error.message : String(error);
          if (problem !== lastProblem) log(`[market] not now: ${problem}`);
          lastProblem = problem;
        });
      timer = setInterval(tick, CHECK_EVERY_MS);
      timer.unref();
      tick();
    },
    refresh,
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
