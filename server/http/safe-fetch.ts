/**
 * The server's one way of fetching an address that came from data (a listing's photo now, a feed's
 * photos next): a request forgery into the host's network must be impossible (docs/decisions.md
 * #24). Only http(s), only hosts on an allow-list, redirects only within it, never an address in a
 * loopback, private, link-local (cloud metadata), CGNAT, multicast or reserved range, a connect
 * and a total timeout, and the byte limit enforced while the body streams in.
 *
 * The address check runs inside the connection's own DNS lookup, so the address checked is the
 * address connected to (a name that resolves to a public address for the check and to 127.0.0.1
 * for the connection cannot slip through).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ipv6Groups } from '../../core/functions/client-address.ts';

/** One entry of the allow-list: a host (or every subdomain of one), optionally one scheme and port. */
export interface HostRule {
  host: string;
  /** '*.example.com': example.com's subdomains (not example.com itself) */
  wildcard: boolean;
  protocols: Array<'http:' | 'https:'>;
  /** the port, when the rule names one */
  port?: string;
  /** written as an address of a private network by the operator (http://127.0.0.1:9000): it may be one */
  privateNamed: boolean;
}

export class FetchRefused extends Error {
  constructor(
    message: string,
    /** 'refused': the address is not ours to fetch; 'failed': it is, but did not give an answer we take */
    readonly kind: 'refused' | 'failed',
    /** what the answer was, when there was one: its status, or a body over the limit */
    readonly answer: { status?: number; tooLarge?: boolean } = {},
  ) {
    super(message);
    this.name = 'FetchRefused';
  }
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT (and Alibaba's metadata, 100.100.100.200)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: the cloud metadata services (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS's metadata, fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Link-local (the metadata services) is refused even where an operator named a private address. */
const metadata = new BlockList();
metadata.addSubnet('169.254.0.0', 16, 'ipv4');
metadata.addSubnet('fe80::', 10, 'ipv6');
metadata.addAddress('fd00:ec2::254', 'ipv6');

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d, compatible ::a.b.c.d, which covers :: and ::1). */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const [hi = 0, lo = 0] = g.slice(6);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const carries = (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) || (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6));
  return carries ? `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}` : undefined;
}

/** Whether an address may be connected to: public, or named by the operator (never link-local). */
export function addressAllowed(address: string, privateNamed = false): boolean {
  const family = isIP(address);
  if (!family) return false;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [ip, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (metadata.check(ip, type)) return false;
  return privateNamed || !blocked.check(ip, type);
}

const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * An allow-list entry as written: 'photos.example.com', '*.example.net', 'https://cdn.example.com',
 * 'http://127.0.0.1:9000', or '*': any host whose address is public (a feed's photos, wherever the
 * feed keeps them; a private or local address is still refused).
 */
export function parseHostRule(text: string): HostRule | undefined {
  const t = text.trim().toLowerCase();
  if (t === '*') return { host: '', wildcard: true, protocols: ['https:', 'http:'], privateNamed: false };
  if (/^https?:\/\//.test(t)) {
    let u: URL;
    try {
      u = new URL(t);
    } catch {
      return undefined;
    }
    if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return undefined;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host) !== 0 || host === 'localhost';
    return {
      host,
      wildcard: false,
      protocols: [u.protocol as 'http:' | 'https:'],
      port: u.port || (u.protocol === 'https:' ? '443' : '80'),
      privateNamed: literal,
    };
  }
  if (!HOST.test(t) || t.length > 253) return undefined;
  return {
    host: t.replace(/^\*\./, ''),
    wildcard: t.startsWith('*.'),
    protocols: ['https:', 'http:'],
    privateNamed: false,
  };
}

/** The rule that lets this address be fetched, if any. */
function ruleFor(url: URL, rules: readonly HostRule[]): HostRule | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return rules.find(
    (r) =>
      r.protocols.includes(url.protocol as 'http:' | 'https:') &&
      (r.port === undefined || r.port === port) &&
      (r.wildcard ? r.host === '' || host.endsWith(`.${r.host}`) : host === r.host),
  );
}

