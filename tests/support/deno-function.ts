/**
 * A deployed function (supabase/functions/<name>/index.ts; send-property-inquiry by default) run by Deno from npm
 * (the `deno` package), as Supabase runs it: no project config, `npm:` imports resolved from the
 * npm registry this machine uses into a cache of our own (.cache/deno), its secrets from the
 * environment, on a PostgreSQL with our migrations and seed applied.
 */
import { resolve } from 'node:path';
import { spawnChild } from './child.ts';
import { DENO, DENO_FLAGS, denoEnv } from './deno-env.ts';
import { freePort } from './postgres.ts';

const root = resolve(import.meta.dirname, '../..');

export { IMPORT_MAP } from './deno-env.ts';

export interface DenoFunction {
  /** where the function answers (any path: the platform routes /functions/v1/<name> to it) */
  url: string;
  /** the Deno process (its CPU time: bench/functions.ts) */
  pid: number;
  /** the scheduled call (pg_cron + pg_net in production): probe SMTP, deliver what is due */
  drain(): Promise<Record<string, number>>;
  output(): string;
  exitStatus(): number | string | null;
  stop(): Promise<void>;
}

export const DRAIN_SECRET = 'test-drain-secret';

/** `dir`: the project folder to run it from (the repository; or what a deploy uploaded, tests/support/functions-deploy.ts). */
export async function startDenoFunction(
  secrets: Record<string, string>,
  name = 'send-property-inquiry',
  dir = root,
): Promise<DenoFunction> {
  const port = await freePort();
  const { child, output, exitStatus, exited } = spawnChild(
    DENO,
    [
      'run',
      ...DENO_FLAGS,
      '--no-prompt',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      `supabase/functions/${name}/index.ts`,
    ],
    {
      cwd: dir,
      env: {
        ...denoEnv(),
        // Deno.serve() listens where this says (the platform decides the address in production)
        DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`,
        OUTBOX_DRAIN_SECRET: DRAIN_SECRET,
        ...secrets,
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  // the first start downloads the npm packages into the cache
  const end = Date.now() + 180_000;
  for (;;) {
    if (exitStatus() !== null) throw new Error(`the Deno function exited (${exitStatus()}):\n${output().slice(-4000)}`);
    try {
      const res = await fetch(url, { method: 'OPTIONS', headers: { Origin: 'http://localhost' } });
      await res.arrayBuffer();
      break;
    } catch {
      if (Date.now() > end) {
        child.kill('SIGKILL');
        throw new Error(`the Deno function did not answer:\n${output().slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    pid: child.pid ?? 0,
    async drain() {
      const res = await fetch(url, { method: 'POST', headers: { 'x-outbox-drain': DRAIN_SECRET } });
      const body = (await res.json()) as Record<string, number>;
      if (!res.ok) throw new Error(`drain: ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
    output,
    exitStatus,
    async stop() {
      if (exitStatus() === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
