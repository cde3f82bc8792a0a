/**
 * `npm test`: lint, type check (TypeScript, and Deno for the deployed function), build, unit and
 * contract (vitest), browser (web-test-runner) and end-to-end (playwright) suites, one after
 * another (2 cores), except that lint, types and Deno run side by side, and the lazy packages'
 * install (mostly waiting on the network) runs beside them and the build until the unit stage needs
 * it; the output of a stage that runs beside others is printed whole when it ends. It ends with one
 * plain line:
 *   N passed, N failed[, N skipped]
 * and a non-zero exit code when anything failed. `npm test -- unit e2e` runs only those stages.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Counts } from '../tests/support/counts.ts';
import { DENO, DENO_FLAGS, FUNCTIONS, denoEnv } from '../tests/support/deno-env.ts';
import { runScratch } from '../tests/support/run-scratch.ts';
import { pinSuiteClock } from '../tests/support/suite-clock.mjs';
import { startSharedPostgres } from '../tests/support/shared-postgres.ts';

const root = resolve(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const node = process.execPath;

interface Stage {
  name: string;
  command: string[];
  /** stages without their own reporter count as one check */
  single?: boolean;
  env?: Record<string, string>;
  /** run beside the stages next to it with the same value (their output kept until each ends) */
  together?: string;
  /** started in its turn, it runs beside the stages after it until the named stage begins */
  until?: string;
}

/** The stages that read the shared PostgreSQL's templates (tests/support/shared-postgres.ts): made once, beside the checks, for all of them. */
const DATABASE_STAGES = new Set(['unit', 'browser', 'e2e']);

const stages: Stage[] = [
  // what one suite alone needs (WordPress Playground, the Supabase CLI): installed here on first use, kept after
  { name: 'packages', command: [node, '--import', 'tsx', 'scripts/lazy-packages.ts'], single: true, until: 'unit' },
  // npm run lint: eslint (with the house rules) and prettier's check of the formatting
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'], single: true, together: 'checks' },
  { name: 'types', command: [bin('tsc'), '-p', '.', '--noEmit'], single: true, together: 'checks' },
  // the deployed functions as Deno type-checks them (their npm: imports from the registry, no project config)
  {
    name: 'deno',
    command: [
      DENO,
      'check',
      ...DENO_FLAGS,
      // every function supabase/config.toml declares (the deploy test resolves the same from what is uploaded)
      ...FUNCTIONS.map((fn) => fn.entrypoint),
    ],
    single: true,
    env: denoEnv(),
    together: 'checks',
  },
  { name: 'build', command: [node, '--import', 'tsx', 'scripts/build.ts', '--test-widgets'], single: true },
  { name: 'unit', command: [bin('vitest'), 'run'] },
  { name: 'browser', command: [bin('wtr')] },
  { name: 'e2e', command: [bin('playwright'), 'test'] },
];

/** Runs a stage; `quiet`: its output is kept and printed whole when it ends (stages that run side by side). */
function run(stage: Stage, countsFile: string, quiet = false): Promise<{ code: number; seconds: number }> {
  const t0 = Date.now();
  return new Promise((resolveRun) => {
    const [cmd, ...args] = stage.command as [string, ...string[]];
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: {
        ...process.env,
        ...stage.env,
        EXP_COUNTS_FILE: countsFile,
        FORCE_COLOR: process.env.CI ? '0' : (process.env.FORCE_COLOR ?? '1'),
      },
    });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    const done = (code: number) => {
      if (quiet) process.stdout.write(`\n[test] ── ${stage.name} ──\n${Buffer.concat(output).toString()}`);
      resolveRun({ code, seconds: (Date.now() - t0) / 1000 });
    };
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(`[test] could not start ${stage.name}:`, error.message);
      done(1);
    });
  });
}

