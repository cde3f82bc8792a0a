/**
 * A benchmark's load in a Node process of its own, so that the clients' work is not the measured
 * server's (bench/load.ts, bench/abuse-clients.ts): its answer is the last line it prints, as JSON.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export function runScript<T>(script: string, args: string[]): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolvePromise(JSON.parse(out.trim().split('\n').pop() ?? '{}') as T)
        : reject(new Error(`${script} ${args.join(' ')} exited ${code}`)),
    );
  });
}
