/**
 * The server's image fetcher tried as an attacker would (docs/decisions.md #24), over real HTTP,
 * against a hostile image host on the allow-list: redirects into the host's network, 50 MB without
 * a length, a host that never answers, HTML sent as image/jpeg; a name that resolves to 127.0.0.1.
 * No request reaches a refused address, and the default picture is served. Then which addresses
 * the server may fetch at all, and how IMAGE_HOSTS is read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, FetchRefused, parseHostRule, safeFetch, type HostRule } from '../../server/http/safe-fetch.ts';
import { close, listen } from '../support/listening.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

/** The host a forged request hopes to reach (a service on the machine's loopback): counts every request. */
function secretService() {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end('secret');
  });
  return { server, hits };
}

/** An image host on the allow-list that misbehaves in every way it can. */
function hostileImageHost(secretPort: () => number, goodJpeg: Buffer) {
  const hits: string[] = [];
  let streamed = 0;
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    switch (req.url) {
      case '/good.jpg':
        res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': goodJpeg.length }).end(goodJpeg);
        return;
      case '/redirect-good.jpg':
        res.writeHead(302, { Location: '/good.jpg' }).end();
        return;
      case '/redirect-loopback.jpg':
        res.writeHead(302, { Location: `http://127.0.0.1:${secretPort()}/secret.jpg` }).end();
        return;
      case '/redirect-localhost.jpg':
        res.writeHead(302, { Location: `http://localhost:${secretPort()}/secret.jpg` }).end();
        return;
      case '/redirect-metadata.jpg':
        res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }).end();
        return;
      case '/redirect-file.jpg':
        res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
        return;
      case '/html.jpg':
        res
          .writeHead(200, { 'Content-Type': 'image/jpeg' })
          .end('<!doctype html><html><body><h1>Not a photo</h1></body></html>');
        return;
      case '/huge.jpg': {
        // 50 MB, no Content-Length: the limit must hold while the body streams in
        res.writeHead(200, { 'Content-Type': 'image/jpeg' });
        const chunk = Buffer.alloc(64 * 1024, 0xff);
        const push = () => {
          while (streamed < 50 * 1024 * 1024) {
            streamed += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', push);
          }
          res.end();
        };
        res.on('close', () => undefined);
        push();
        return;
      }
      case '/hang.jpg':
        // never answers: the fetcher's total timeout ends it
        return;
      default:
        res.writeHead(404).end();
    }
  });
  return { server, hits, streamed: () => streamed };
}

/** the page host's whole deadline for a photo it makes a preview of, in this test */
const IMAGE_DEADLINE_MS = 2500;

