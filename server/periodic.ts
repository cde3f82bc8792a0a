/**
 * A job this server runs every so often (the alerts, the market index): one run at start, then one
 * every `everyMs` (none when 0), never two at once in this process (a call while one runs joins
 * it); a failure is logged once per kind of trouble, not once per tick of an outage. Runs in other
 * processes are the job's own business (claims, advisory locks).
 */
export interface Periodic<T> {
  start(): void;
  /** runs the job now, or joins the run on its way */
  run(): Promise<T>;
  stop(): Promise<void>;
}

export function periodic<T>(options: {
  name: string;
  everyMs: number;
  run: () => Promise<T>;
  log?: (line: string) => void;
}): Periodic<T> {
  const log = options.log ?? (() => {});
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<T> | undefined;
  let lastProblem = '';
  const run = () =>
    (running ??= options
      .run()
      .then((result) => {
        lastProblem = '';
        return result;
      })
      .finally(() => (running = undefined)));
  return {
    start() {
      if (timer || !options.everyMs) return;
      const tick = () =>
        void run().catch((error: unknown) => {
          const problem = error instanceof Error ? error.message : String(error);
          if (problem !== lastProblem) log(`[${options.name}] not now: ${problem}`);
          lastProblem = problem;
        });
      timer = setInterval(tick, options.everyMs);
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
