/**
 * What `npm run import -- …` asks (docs/import.md), read from its words and nothing else: the run of
 * a feed, the reports of the last runs, or a file of places of interest. A command that cannot be
 * run is a UsageError saying what is wrong, which cli.ts prints with the usage (exit 2).
 */
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../db/open-for-command.ts';
import type { ImportSource } from './run.ts';
import { sourceFrom, SourceError } from './sources.ts';

// --postgres chose the embedded PostgreSQL when it was not the default; it still means it
const FLAGS = new Set(['--full', '--allow-withdrawals', '--no-photos', '--postgres']);
const VALUES = new Set([
  '--token',
  '--name',
  '--max-withdraw',
  '--photo-hosts',
  '--language',
  '--area-unit',
  '--source',
  '--last',
  '--expand',
]);

interface Words {
  positional: string[];
  flags: Set<string>;
  values: Map<string, string>;
}

function parseArgs(argv: readonly string[]): Words {
  const positional: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (FLAGS.has(a)) flags.add(a);
    else if (VALUES.has(a)) {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      values.set(a, v);
    } else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  return { positional, flags, values };
}

export type ImportCommand =
  | { kind: 'runs'; values: Map<string, string> }
  | { kind: 'nearby'; location: string; file: string; values: Map<string, string>; flags: Set<string> }
  | {
      kind: 'feed';
      source: ImportSource;
      run: { full: boolean; allowWithdrawals: boolean; photos: boolean };
    };

/** The command of these words; a file is named from `cwd` (where the command was typed). */
export function importCommand(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ImportCommand {
  const { positional, flags, values } = parseArgs(argv);
  const [kind, location] = positional;
  if (kind === 'runs') return { kind, values };
  if (kind === 'nearby') {
    if (!location) throw new UsageError('which GeoJSON file?');
    return { kind, location, file: resolve(cwd, location), values, flags };
  }
  if (!kind) throw new UsageError('which feed?');
  if (positional.length > 2) throw new UsageError(`one feed at a time (got ${positional.slice(1).join(' ')})`);
  try {
    const source = sourceFrom(
      {
        kind,
        location:
          location && !/^https?:\/\//.test(location) && !isAbsolute(location)
            ? resolve(cwd, location)
            : (location ?? ''),
        name: values.get('--name'),
        token: values.get('--token'),
        language: values.get('--language'),
        areaUnit: values.get('--area-unit'),
        maxWithdraw: values.get('--max-withdraw')?.replace(/%$/, ''),
        photoHosts: values.get('--photo-hosts'),
        expand: values.get('--expand'),
      },
      env,
    );
    const run = {
      full: flags.has('--full'),
      allowWithdrawals: flags.has('--allow-withdrawals'),
      photos: !flags.has('--no-photos'),
    };
    return { kind: 'feed', source, run };
  } catch (error) {
    throw error instanceof SourceError ? new UsageError(error.message) : error;
  }
}
