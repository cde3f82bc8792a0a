/**
 * The tests' child processes (tests/support/child.ts): what a chatty child wrote is kept to its last
 * 200,000 characters, in order, whatever the size of its writes.
 */
import { describe, expect, it } from 'vitest';
import { spawnChild } from '../support/child.ts';

describe('a child process of a test', () => {
  it('keeps the last 200,000 characters of its output, in order, however it is cut', async () => {
    // 3,000 numbered lines of 100 characters, written in writes of several sizes
    const script = `
      const lines = Array.from({ length: 3000 }, (_, i) => String(i).padStart(6, '0') + '.'.repeat(93) + '\\n');
      let i = 0;
      const next = () => {
        if (i >= lines.length) return;
        const n = [1, 7, 40][i % 3];
        process.stdout.write(lines.slice(i, i + n).join(''), next);
        i += n;
      };
      next();`;
    const child = spawnChild(process.execPath, ['-e', script], {});
    await child.exited;
    expect(child.exitStatus()).toBe(0);
    const kept = child.output();
    expect(kept).toHaveLength(200_000);
    // the last 2,000 lines whole, the first of them 001000
    expect(kept.startsWith('001000')).toBe(true);
    expect(kept.endsWith(`002999${'.'.repeat(93)}\n`)).toBe(true);
    expect(
      kept
        .split('\n')
        .filter(Boolean)
        .map((l) => Number(l.slice(0, 6))),
    ).toEqual(Array.from({ length: 2000 }, (_, i) => 1000 + i));
    // read again, the same
    expect(child.output()).toBe(kept);
  });
});
