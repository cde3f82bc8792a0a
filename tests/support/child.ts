/** A child process of a test whose output is kept (the last 200 KB) and whose exit is known. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface Child {
  child: ChildProcess;
  output(): string;
  /** exit code (or signal name) once it exited, else null */
  exitStatus(): number | string | null;
  exited: Promise<void>;
}

/** How much of a child's output is kept, in characters. */
const LIMIT = 200_000;

export function spawnChild(command: string, args: string[], options: SpawnOptions): Child {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  // the output's last chunks, dropped from the front past the limit: a string cut to its last 200 KB at
  // every chunk copied those 200 KB each time (1.8 s of a test's CPU under a chatty server)
  const chunks: string[] = [];
  let kept = 0;
  let status: number | string | null = null;
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      status = code ?? signal;
      r();
    }),
  );
  const append = (d: Buffer) => {
    const text = d.toString();
    chunks.push(text);
    kept += text.length;
    while (chunks.length > 1 && kept - chunks[0]!.length >= LIMIT) kept -= chunks.shift()!.length;
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const output = () => {
    // read often while a test waits for a line: joined once, kept as one chunk
    const text = chunks.join('').slice(-LIMIT);
    chunks.splice(0, chunks.length, text);
    kept = text.length;
    return text;
  };
  return { child, output, exitStatus: () => status, exited };
}
