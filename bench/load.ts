/**
 * A bounded load from its own process: `concurrency` keep-alive clients repeat the landing search
 * (the count and the first page, as the widget sends them) for `seconds`; prints JSON. Each client is
 * a visitor of its own (X-Forwarded-For, read by a server started with TRUST_PROXY=1), as behind a
 * CDN: one address's share of the database (server/http/client-shares.ts) is not what is measured.
 *   node --import tsx bench/load.ts <baseUrl> <concurrency> <seconds>
 */
import { Agent, request } from 'node:http';
import { summarise } from './stats.ts';

const [base = 'http://127.0.0.1:8080', c = '16', s = '10'] = process.argv.slice(2);
const concurrency = Number(c);
const seconds = Number(s);
const url = new URL(base);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 2 });
const filters = 'country_code=eq.EC&status=eq.1';
const countPath = `/rest/v1/listings?select=id&${filters}`;
const pagePath = `/rest/v1/listings?select=*&${filters}&order=created_at.desc,id.desc&offset=0&limit=24`;

function get(method: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const latencies: number[] = [];
let requests = 0;
let errors = 0;
const until = performance.now() + seconds * 1000;
async function client(_: unknown, i: number): Promise<void> {
  const visitor = { 'X-Forwarded-For': `10.77.${i >> 8}.${i & 255}` };
  while (performance.now() < until) {
    const t0 = performance.now();
    const statuses = await Promise.all([
      get('HEAD', countPath, { Prefer: 'count=exact', ...visitor }),
      get('GET', pagePath, visitor),
    ]).catch(() => [0, 0]);
    latencies.push(performance.now() - t0);
    requests += 2;
    errors += statuses.filter((x) => x < 200 || x >= 300).length;
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, client));
const elapsed = (performance.now() - started) / 1000;
agent.destroy();
console.log(
  JSON.stringify({
    concurrency,
    seconds: Math.round(elapsed * 10) / 10,
    requests,
    errors,
    requestsPerSecond: Math.round(requests / elapsed),
    searchesPerSecond: Math.round(requests / 2 / elapsed),
    searchLatencyMs: summarise(latencies),
  }),
);
