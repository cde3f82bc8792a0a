/**
 * `npm start` as a child process (server/main.ts, no build), for tests that must see what the
 * process itself does: its log, whether it keeps running, how it stops, a `kill -9`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnChild } from './child.ts';
import { freePort } from './postgres.ts';

const root = resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** everything the process wrote to stdout and stderr so far */
  output(): string;
  /** exit code (or signal name) once it exited, else null */
  exitStatus(): number | string | null;
  /** resolves when the output matches, rejects when the process exits first or time runs out */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  /** SIGTERM and wait for the exit; resolves to the exit code */
  stop(): Promise<number | string | null>;
  /** SIGKILL (kill -9) and wait for the exit */
  kill(): Promise<void>;
}

export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number; ready?: RegExp; readyMs?: number; args?: string[] } = {},
): Promise<ServerProcess> {
  // a free port may be taken by another suite's process before this one listens on it (the
  // embedded PostgreSQL starts first): then again on another, unless the test chose the port
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, options.port ?? (await freePort()), options);
    } catch (error) {
      if (options.port !== undefined || attempt >= 3 || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}

async function startOnce(
  env: Record<string, string>,
  port: number,
  options: { ready?: RegExp; readyMs?: number; args?: string[] },
): Promise<ServerProcess> {
  // a server on the test's own database keeps its files (mail written as .eml, photos) in a
  // throwaway folder, gone when it exits: never in the repository's .data
  const dataDir = env.DATABASE_URL && !env.DATA_DIR ? mkdtempSync(join(tmpdir(), 'exp-data-')) : undefined;
  const { child, output, exitStatus, exited } = spawnChild(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', ...(options.args ?? [])],
    {
      cwd: root,
      env: {
        ...process.env,
        SKIP_BUILD: '1',
        BUNDLE_PORT: 'off',
        LOG_REQUESTS: '0',
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
        ...env,
        PORT: String(port),
      },
    },
  );
  if (dataDir) void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const proc: ServerProcess = {
    url: `http://localhost:${port}`,
    port,
    child,
    output,
    exitStatus,
    async waitFor(pattern, ms = 60_000) {
      const end = Date.now() + ms;
      while (!pattern.test(output())) {
        if (exitStatus() !== null)
          throw new Error(`the server exited (${exitStatus()}) before ${pattern}:\n${output().slice(-3000)}`);
        if (Date.now() > end) throw new Error(`timed out waiting for ${pattern}:\n${output().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (exitStatus() === null) {
        child.kill('SIGTERM');
        await exited;
      }
      return exitStatus();
    },
    async kill() {
      if (exitStatus() === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
  try {
    await proc.waitFor(options.ready ?? /data API ready/, options.readyMs ?? 120_000);
  } catch (error) {
    await proc.kill();
    throw error;
  }
  return proc;
}
