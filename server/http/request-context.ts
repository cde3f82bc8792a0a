/**
 * The request a piece of work is done for, wherever that work happens (a query in
 * server/db/postgres.ts, a preview image in server/pages/): who asks, and the request's deadline as
 * an AbortSignal that fires when the deadline passes or the client goes away. AsyncLocalStorage
 * carries it from the HTTP handler (app.ts) down to the database, so no layer in between passes it
 * by hand. docs/architecture.md "Deadlines and fair shares".
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  /** the client key (core/functions/client-address.ts) */
  client: string;
  /** aborted at the deadline, or when the client closed the connection */
  signal: AbortSignal;
  /** epoch milliseconds */
  deadline: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The request the current work is done for; undefined for work of the server's own (jobs, start-up). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** The request's deadline passed before its work was done. */
export class DeadlineError extends Error {
  constructor(readonly phase: 'waiting' | 'working') {
    super(phase === 'waiting' ? 'The request waited too long for the database' : 'The request took too long');
  }
}

/** A client asked for more than its share: try again after `retryAfterSeconds`. */
export class OverShareError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`This client has used its share of the database for now; try again in ${retryAfterSeconds} s`);
  }
}
