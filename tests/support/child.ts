/** A child process of a test whose output is kept (the last 200 KB) and whose exit is known. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface Child {
  child: ChildProcess;
  output(): string;
  /** exit code (or signal name) once it exited, else null */
  exitStatus(): number | string | null;
  exited: Promise<void>;
}

export function spawnChild(command: string, args: string[], options: SpawnOptions): Child {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let status: number | string | null = null;
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      status = code ?? signal;
      r();
    }),
  );
  const append = (d: Buffer) => {
    out = (out + d.toString()).slice(-200_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return { child, output: () => out, exitStatus: () => status, exited };
}
