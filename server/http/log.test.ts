import { describe, expect, it } from 'vitest';
import { lineLog } from './log.ts';

describe('lineLog', () => {
  it('writes the lines of one turn of the event loop in one write, in order', async () => {
    const writes: string[] = [];
    const log = lineLog({ write: (text) => writes.push(text) });
    log('GET / 200 1.0ms');
    log('HEAD /rest/v1/listings 206 2.1ms');
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['GET / 200 1.0ms\nHEAD /rest/v1/listings 206 2.1ms\n']);
    log('GET /about 200 0.9ms');
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['GET / 200 1.0ms\nHEAD /rest/v1/listings 206 2.1ms\n', 'GET /about 200 0.9ms\n']);
  });

  it('writes what is pending when flushed (as it is when the process exits)', () => {
    const writes: string[] = [];
    const log = lineLog({ write: (text) => writes.push(text) });
    log('last line');
    log.flush();
    log.flush();
    expect(writes).toEqual(['last line\n']);
  });
});
