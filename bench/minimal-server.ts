/**
 * The reference for the API benchmark's overhead: the least a Node HTTP server can do to answer
 * the widget's two search requests over PostgreSQL. Each known request (method, URL and body) maps to
 * its SQL; the answer is the statement's result with Content-Range. No parsing, no validation, no
 * logging, no CORS: what is left is Node's HTTP server and the pg driver, the part of our server's
 * overhead that no change to our own code can remove on this machine.
 *   node --import tsx bench/minimal-server.ts   (settings as JSON on stdin; prints the port)
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { ANON_SESSION } from '../server/db/postgres.ts';

export interface MinimalRoute {
  sql: string;
  params: unknown[];
  /** `count`: HEAD with the total in Content-Range; `page`: the JSON body built by the statement */
  kind: 'count' | 'page';
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { databaseUrl, routes } = JSON.parse(input) as { databaseUrl: string; routes: Record<string, MinimalRoute> };
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: ANON_SESSION });
const names = new Map(Object.values(routes).map((r, i) => [r.sql, `m${i}`]));

const server = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  // the key of bench/api.ts routeKey(): method, path and body
  const route = routes[`${req.method} ${req.url} ${body}`];
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  pool.query({ name: names.get(route.sql), text: route.sql, values: route.params }).then(
    ({ rows }) => {
      const row = rows[0] as { total?: string; body?: string };
      if (route.kind === 'count') res.writeHead(206, { 'Content-Range': `*/${row.total}` }).end();
      else
        res
          .writeHead(200, {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': String(Buffer.byteLength(row.body ?? '')),
          })
          .end(row.body);
    },
    () => res.writeHead(500).end(),
  );
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as { port: number }).port })));
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
