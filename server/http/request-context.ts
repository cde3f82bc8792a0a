/**
 * The request a piece of work is done for, wherever that work happens (a query in
 * server/db/postgres.ts, the pages' calls to the API in server/pages/site-data.ts): who asks, and
 * the request's deadline as an AbortSignal that fires when the deadline passes or the client goes
 * away. app.ts makes it for each request; the handlers read it from the request and hand it on.
 * (Not AsyncLocalStorage: on Node 20 it hooks every promise of the process, which cost the data
 * API 15% of its throughput.) docs/architecture.md "Deadlines and fair shares".
 */
import type { IncomingMessage } from 'node:http';

export interface RequestContext {
  /** the client key (core/functions/client-address.ts) */
  client: string;
  /** aborted at the deadline, or when the client closed the connection */
  signal: AbortSignal;
  /** epoch milliseconds */
  deadline: number;
  /**
   * Work for a request that was admitted already (a page's calls to our own API, made with the
   * server's token): it waits for the client's turn like any other, but is never refused for the
   * client's share, so a page let in at its gate is finished (the client's next request is the one
   * refused, with Retry-After).
   */
  admitted?: boolean;
  /**
   * A signed-in user's request (a valid JWT of the role `authenticated`, server/stand-in/rest/handler.ts):
   * its statements run as that role with these claims, as PostgREST runs them (auth.uid()).
   */
  claims?: { sub: string; role: string } & Record<string, unknown>;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();

export function setRequestContext(req: IncomingMessage, context: RequestContext): void {
  contexts.set(req, context);
}

/** What a request is done for; undefined for a request app.ts did not see. */
export function requestContext(req: IncomingMessage): RequestContext | undefined {
  return contexts.get(req);
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