async function main(): Promise<void> {
  // one instant for the whole run, every stage and process (docs/decisions.md #33)
  pinSuiteClock();
  // the run's temporary files in one folder, removed at its end (tests/support/run-scratch.ts)
  const scratch = runScratch();
  Object.assign(process.env, scratch.env);
  const { dir } = scratch;
  const wanted = process.argv.slice(2);
  const selected = wanted.length ? stages.filter((s) => wanted.includes(s.name)) : stages;
  // one PostgreSQL with the migrated and seeded templates for every stage that reads them, made
  // while the checks run (the unit stage had made its own, then the e2e stage and the browser
  // tests' data server theirs: the migrations and the seed three times, one after another)
  const sharedStarted = performance.now();
  const shared =
    selected.some((s) => DATABASE_STAGES.has(s.name)) && !process.env.EXP_TEST_POSTGRES_URL
      ? startSharedPostgres()
      : undefined;
  shared?.catch(() => {});
  const stopShared = () => shared?.then((s) => s.stop()).catch(() => {});
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void Promise.resolve(stopShared()).finally(() => {
        scratch.remove();
        process.exit(130);
      });
    });
  let sharedEnv: Record<string, string> | undefined;
  const sharedDatabase = async (): Promise<Record<string, string>> => {
    if (!shared || sharedEnv) return sharedEnv ?? {};
    try {
      sharedEnv = (await shared).env;
      console.log(
        `[test] the shared PostgreSQL and its templates ready after ${((performance.now() - sharedStarted) / 1000).toFixed(0)} s`,
      );
    } catch (error) {
      // each stage then makes its own, and says so if it cannot either
      console.error('[test] the shared PostgreSQL could not be made:', (error as Error).message);
      sharedEnv = {};
    }
    return sharedEnv;
  };
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: string[] = [];
  const summary: string[] = [];
  const started = Date.now();
  // the stages in turn; neighbours with the same `together` as one turn, side by side
  const turns: Stage[][] = [];
  for (const stage of selected) {
    const last = turns.at(-1);
    if (stage.together && last?.[0]?.together === stage.together) last.push(stage);
    else turns.push([stage]);
  }
  // a stage that runs in the background until a later one (its result counted when awaited)
  const background: { stage: Stage; end: Promise<{ code: number; seconds: number }> }[] = [];
  const count = (stage: Stage, { code, seconds }: { code: number; seconds: number }, note: string) => {
    const file = join(dir, `${stage.name}.json`);
    let counts: Counts;
    if (stage.single) counts = code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
    else {
      try {
        counts = JSON.parse(readFileSync(file, 'utf8')) as Counts;
        // a runner that failed without a failing test (setup crash) still fails the run
        if (code !== 0 && counts.failed === 0) counts.failed = 1;
      } catch {
        counts = { passed: 0, failed: code === 0 ? 0 : 1, skipped: 0 };
      }
    }
    // (without the colours a runner may have put in an error's message)
    if (counts.failed)
      failures.push(
        ...(counts.failures?.length ? counts.failures : ['(see the output above)']).map(
          (f) => `[test] ${stage.name}: ${f.replace(/\x1b\[[0-9;]*m/g, '')}`,
        ),
      );
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    summary.push(
      `[test] ${stage.name.padEnd(8)} ${String(counts.passed).padStart(4)} passed ${String(counts.failed).padStart(3)} failed ${String(counts.skipped).padStart(3)} skipped  ${seconds.toFixed(0)} s${note}`,
    );
  };
  const awaitBackground = async (names?: string[]) => {
    for (const entry of background.filter((b) => !names || names.includes(b.stage.until ?? ''))) {
      background.splice(background.indexOf(entry), 1);
      count(entry.stage, await entry.end, ' (in the background)');
    }
  };
  for (const turn of turns) {
    await awaitBackground(turn.map((stage) => stage.name));
    const first = turn[0] as Stage;
    if (turn.length === 1 && first.until) {
      console.log(`\n[test] ── ${first.name} (in the background until ${first.until}) ──`);
      background.push({ stage: first, end: run(first, join(dir, `${first.name}.json`), true) });
      continue;
    }
    for (const stage of turn)
      if (DATABASE_STAGES.has(stage.name)) stage.env = { ...stage.env, ...(await sharedDatabase()) };
    if (turn.length === 1) console.log(`\n[test] ── ${first.name} ──`);
    const ends = await Promise.all(turn.map((stage) => run(stage, join(dir, `${stage.name}.json`), turn.length > 1)));
    for (const [i, stage] of turn.entries())
      count(stage, ends[i] as { code: number; seconds: number }, turn.length > 1 ? ' (side by side)' : '');
  }
  await awaitBackground();
  await stopShared();
  scratch.remove();
  console.log('\n' + summary.join('\n') + `\n[test] total time ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  // what failed, again, where a log that keeps only its tail still has it
  if (failures.length) console.log(`[test] what failed:\n${failures.join('\n')}\n`);
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exitCode = total.failed > 0 ? 1 : 0;
}

void main();
