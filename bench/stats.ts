import { request } from 'node:http';
export interface Summary {
  n: number;
  p50: number;
  p75: number;
  p95: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

export function summarise(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: s.length,
    p50: round(at(0.5)),
    p75: round(at(0.75)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(s.reduce((a, b) => a + b, 0) / s.length),
    min: round(s[0] ?? NaN),
    max: round(s[s.length - 1] ?? NaN),
  };
}

export async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The size of an answer to a JSON POST as sent with Accept-Encoding: gzip. */
export function gzipSize(url: string, body: string): Promise<number> {
  return new Promise((resolveSize, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip', apikey: 'bench' } },
      (res) => {
        let size = 0;
        res.on('data', (c: Buffer) => (size += c.length));
        res.on('end', () => resolveSize(size));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
