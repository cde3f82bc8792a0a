/** Node HTTP servers a test makes for itself (a proxy, a hostile host): listening on 127.0.0.1 on a free port, and closed with their connections. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

export const close = (server: Server | undefined) =>
  new Promise<void>((r) => (server ? (server.closeAllConnections(), server.close(() => r())) : r()));
