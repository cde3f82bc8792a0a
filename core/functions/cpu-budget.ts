/**
 * A request's share of CPU time (docs/deployment.md "The functions"): Supabase stops a
 * function's request after 2 s of CPU, so work of unbounded size done for one request (the mail a
 * scheduled call sends, the searches an alert run goes through) stops taking more once its budget
 * is spent and leaves the rest, still due, for the next call. Measured by the runtime's CPU clock
 * (process.cpuUsage, which Deno provides) where there is one, else by the wall clock, which never
 * runs slower than the CPU's.
 */
export interface Budget {
  /** true once the work done since the budget was made has used it up */
  spent(): boolean;
}

type CpuUsage = () => { user: number; system: number };

function cpuClock(): () => number {
  const usage = (globalThis as { process?: { cpuUsage?: CpuUsage } }).process?.cpuUsage;
  if (typeof usage === 'function') {
    return () => {
      const u = usage();
      return (u.user + u.system) / 1000;
    };
  }
  return () => performance.now();
}

/** A budget of `ms` of CPU from now. */
export function cpuBudget(ms: number, clock: () => number = cpuClock()): Budget {
  const start = clock();
  return { spent: () => clock() - start >= ms };
}
