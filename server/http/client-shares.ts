/**
 * Each client's fair share of the public database pool (docs/architecture.md "Deadlines and fair
 * shares"), per client key (core/functions/client-address.ts):
 *  - at most `concurrent` of its statements hold a connection at once; more wait their turn in the
 *    client's own queue (bounded), so one client can never take the whole pool;
 *  - a budget of database time, a token bucket: a client may hold connections for `burstMs` at
 *    once and earns back `refillPerSecond` ms each second (500: half of one connection). A client
 *    that spent it runs one statement at a time; one that owes a whole burst more is answered 429
 *    with Retry-After until it has earned its way back to zero.
 * A person searching spends a few milliseconds a click; many people behind one address (a mobile
 * carrier's NAT) are slowed down, not refused; a client sending the slowest requests it can find
 * spends seconds each, soon runs one at a time, then waits. On average no client takes more of the
 * database than `refillPerSecond` allows.
 * What it keeps is bounded: at most `maxClients` clients, idle ones dropped first.
 */
import { OverShareError } from './request-context.ts';

export interface ShareOptions {
  /** statements of one client holding a connection at once */
  concurrent: number;
  /** database milliseconds a client may spend at once */
  burstMs: number;
  /** milliseconds earned back per second */
  refillPerSecond: number;
  /** statements of one client waiting for its turn; beyond: 429 */
  maxWaiting: number;
  /** clients remembered */
  maxClients: number;
  now?: () => number;
}

export const DEFAULT_SHARES: ShareOptions = {
  concurrent: 3,
  burstMs: 15_000,
  refillPerSecond: 500,
  maxWaiting: 32,
  maxClients: 20_000,
};

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

interface ClientState {
  running: number;
  waiting: Waiter[];
  balance: number;
  at: number;
  /** owed a whole burst: refused until the balance is back to zero */
  refused: boolean;
}

export class ClientShares {
  private readonly clients = new Map<string, ClientState>();
  private readonly now: () => number;

  constructor(readonly options: ShareOptions = DEFAULT_SHARES) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.clients.size;
  }

  private state(client: string): ClientState {
    let s = this.clients.get(client);
    if (s) {
      // most recently used last: the first ones are the ones to drop
      this.clients.delete(client);
      this.clients.set(client, s);
      this.refill(s);
      return s;
    }
    if (this.clients.size >= this.options.maxClients) this.evict();
    s = { running: 0, waiting: [], balance: this.options.burstMs, at: this.now(), refused: false };
    this.clients.set(client, s);
    return s;
  }

  private refill(s: ClientState): void {
    const now = this.now();
    s.balance = Math.min(this.options.burstMs, s.balance + ((now - s.at) * this.options.refillPerSecond) / 1000);
    s.at = now;
    if (s.balance <= -this.options.burstMs) s.refused = true;
    else if (s.balance >= 0) s.refused = false;
  }

  /** statements the client may run at once now: its share while it has budget, one while it owes */
  private allowed(s: ClientState): number {
    return s.balance > 0 ? this.options.concurrent : 1;
  }

  private wait(s: ClientState): number {
    return Math.ceil(-s.balance / this.options.refillPerSecond) + 1;
  }

  /** Drops idle clients, least recently seen first: a full budget is what a new client gets anyway. */
  private evict(): void {
    for (const [key, s] of this.clients) {
      if (this.clients.size < this.options.maxClients) return;
      if (s.running === 0 && s.waiting.length === 0) this.clients.delete(key);
    }
    // every client busy (cannot happen with a sane maxClients): the oldest goes all the same
    const first = this.clients.keys().next();
    if (!first.done && this.clients.size >= this.options.maxClients) this.clients.delete(first.value);
  }

  /**
   * Counts work that held no connection against the client's budget: a request refused as
   * malformed (app.ts), which costs the server a parse however fast it is answered.
   */
  charge(client: string, ms: number): void {
    const s = this.state(client);
    s.balance -= ms;
    this.refill(s);
  }

  /** Seconds until the client may ask again; 0 when it may ask now. */
  retryAfter(client: string): number {
    const s = this.clients.get(client);
    if (!s) return 0;
    this.refill(s);
    return s.refused ? this.wait(s) : 0;
  }

  /**
   * The client's turn: resolves with `release(usedMs)` once one of its slots is free, throws
   * OverShareError when its budget is spent or its queue is full (unless the work is for a request
   * admitted already: it waits its turn), and the signal's reason when the request ends while it
   * waits.
   */
  async acquire(client: string, signal?: AbortSignal, admitted = false): Promise<(usedMs: number) => void> {
    const s = this.state(client);
    if (s.refused && !admitted) throw new OverShareError(this.wait(s));
    if (s.running < this.allowed(s)) s.running++;
    else {
      if (s.waiting.length >= this.options.maxWaiting && !admitted) throw new OverShareError(1);
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject,
        };
        const onAbort = () => {
          const i = s.waiting.indexOf(waiter);
          if (i >= 0) s.waiting.splice(i, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        s.waiting.push(waiter);
      });
      // the slot was handed over by release(): `running` already counts it
    }
    let released = false;
    return (usedMs: number) => {
      if (released) return;
      released = true;
      s.balance -= Math.max(0, usedMs);
      this.refill(s);
      s.running--;
      while (s.running < this.allowed(s) && s.waiting.length) {
        s.running++;
        s.waiting.shift()?.resolve();
      }
    };
  }
}
