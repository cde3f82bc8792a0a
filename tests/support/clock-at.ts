/**
 * Tests that state the instant they run at (docs/decisions.md #33): SQL in a transaction whose
 * clock (internal.now()) reads an instant exactly, and servers started with the process's clock
 * pinned (core/clock.ts), each put back afterwards.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Database, Transaction } from '../../server/db/database.ts';
import { CLOCK_SETTING, clockOffsetMs, pinClock, setClockOffset } from '../../core/clock.ts';

class Rollback {
  constructor(readonly value: unknown) {}
}

/** Runs `fn` in a transaction whose clock reads `instant` exactly (the transaction's now() is fixed), then rolls it back. */
export async function atInstant<T>(db: Database, instant: string, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    await db.transaction(
      async (tx) => {
        await tx.query(
          `select pg_catalog.set_config('${CLOCK_SETTING}', ($1::timestamptz - pg_catalog.now())::text, true)`,
          [instant],
        );
        throw new Rollback(await fn(tx));
      },
      { long: true },
    );
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
  throw new Error('atInstant: the transaction was not rolled back');
}

/**
 * Pins the process's clock at `instant` for the describe block it is called in, before the block's
 * other hooks (call it first: the servers the block starts read the clock as they open their
 * database sessions), and puts the run's clock back after the block. The clock runs on from there.
 */
export function useClockAt(instant: string): void {
  let before = 0;
  beforeAll(() => {
    before = clockOffsetMs();
    pinClock(instant);
  });
  afterAll(() => {
    setClockOffset(before);
  });
}
