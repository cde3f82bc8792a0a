/**
 * Each client's share of a function's work (docs/architecture.md "Deadlines and fair shares"), as
 * the data API has its own (server/http/client-shares.ts): at most `concurrent` of one client's
 * requests are at work at once in this process (a function's pool has a few connections, and one
 * client sending many costly requests at once would hold them all); the next ones wait their turn
 * in the client's own queue, and beyond `waiting` of them a request is answered 429 at once, before
 * any work. A preflight is never held. Clients are counted by their address as the platform vouches
 * for it (client-address.ts), an unknown one among all the unknown.
 */
import { ANY_ORIGIN } from './cors.ts';
import { json } from './function-http.ts';

type Handler = (request: Request, context: { clientAddress: string }) => Promise<Response>;

const CLIENT_CALLS = { concurrent: 2, waiting: 16 } as const;

export function gateByClient(handle: Handler, share: { concurrent: number; waiting: number } = CLIENT_CALLS): Handler {
  const clients = new Map<string, { running: number; queue: Array<() => void> }>();
  return async (request, context) => {
    if (request.method === 'OPTIONS') return handle(request, context);
    const key = context.clientAddress;
    let c = clients.get(key);
    if (!c) clients.set(key, (c = { running: 0, queue: [] }));
    if (c.running >= share.concurrent) {
      if (c.queue.length >= share.waiting) {
        return json(
          429,
          { error: 'rate_limited', message: 'This client has too many requests at work; try again in a moment.' },
          { ...ANY_ORIGIN, 'Retry-After': '1' },
        );
      }
      // the slot is handed over by the request that ends (`running` already counts it)
      await new Promise<void>((resolve) => c.queue.push(resolve));
    } else c.running++;
    try {
      return await handle(request, context);
    } finally {
      const next = c.queue.shift();
      if (next) next();
      else if (--c.running === 0) clients.delete(key);
    }
  };
}
