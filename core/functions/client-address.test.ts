import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientAddress, clientKey, ipv6Groups, parseProxyTrust, type ProxyTrust } from './client-address.ts';

const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()] ?? null;

describe('clientAddress', () => {
  const cases: Array<[string, Record<string, string>, string, ProxyTrust, string]> = [
    // [what, headers, socket, trust, expected]
    [
      'no proxy: the socket, whatever the headers say',
      { 'x-forwarded-for': '1.1.1.1' },
      '203.0.113.9',
      { hops: 0 },
      '203.0.113.9',
    ],
    ['one proxy: the entry it appended', { 'x-forwarded-for': '203.0.113.9' }, '10.0.0.2', { hops: 1 }, '203.0.113.9'],
    [
      'one proxy: a forged entry on the left changes nothing',
      { 'x-forwarded-for': '1.1.1.1, 203.0.113.9' },
      '10.0.0.2',
      { hops: 1 },
      '203.0.113.9',
    ],
    [
      'one proxy: several forged entries',
      { 'x-forwarded-for': '1.1.1.1,2.2.2.2 , 3.3.3.3,203.0.113.9' },
      '10.0.0.2',
      { hops: 1 },
      '203.0.113.9',
    ],
    [
      'CDN + load balancer: the second from the right',
      { 'x-forwarded-for': '9.9.9.9, 198.51.100.4, 172.16.0.5' },
      '10.0.0.2',
      { hops: 2 },
      '198.51.100.4',
    ],
    [
      'fewer entries than proxies: the left-most there is',
      { 'x-forwarded-for': '198.51.100.4' },
      '10.0.0.2',
      { hops: 2 },
      '198.51.100.4',
    ],
    ['a proxy but no header: the socket', {}, '10.0.0.2', { hops: 1 }, '10.0.0.2'],
    ['not an address: the socket', { 'x-forwarded-for': 'evil, <script>' }, '10.0.0.2', { hops: 1 }, '10.0.0.2'],
    [
      'a port is not part of the client',
      { 'x-forwarded-for': '203.0.113.9:51234' },
      '10.0.0.2',
      { hops: 1 },
      '203.0.113.9',
    ],
    [
      'a header our edge overwrites',
      { 'cf-connecting-ip': '198.51.100.7', 'x-forwarded-for': '1.1.1.1' },
      '10.0.0.2',
      { header: 'cf-connecting-ip' },
      '198.51.100.7',
    ],
    // behind a platform the socket is the platform's own proxy, the same for everyone: no client at all
    [
      'the edge header missing: unknown (not the socket, never X-Forwarded-For)',
      { 'x-forwarded-for': '1.1.1.1' },
      '10.0.0.2',
      { header: 'cf-connecting-ip' },
      'unknown',
    ],
    [
      'the edge header not an address: unknown',
      { 'cf-connecting-ip': 'forged' },
      '10.0.0.2',
      { header: 'cf-connecting-ip' },
      'unknown',
    ],
    [
      'IPv6 counts by its /64',
      { 'x-forwarded-for': '2001:db8:1:2:aaaa:bbbb:cccc:dddd' },
      '::1',
      { hops: 1 },
      '2001:db8:1:2::/64',
    ],
    [
      'IPv6 in brackets with a port',
      { 'x-forwarded-for': '[2001:db8::1]:443' },
      '::1',
      { hops: 1 },
      '2001:db8:0:0::/64',
    ],
    ['IPv4-mapped IPv6 socket address is its IPv4', {}, '::ffff:127.0.0.1', { hops: 0 }, '127.0.0.1'],
    ['no socket, nothing trusted: unknown', {}, '', { hops: 0 }, 'unknown'],
  ];
  for (const [what, h, socket, trust, expected] of cases) {
    it(what, () => expect(clientAddress(headers(h), socket, trust)).toBe(expected));
  }

  it('a client rotating through its own /64 stays one client', () => {
    const keys = new Set(
      Array.from({ length: 50 }, (_, i) =>
        clientAddress(headers({ 'x-forwarded-for': `2001:db8:aa:bb::${(i + 1).toString(16)}` }), '::1', { hops: 1 }),
      ),
    );
    expect([...keys]).toEqual(['2001:db8:aa:bb::/64']);
  });
});

describe('IPv6 parsing agrees with the URL parser (an independent implementation)', () => {
  const samples = [
    '::',
    '::1',
    '1::',
    '2001:db8::1',
    '2001:DB8:0:0:8:800:200C:417A',
    'fe80::1%eth0',
    '::ffff:192.0.2.128',
    '::192.0.2.128',
    '1:2:3:4:5:6:7::',
    '1:2:3:4:5:6:1.2.3.4',
    '64:ff9b::203.0.113.1',
  ];
  for (const sample of samples) {
    it(sample, () => {
      const groups = ipv6Groups(sample) as number[];
      expect(groups).toHaveLength(8);
      const ours = groups.map((g) => g.toString(16)).join(':');
      const theirs = new URL(`http://[${sample.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
      const expand = (h: string) =>
        ipv6Groups(h)
          ?.map((g) => g.toString(16))
          .join(':');
      expect(ours).toBe(expand(theirs));
      expect(isIP(sample.replace(/%.*$/, ''))).toBe(6);
    });
  }
  for (const bad of ['1:::2', '1:2:3:4:5:6:7:8:9', '12345::', ':1', 'g::1', '1.2.3.4', '::1.2.3.999', '1::2::3', '']) {
    it(`not an address: ${JSON.stringify(bad)}`, () => {
      expect(ipv6Groups(bad)).toBeUndefined();
      expect(isIP(bad)).not.toBe(6);
    });
  }
  it('clientKey refuses what is not an address', () => {
    for (const bad of ['', 'unknown', '256.1.1.1', '1.2.3', 'localhost', '1.2.3.4.5'])
      expect(clientKey(bad), bad).toBeUndefined();
  });
});

describe('TRUST_PROXY', () => {
  it('reads a number of hops, the old booleans, or a header name', () => {
    expect(parseProxyTrust('0')).toEqual({ hops: 0 });
    expect(parseProxyTrust('2')).toEqual({ hops: 2 });
    expect(parseProxyTrust('true')).toEqual({ hops: 1 });
    expect(parseProxyTrust('CF-Connecting-IP')).toEqual({ header: 'cf-connecting-ip' });
    for (const bad of ['17', '-1', 'x', 'maybe', 'a b', '1.5', '']) expect(parseProxyTrust(bad), bad).toBeUndefined();
  });
});
