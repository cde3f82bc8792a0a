import { describe, expect, it } from 'vitest';
import { ClientShares } from './client-shares.ts';
import { OverShareError } from './request-context.ts';

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** shares on a clock of their own: a generous budget for many clients, but for what a test sets */
function sharesOn(options: Partial<ConstructorParameters<typeof ClientShares>[0]>) {
  const c = clock();
  const shares = new ClientShares({
    concurrent: 1,
    burstMs: 10_000,
    refillPerSecond: 500,
    maxWaiting: 1,
    maxClients: 100,
    now: c.now,
    ...options,
  });
  return { c, shares };
}

/** a statement's turn, watched: `started` once acquire() has answered */
function watch(turn: Promise<(ms: number) => void>) {
  const w: { started: boolean; release?: Promise<(ms: number) => void> } = { started: false };
  w.release = turn.then((release) => ((w.started = true), release));
  return w as Required<typeof w>;
}

describe("each client's share of the public pool", () => {
  it('runs at most `concurrent` statements of one client at once; the next waits its turn, others do not', async () => {
    const { shares } = sharesOn({ concurrent: 2, maxWaiting: 4 });
    const a1 = await shares.acquire('a');
    const a2 = await shares.acquire('a');
    const a3 = watch(shares.acquire('a'));
    await settle();
    expect(a3.started).toBe(false);
    // another client is not held up
    const b1 = await shares.acquire('b');
    b1(5);
    a1(10);
    await settle();
    expect(a3.started).toBe(true);
    a2(10);
    (await a3.release)(10);
  });

  it('a client that spent its budget runs one at a time; one that owes a whole burst is refused with the seconds to wait, and comes back as it earns', async () => {
    const { c, shares } = sharesOn({ concurrent: 3, burstMs: 4000, maxWaiting: 8 });
    // 6 s spent: 2 s owed, one statement at a time
    (await shares.acquire('x'))(6000);
    const first = await shares.acquire('x');
    const second = watch(shares.acquire('x'));
    await settle();
    expect(second.started).toBe(false);
    first(3000);
    await settle();
    expect(second.started).toBe(true);
    (await second.release)(0);
    // 5 s owed: refused, for (5 s / 0.5 s per s) + 1
    expect(shares.retryAfter('x')).toBe(11);
    await expect(shares.acquire('x')).rejects.toBeInstanceOf(OverShareError);
    await expect(shares.acquire('x')).rejects.toMatchObject({ retryAfterSeconds: 11 });
    // still refused while it owes anything (no flapping at the edge)
    c.advance(6000);
    expect(shares.retryAfter('x')).toBe(5);
    // back to zero: one at a time again, then its full share as it earns
    c.advance(4000);
    expect(shares.retryAfter('x')).toBe(0);
    (await shares.acquire('x'))(0);
    c.advance(10_000);
    const all = await Promise.all([shares.acquire('x'), shares.acquire('x'), shares.acquire('x')]);
    for (const release of all) release(1);
  });

  it('refuses more than `maxWaiting` waiting statements of one client, and drops a waiter whose request ended', async () => {
    const { shares } = sharesOn({});
    const held = await shares.acquire('q');
    const ended = new AbortController();
    const waiting = shares.acquire('q', ended.signal);
    await expect(shares.acquire('q')).rejects.toBeInstanceOf(OverShareError);
    ended.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    // the queue is free again
    const next = shares.acquire('q');
    held(1);
    (await next)(1);
  });

  it('remembers at most `maxClients` clients, the idle ones dropped first', async () => {
    const { shares } = sharesOn({});
    const busy = await shares.acquire('busy');
    for (let i = 0; i < 1000; i++) (await shares.acquire(`c${i}`))(1);
    expect(shares.size).toBeLessThanOrEqual(100);
    // the busy client was kept: its next statement still waits for its one slot
    const after = watch(shares.acquire('busy'));
    await settle();
    expect(after.started).toBe(false);
    busy(1);
    (await after.release)(1);
  });
});