describe('the image fetcher, against a hostile image host on the allow-list', () => {
  let server: TestServer;
  let cacheDir: string;
  const secret = secretService();
  let secretPort = 0;
  let goodJpeg: Buffer;
  let host: ReturnType<typeof hostileImageHost>;
  let hostPort = 0;

  beforeAll(async () => {
    goodJpeg = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#3a7d44' } })
      .jpeg()
      .toBuffer();
    secretPort = await listen(secret.server);
    host = hostileImageHost(() => secretPort, goodJpeg);
    hostPort = await listen(host.server);
    cacheDir = mkdtempSync(join(tmpdir(), 'exp-security-'));
    server = await startTestServer('postgres', {
      trustProxy: { hops: 1 },
      site: {
        imageCacheDir: cacheDir,
        imageHosts: [`http://127.0.0.1:${hostPort}`],
        imageTimeouts: { connectMs: 1000, totalMs: IMAGE_DEADLINE_MS },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await close(host?.server);
    await close(secret.server);
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const listingWith = async (image: string) => {
    const [row] = await server.sql<{ id: string }>(
      `insert into internal.listings (title, price, city, images, geo_lat, geo_lon) values ('Casa de prueba', 100000, 'Quito', $1, '-0.18', '-78.48') returning id::text as id`,
      [JSON.stringify([image])],
    );
    return row?.id as string;
  };
  const preview = async (id: string) => {
    const started = Date.now();
    const res = await fetch(`${server.url}/og/listings/${id}.jpg`);
    const body = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      cache: res.headers.get('cache-control'),
      body,
      ms: Date.now() - started,
    };
  };

  it('fetches a good photo (and a redirect within the host), so the refusals below are refusals', async () => {
    for (const path of ['/good.jpg', '/redirect-good.jpg']) {
      const shot = await preview(await listingWith(`http://127.0.0.1:${hostPort}${path}`));
      expect(shot.status).toBe(200);
      const stats = await sharp(shot.body).stats();
      // the green of the photo, not the default picture
      expect(Math.round(stats.channels[1]?.mean ?? 0)).toBeGreaterThan(Math.round(stats.channels[0]?.mean ?? 0) + 40);
    }
  });

  it('redirects into the host network, 50 MB without a length, a host that hangs, HTML as image/jpeg: the default picture, and no request reaches a refused address', async () => {
    const fallback = await preview(await listingWith('http://127.0.0.1:1/nothing-listens-here.jpg'));
    expect(fallback.status).toBe(200);
    const cases = [
      '/redirect-loopback.jpg',
      '/redirect-localhost.jpg',
      '/redirect-metadata.jpg',
      '/redirect-file.jpg',
      '/huge.jpg',
      '/hang.jpg',
      '/html.jpg',
    ];
    for (const path of cases) {
      const shot = await preview(await listingWith(`http://127.0.0.1:${hostPort}${path}`));
      expect(shot.status, path).toBe(200);
      expect(shot.type, path).toBe('image/jpeg');
      const info = await sharp(shot.body).metadata();
      expect([info.width, info.height], path).toEqual([1200, 630]);
      // the default picture, kept only briefly (the photo may come back)
      expect(shot.body.equals(fallback.body), path).toBe(true);
      expect(shot.cache, path).toBe('public, max-age=600, s-maxage=600');
      // (a host that hangs is cut at the deadline: three times it, for a loaded machine)
      expect(shot.ms, path).toBeLessThan(3 * IMAGE_DEADLINE_MS);
    }
    // also sources that were never on the list
    for (const source of [
      'http://169.254.169.254/latest/meta-data/',
      `http://localhost:${secretPort}/secret.jpg`,
      'file:///etc/passwd',
      `http://[::1]:${secretPort}/x.jpg`,
      `http://user:pass@127.0.0.1:${hostPort}/good.jpg`,
    ]) {
      const shot = await preview(await listingWith(source));
      expect(shot.body.equals(fallback.body), source).toBe(true);
    }
    expect(secret.hits).toEqual([]);
    // the 50 MB body was cut off at the limit (15 MB), not read whole
    expect(host.streamed()).toBeLessThan(24 * 1024 * 1024);
  }, 60_000);

  it('remembers a failure: a broken photo is fetched once, not on every request', async () => {
    const id = await listingWith(`http://127.0.0.1:${hostPort}/html.jpg?listing=remembered`);
    const before = host.hits.filter((h) => h.includes('remembered')).length;
    for (let i = 0; i < 5; i++) expect((await preview(id)).status).toBe(200);
    expect(host.hits.filter((h) => h.includes('remembered')).length - before).toBe(1);
  });

  it('a name on the list that resolves to a private address is refused before any connection', async () => {
    const rules = [parseHostRule('photos.example.test')].filter((r): r is HostRule => !!r);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
      'fd00:ec2::254',
      '100.100.100.200',
    ]) {
      const family = address.includes(':') ? 6 : 4;
      const attempt = safeFetch(`http://photos.example.test:${secretPort}/secret.jpg`, {
        allow: rules,
        maxBytes: 1024,
        resolve: async () => [{ address, family }],
      });
      await expect(attempt, address).rejects.toBeInstanceOf(FetchRefused);
      await expect(attempt, address).rejects.toMatchObject({ kind: 'refused' });
    }
    expect(secret.hits).toEqual([]);
  });
});

describe('which addresses the server may fetch', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['127.1.2.3', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['fc00::1', false],
    ['fd00:ec2::254', false],
    ['fe80::1', false],
    ['ff02::1', false],
  ] as const)('%s: %s', (address, allowed) => {
    expect(addressAllowed(address)).toBe(allowed);
  });

  it('an address of a private network the operator named is allowed; link-local (metadata) never', () => {
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('169.254.169.254', true)).toBe(false);
    expect(addressAllowed('fd00:ec2::254', true)).toBe(false);
  });

  it('"*" (a feed\'s photos, wherever it keeps them) lets any public host through, never a private address, as a name or as an IP', async () => {
    const any = [parseHostRule('*') as HostRule];
    expect(any[0]).toMatchObject({ wildcard: true, privateNamed: false });
    // an IP in the address is connected to without a lookup: checked before the connection
    for (const url of [
      'http://127.0.0.1:9/x.jpg',
      'http://[::1]:9/x.jpg',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/x.jpg',
      'http://[::ffff:127.0.0.1]/x.jpg',
      'http://0.0.0.0/x.jpg',
    ]) {
      await expect(safeFetch(url, { allow: any, maxBytes: 10 }), url).rejects.toThrow(
        /is not an address the server may fetch/,
      );
    }
    // a name that resolves to a private address: refused at its lookup
    await expect(
      safeFetch('http://photos.example.test/x.jpg', {
        allow: any,
        maxBytes: 10,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    ).rejects.toThrow(/not an address the server may fetch/);
  });

  it('reads IMAGE_HOSTS entries: names, subdomain wildcards, origins; nothing else', () => {
    expect(parseHostRule('photos.example.com')).toMatchObject({
      host: 'photos.example.com',
      wildcard: false,
      privateNamed: false,
    });
    expect(parseHostRule('*.cloudfront.net')).toMatchObject({ host: 'cloudfront.net', wildcard: true });
    expect(parseHostRule('https://cdn.example.com')).toMatchObject({
      host: 'cdn.example.com',
      protocols: ['https:'],
      port: '443',
    });
    expect(parseHostRule('http://127.0.0.1:9000')).toMatchObject({
      host: '127.0.0.1',
      port: '9000',
      privateNamed: true,
    });
    for (const bad of [
      'https://cdn.example.com/photos',
      'ftp://x.example',
      'https://u:p@x.example',
      'not a host',
      '*.',
      '',
    ])
      expect(parseHostRule(bad), bad).toBeUndefined();
  });
});
