/**
 * The outbox of a server with nothing to send (server/mail/outbox-service.ts): it asks when the next
 * mail falls due and sleeps until then, at most its interval. An empty outbox once read "due now"
 * (SQL's GREATEST passes over a NULL), and every idle server asked again every 20 ms: some 200
 * transactions a second, a fifth of a core, with no visitor at all.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { enqueueMail, nextDueInSeconds } from '../../core/functions/outbox/store.ts';
import type { Sql } from '../../core/functions/sql.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import type { Database } from '../../server/db/database.ts';
import { createOutboxService } from '../../server/mail/outbox-service.ts';
import { postgresDatabase, type PostgresDatabase } from '../support/postgres.ts';
import { until } from '../support/until.ts';

describe('the outbox with nothing to send', () => {
  let copy: PostgresDatabase;
  let db: Database;
  beforeAll(async () => {
    copy = await postgresDatabase('seeded');
    db = await openPostgres(copy.url);
    await db.jobs.query('delete from internal.mail_outbox');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await copy?.drop();
  });

  it('says nothing is due when nothing waits, now for a mail past its time, and the seconds to a later one', async () => {
    expect(await nextDueInSeconds(db.jobs)).toBeNull();
    await enqueueMail(db.jobs, { kind: 'test', refId: 'later', recipient: 'a@example.org', delaySeconds: 600 });
    const later = await nextDueInSeconds(db.jobs);
    expect(later).toBeGreaterThan(590);
    expect(later).toBeLessThanOrEqual(600);
    await enqueueMail(db.jobs, { kind: 'test', refId: 'now', recipient: 'a@example.org' });
    await db.jobs.query(
      "update internal.mail_outbox set next_attempt_at = internal.now() - interval '1 minute' where ref_id = 'now'",
    );
    expect(await nextDueInSeconds(db.jobs)).toBe(0);
    await db.jobs.query('delete from internal.mail_outbox');
  });

  it('an idle server looks once when it starts, then sleeps its interval: it does not ask in a loop', async () => {
    const asked: string[] = [];
    const counting: Sql = {
      query: (text, params) => {
        asked.push(text.includes('mail_outbox') ? (text.includes('least(') ? 'due' : 'claim') : 'other');
        return db.jobs.query(text, params);
      },
    };
    const outbox = createOutboxService({
      sql: counting,
      mailer: { send: () => Promise.resolve() },
      composers: {},
      concurrency: 4,
      intervalMs: 60_000,
    });
    // when the service sets its next look (server/mail/outbox-service.ts schedules its `fill`), the
    // delay it chose: read as it is set, so the test waits for no time to pass
    const looks: number[] = [];
    const setTimer = globalThis.setTimeout;
    const timers = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      fn: (...args: unknown[]) => void,
      ms?: number,
      ...args: unknown[]
    ) => {
      if (typeof fn === 'function' && fn.name === 'fill') looks.push(ms ?? 0);
      return setTimer(fn, ms, ...args);
    }) as typeof setTimeout);
    outbox.start();
    const count = () => Object.fromEntries(['claim', 'due'].map((k) => [k, asked.filter((x) => x === k).length]));
    try {
      // its first look: each sender finds nothing, it asks when the next mail falls due (nothing
      // waits), and sets its next look at its interval (the outbox that read "due now" set it 20 ms on)
      await until(() => looks.length > 0, 10_000, 'the next look set');
      expect(looks).toEqual([60_000]);
      expect(count()).toEqual({ claim: 4, due: 1 });
      // a mail queued (kick) wakes the senders once; they find nothing, it asks once more and sleeps again
      outbox.kick();
      await until(() => looks.length > 1, 10_000, 'the look after a kick');
      expect(looks).toEqual([60_000, 60_000]);
      expect(count()).toEqual({ claim: 8, due: 2 });
      expect(asked.filter((k) => k === 'other')).toEqual([]);
    } finally {
      timers.mockRestore();
      await outbox.stop();
    }
  });
});
