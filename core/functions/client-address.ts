/**
 * Who is asking: the one rule for the client address our rate limits and repeat detection key on,
 * for our server and both deployed functions (docs/decisions.md #24). Plain TypeScript (Node and
 * Deno).
 *
 * `X-Forwarded-For` is a list anyone can start: a client may send `X-Forwarded-For: 1.2.3.4`, and
 * every proxy on the way appends the address it saw. So the left-most entry is the client's own
 * claim; only the entries our own proxies appended are true. TRUST_PROXY says which to believe:
 *  - `0`: no proxy of ours in front: the socket's peer (the default of `npm start`);
 *  - `N` (1-16): N proxies of ours in front, each appending its peer: the N-th entry from the right
 *    (a CDN plus a load balancer that both append: 2);
 *  - a header name (`cf-connecting-ip`, `x-real-ip`): one header that our edge overwrites with the
 *    address it saw (Cloudflare's CF-Connecting-IP, which a hosted Supabase project sits behind:
 *    the default of the deployed functions).
 * Whatever is read must be an IP address, else the socket's peer is used: a made-up value never
 * becomes a client of its own. IPv6 addresses count by their /64 (one home network or phone), so
 * a client cannot rotate through its own prefix to escape a limit.
 */

export type ProxyTrust = { hops: number } | { header: string };

export const NO_PROXY: ProxyTrust = { hops: 0 };
/** What a hosted Supabase project's edge sets (Cloudflare), overwriting whatever a client sent. */
export const SUPABASE_EDGE: ProxyTrust = { header: 'cf-connecting-ip' };

/** TRUST_PROXY as written: '0', '1'..'16' or a header name; undefined when it is none of them. */
export function parseProxyTrust(value: string): ProxyTrust | undefined {
  const v = value.trim().toLowerCase();
  if (/^\d{1,2}$/.test(v) && Number(v) <= 16) return { hops: Number(v) };
  if (v === 'true' || v === 'yes' || v === 'on') return { hops: 1 };
  if (v === 'false' || v === 'no' || v === 'off') return { hops: 0 };
  // a header name has a hyphen (cf-connecting-ip, x-real-ip): 'ture' is a typo, not a header
  if (/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(v) && v.length <= 64) return { header: v };
  return undefined;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail allowed), or undefined. */
export function ipv6Groups(text: string): number[] | undefined {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!/^[0-9a-f:.]+$/.test(s) || !s.includes(':')) return undefined;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!IPV4.test(last)) return undefined;
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    // '::ffff:1.2.3.4' -> '::ffff'; '::1.2.3.4' -> '::'
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0] as string);
  const rest = halves.length === 2 ? parse(halves[1] as string) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined;
  const zeros = halves.length === 2 ? Array.from({ length: 8 - known }, () => 0) : [];
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...rest.map((g) => parseInt(g, 16)), ...tail];
}

/**
 * An address as a client key: IPv4 as written ('203.0.113.7'), an IPv4-mapped IPv6 address as its
 * IPv4, any other IPv6 address as its /64 ('2001:db8:1:2::/64'); a port or brackets are dropped.
 * Undefined when the text is not an IP address.
 */
export function clientKey(text: string): string | undefined {
  let s = text.trim();
  // [v6]:port, [v6], v4:port
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracket) s = bracket[1] as string;
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  if (IPV4.test(s)) return s;
  const groups = ipv6Groups(s);
  if (!groups) return undefined;
  // ::ffff:a.b.c.d
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * A request whose client nobody vouched for: the edge's header (TRUST_PROXY=<header>) is missing
 * or is no address, or there is no socket address. Behind a platform (a hosted function) the
 * socket's peer is the platform's own proxy, the same for every visitor, so it is no client either.
 * What keys on the client (rate limits) then keys on what the request itself says, within a
 * ceiling for all such requests together (request-key.ts overLimit).
 */
export const UNKNOWN_CLIENT = 'unknown';

/**
 * The client address of a request by the rule above: `header(name)` reads a request header (a
 * repeated header joined with ', ', as Node and the Fetch API both join them), `socket` is the
 * peer's address. UNKNOWN_CLIENT when the header our edge sets is missing, or there is no socket address.
 */
export function clientAddress(
  header: (name: string) => string | null | undefined,
  socket: string | null | undefined,
  trust: ProxyTrust,
): string {
  const peer = (socket && clientKey(socket)) || UNKNOWN_CLIENT;
  if ('header' in trust) return clientKey(header(trust.header) ?? '') ?? UNKNOWN_CLIENT;
  if (trust.hops === 0) return peer;
  const chain = (header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // fewer entries than proxies: the request skipped some of ours, and every entry there is was
  // still appended by one of them (a client can only add entries on the left)
  const entry = chain[Math.max(0, chain.length - trust.hops)];
  return (entry && clientKey(entry)) || peer;
}