export interface SafeFetchOptions {
  allow: readonly HostRule[];
  /** the body's limit, enforced as it streams */
  maxBytes: number;
  /** to have a connection (default 3 s) */
  connectTimeoutMs?: number;
  /** for the whole fetch, redirects included (default 10 s) */
  totalTimeoutMs?: number;
  /** redirects followed, each within the allow-list (default 3) */
  maxRedirects?: number;
  /** the resolver (tests: a name that resolves to a private address) */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** request headers (default: an image's Accept) */
  headers?: Record<string, string>;
  /** 'any': an answer other than 200 is returned with its status (a feed's 429 or 500), not thrown */
  statuses?: 'ok' | 'any';
  /** the list's name in a refusal's message (default IMAGE_HOSTS) */
  listName?: string;
  /** a POST with this body (a webhook) instead of a GET */
  post?: string;
}

export interface Fetched {
  /** 200, or with `statuses: 'any'` whatever the server answered */
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** what the server said it is (not to be believed: check the bytes) */
  contentType: string | null;
  /** after redirects */
  url: string;
}

const defaultResolve = (hostname: string) =>
  new Promise<LookupAddress[]>((resolveAll, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolveAll(addresses),
    ),
  );

/** A lookup for the connection that hands over only an address the rule allows. */
function checkedLookup(rule: HostRule, resolve: (hostname: string) => Promise<LookupAddress[]>): LookupFunction {
  return (hostname, options, callback) => {
    const literal = hostname.replace(/^\[|\]$/g, '');
    const found = isIP(literal) ? Promise.resolve([{ address: literal, family: isIP(literal) }]) : resolve(hostname);
    found.then(
      (addresses) => {
        const ok = addresses.filter((a) => addressAllowed(a.address, rule.privateNamed));
        if (!ok.length) {
          const error = Object.assign(
            new FetchRefused(
              `${hostname} resolves to ${addresses.map((a) => a.address).join(', ') || 'nothing'}: not an address the server may fetch`,
              'refused',
            ),
            {
              code: 'EREFUSEDADDRESS',
            },
          );
          callback(error, '', 0);
          return;
        }
        if ((options as { all?: boolean }).all) callback(null, ok as never);
        else callback(null, (ok[0] as LookupAddress).address, (ok[0] as LookupAddress).family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function once(url: URL, rule: HostRule, options: SafeFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolveResponse, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = options.headers ?? {
      Accept: 'image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8',
      'User-Agent': 'exp-ecuador-images/1',
    };
    const body = options.post === undefined ? undefined : Buffer.from(options.post);
    const req = request(url, {
      method: body ? 'POST' : 'GET',
      lookup: checkedLookup(rule, options.resolve ?? defaultResolve),
      signal,
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      agent: false,
    });
    const connectTimer = setTimeout(
      () =>
        req.destroy(
          new FetchRefused(`${url.host}: no connection within ${options.connectTimeoutMs ?? 3000} ms`, 'failed'),
        ),
      options.connectTimeoutMs ?? 3000,
    );
    req.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      resolveResponse(res);
    });
    req.on('error', (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    req.end(body);
  });
}

/** Fetches an image (or any bounded body) from an address that came from data, by the rules above. */
export async function safeFetch(address: string, options: SafeFetchOptions): Promise<Fetched> {
  const signal = AbortSignal.timeout(options.totalTimeoutMs ?? 10_000);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchRefused(`not an address: ${JSON.stringify(address.slice(0, 200))}`, 'refused');
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchRefused(`only http(s) is fetched, not ${url.protocol}`, 'refused');
    if (url.username || url.password) throw new FetchRefused('addresses with credentials are not fetched', 'refused');
    const rule = ruleFor(url, options.allow);
    if (!rule)
      throw new FetchRefused(
        `${url.protocol}//${url.host} is not on the ${options.listName ?? "image hosts' list (IMAGE_HOSTS)"}`,
        'refused',
      );
    // an address written as an IP is connected to without a lookup: it is checked here (a rule such
    // as "*" lets any host name through, never a private address)
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !addressAllowed(literal, rule.privateNamed))
      throw new FetchRefused(`${url.host}: ${literal} is not an address the server may fetch`, 'refused');
    let res: IncomingMessage;
    try {
      res = await once(url, rule, options, signal);
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof FetchRefused) throw cause;
      const e = error as NodeJS.ErrnoException;
      throw new FetchRefused(
        `${url.host}: ${signal.aborted ? `no answer within ${options.totalTimeoutMs ?? 10_000} ms` : (e.code ?? e.message)}`,
        'failed',
      );
    }
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (options.maxRedirects === 0)
        throw new FetchRefused(`${url.host}: HTTP ${status}, a redirect (not followed)`, 'failed');
      if (hop >= (options.maxRedirects ?? 3))
        throw new FetchRefused(`more than ${options.maxRedirects ?? 3} redirects`, 'failed');
      url = new URL(res.headers.location, url);
      continue;
    }
    if (status !== 200 && options.statuses !== 'any') {
      res.resume();
      throw new FetchRefused(`${url.host}: HTTP ${status}`, 'failed', { status });
    }
    const declared = Number(res.headers['content-length'] ?? NaN);
    if (declared > options.maxBytes) {
      res.destroy();
      throw new FetchRefused(`${url.host}: ${declared} bytes is more than ${options.maxBytes}`, 'failed', {
        tooLarge: true,
      });
    }
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > options.maxBytes) {
          res.destroy();
          throw new FetchRefused(`${url.host}: the body is more than ${options.maxBytes} bytes`, 'failed', {
            tooLarge: true,
          });
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      throw new FetchRefused(
        `${url.host}: ${signal.aborted ? `no answer within ${options.totalTimeoutMs ?? 10_000} ms` : (error as Error).message}`,
        'failed',
      );
    }
    return {
      status,
      headers: res.headers,
      body: Buffer.concat(chunks, total),
      contentType: res.headers['content-type'] ?? null,
      url: url.href,
    };
  }
}
