/**
 * The one clock every rule that reads the time reads (docs/decisions.md #33): in TypeScript this
 * module, in SQL `internal.now()` (supabase/schemas/00_setup.sql). Both are the wall clock moved
 * by one offset, which only the tests set: a test states the instant it runs at (pinClock), the
 * processes it starts inherit the offset (EXP_CLOCK_OFFSET_MS), and every database session our
 * code opens carries it (`exp.clock_offset`, clockSessionOptions), so PostgreSQL's rules and ours
 * read the same instant. The clock runs on from that instant, so what waits (deadlines, retries,
 * a window that must close) still waits as it would.
 *
 * What is not a rule keeps the wall clock: a deadline's or a benchmark's elapsed time, a cache's
 * age, a log line's stamp, a signature's timestamp that another party checks against its own clock.
 */

/** The environment variable that carries the offset to child processes (milliseconds, may be negative). */
export const CLOCK_OFFSET_ENV = 'EXP_CLOCK_OFFSET_MS';

/** The PostgreSQL setting internal.now() adds to now(): an interval. */
export const CLOCK_SETTING = 'exp.clock_offset';

type Env = Record<string, string | undefined>;

/** Node's and Deno's environment. A browser has none: its clock is its own (the tests set it, tests/e2e/fixtures.ts). */
function env(): Env | undefined {
  return (globalThis as { process?: { env?: Env } }).process?.env;
}

/** Read each time: a process that pins the clock after this module loaded is heard. (server/config.ts refuses a value that is not a number.) */
function offset(): number {
  return Math.round(Number(env()?.[CLOCK_OFFSET_ENV])) || 0;
}

/** Now, in milliseconds since 1970, as every rule reads it. */
export function now(): number {
  return Date.now() + offset();
}

/** Now as a Date. */
export function nowDate(): Date {
  return new Date(now());
}

/** How far the clock stands from the wall clock, in milliseconds. */
export function clockOffsetMs(): number {
  return offset();
}

/**
 * Sets the clock so that it reads `at` now (and runs on from there), for this process and, through
 * the environment, the processes it starts after. Answers the offset.
 */
export function pinClock(at: string | number | Date): number {
  const instant = typeof at === 'number' ? at : new Date(at).getTime();
  if (!Number.isFinite(instant)) throw new Error(`pinClock: not an instant: ${String(at)}`);
  return setClockOffset(instant - Date.now());
}

/** Sets the offset itself (0: the wall clock), in a runtime with an environment. */
export function setClockOffset(ms: number): number {
  const e = env();
  if (!e) throw new Error('the clock is set through the environment: a browser sets its own');
  const rounded = Math.round(ms);
  if (rounded) e[CLOCK_OFFSET_ENV] = String(rounded);
  else delete e[CLOCK_OFFSET_ENV];
  return rounded;
}

/** The clock's offset as a session setting (`-c exp.clock_offset=...` among a connection's start-up options), or '' when there is none. */
export function clockSessionOptions(): string {
  const ms = offset();
  return ms ? `-c ${CLOCK_SETTING}=${ms}ms` : '';
}
