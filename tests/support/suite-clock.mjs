// The instant every suite runs at (docs/decisions.md #33), plain JS so that the configs loaded
// without a TypeScript loader (web-test-runner's) pin it too. A Wednesday in the middle of a month,
// in Ecuador's morning: what a test expects is what the rules say then, whatever the machine's
// date. Tests of the calendar's edges pin instants of their own (tests/contract/clock.test.ts).
//
// The offset travels to every process the run starts as EXP_CLOCK_OFFSET_MS (core/clock.ts
// CLOCK_OFFSET_ENV); set once, by whichever config or runner comes first, so all of them agree.
export const SUITE_INSTANT = '2026-06-17T10:00:00-05:00';

export const SUITE_CLOCK_ENV = 'EXP_CLOCK_OFFSET_MS';

/** Pins the run's clock at SUITE_INSTANT unless it is pinned already; answers the offset in milliseconds. */
export function pinSuiteClock() {
  if (!process.env[SUITE_CLOCK_ENV]) process.env[SUITE_CLOCK_ENV] = String(Date.parse(SUITE_INSTANT) - Date.now());
  return Number(process.env[SUITE_CLOCK_ENV]);
}

/**
 * In a page (addInitScript): its Date reads the run's clock, the wall clock moved by `offset`
 * milliseconds, and runs on from there. Only Date: timers, animation frames and performance keep
 * the wall clock (Playwright's clock.install fakes them all, and the map's tiles and the resource
 * timings the tests read stop with them).
 */
export function shiftDate(offset) {
  const Wall = Date;
  if (Wall.exp_shifted) return;
  function ShiftedDate(...args) {
    if (!new.target) return new Wall(Wall.now() + offset).toString();
    return args.length ? new Wall(...args) : new Wall(Wall.now() + offset);
  }
  ShiftedDate.prototype = Wall.prototype;
  ShiftedDate.now = () => Wall.now() + offset;
  ShiftedDate.parse = Wall.parse;
  ShiftedDate.UTC = Wall.UTC;
  ShiftedDate.exp_shifted = true;
  Object.defineProperty(Wall.prototype, 'constructor', { value: ShiftedDate, writable: true, configurable: true });
  globalThis.Date = ShiftedDate;
}
